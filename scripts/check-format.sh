#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the C/C++ sources follow .clang-format, or reformats them in place with --fix.
# Usage: scripts/check-format.sh [--fix]
# The layout depends on clang-format's major version, so the version is pinned to the one
# Debian 12 ships (14, also named in scripts/ensure-deps.sh, which installs it when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
pinned=14

fix=0
case "${1:-}" in
	"") ;;
	--fix) fix=1 ;;
	*) echo "usage: scripts/check-format.sh [--fix]" >&2; exit 2 ;;
esac

# The pinned clang-format: clang-format-14, or a plain clang-format of that major version.
find_clang_format() {
	local c version
	for c in "clang-format-$pinned" clang-format; do
		command -v "$c" >/dev/null 2>&1 || continue
		version=$("$c" --version | sed -n 's/.*clang-format version \([0-9][0-9]*\)\..*/\1/p')
		if [ "$version" = "$pinned" ]; then
			echo "$c"
			return 0
		fi
	done
	return 1
}
if ! cf=$(find_clang_format); then
	scripts/ensure-deps.sh test
	if ! cf=$(find_clang_format); then
		echo "check-format: clang-format $pinned not found (found: $(clang-format --version 2>/dev/null || echo none));" \
		     "install clang-format-$pinned" >&2
		exit 1
	fi
fi

# The tracked sources (every C/C++ file when this is not a git checkout).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp' ':!third_party')
else
	mapfile -t files < <(find . -path ./build -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print |
	                     sed 's|^\./||' | sort)
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "check-format: no sources found" >&2
	exit 1
fi

if [ "$fix" -eq 1 ]; then
	"$cf" --style=file -i "${files[@]}"
	echo "check-format: formatted ${#files[@]} files with $cf"
	exit 0
fi

bad=()
for f in "${files[@]}"; do
	"$cf" --style=file --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -eq 0 ]; then
	echo "check-format: ${#files[@]} files follow .clang-format ($cf)"
	exit 0
fi
echo "check-format: ${#bad[@]} of ${#files[@]} files do not follow .clang-format ($cf):" >&2
printf '  %s\n' "${bad[@]}" >&2
echo "first differences:" >&2
"$cf" --style=file --dry-run "${bad[0]}" 2>&1 | head -n 20 >&2 || true
echo "run 'make format' to reformat them in place" >&2
exit 1
