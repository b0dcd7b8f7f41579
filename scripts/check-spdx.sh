#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that every tracked source, header, script and CMake file starts with the licence line
# (`// SPDX-License-Identifier: MIT` or `# ...`, after the #! line of a script) and names every
# file without it; --fix adds the line where it is missing. Run by `make test` (test-format).
# Usage: scripts/check-spdx.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/.."
spdx="SPDX-License-Identifier: MIT"

fix=0
case "${1:-}" in
	"") ;;
	--fix) fix=1 ;;
	*) echo "usage: scripts/check-spdx.sh [--fix]" >&2; exit 2 ;;
esac

# The files concerned and their comment leader.
patterns=('*.c' '*.h' '*.cpp' '*.hpp' '*.js' '*.mjs' '*.ts' '*.h.in'
          '*.sh' '*.py' '*.cmake' '*.cmake.in' '*.pc.in' 'CMakeLists.txt' '*/CMakeLists.txt' 'Makefile' 'Doxyfile')
leader() {
	case "$1" in
		*.c | *.h | *.cpp | *.hpp | *.js | *.mjs | *.ts | *.h.in) echo "//" ;;
		*) echo "#" ;;
	esac
}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files -- "${patterns[@]}" ':!third_party')
else
	echo "check-spdx: not a git checkout" >&2
	exit 1
fi

# The licence line is the first line, or the second after a #! line.
has_spdx() {
	head -n 2 "$1" | grep -q "$spdx"
}

bad=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	has_spdx "$f" && continue
	if [ "$fix" -eq 1 ]; then
		line="$(leader "$f") $spdx"
		tmp=$(mktemp)
		if head -n 1 "$f" | grep -q '^#!'; then
			{ head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } > "$tmp"
		else
			{ echo "$line"; cat "$f"; } > "$tmp"
		fi
		cat "$tmp" > "$f" # keeps the file's mode
		rm -f "$tmp"
		echo "check-spdx: added the licence line to $f"
	else
		bad+=("$f")
	fi
done
if [ ${#bad[@]} -ne 0 ]; then
	echo "check-spdx: ${#bad[@]} of ${#files[@]} files lack the licence line ('// $spdx' or '# $spdx'" \
	     "at the top, after any #! line):" >&2
	printf '  %s\n' "${bad[@]}" >&2
	echo "run 'scripts/check-spdx.sh --fix' to add it" >&2
	exit 1
fi
echo "check-spdx: ${#files[@]} files carry the licence line"
