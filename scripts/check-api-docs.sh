#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that every public function (declared with SPRING_API) in the public headers has a doc
# comment, and lists every one that has none. Documented means: `///` lines directly above the
# declaration, a trailing `///<` on it, or membership in a group: declarations on consecutive lines
# (no blank line between) under one `///` comment, e.g. the vec2 operations or the snapshot trio.
# Usage: scripts/check-api-docs.sh [HEADER...] (default: include/spring/*.h). Run by the tests
# (ctest api_docs); needs no Doxygen.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -eq 0 ]; then
	set -- include/spring/*.h
fi
report=$(awk '
	function finish() { if (!documented) { bad++; print "  " FILENAME ":" line ": " name } in_decl = 0 }
	FNR == 1 { comment = 0; group = 0; in_decl = 0 }
	in_decl {
		if ($0 ~ /\/\/\/</) documented = 1
		if ($0 ~ /;/) { finish(); group = documented }
		next
	}
	/^[ \t]*SPRING_API[ \t]/ {
		total++
		name = $0; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name); line = FNR
		documented = comment || group || ($0 ~ /\/\/\/</)
		comment = 0
		if ($0 ~ /;/) { finish(); group = documented } else { in_decl = 1 }
		next
	}
	/^[ \t]*\/\/\// { comment = 1; next }
	{ comment = 0; group = 0 }
	END { print "total " total + 0 " undocumented " bad + 0 }
' "$@")
summary=$(printf '%s\n' "$report" | tail -n 1)
listing=$(printf '%s\n' "$report" | sed '$d')
total=$(echo "$summary" | cut -d' ' -f2)
if [ -n "$listing" ]; then
	echo "check-api-docs: public functions without a doc comment (/// above the declaration or its group, ///< after it):" >&2
	printf '%s\n' "$listing" >&2
	exit 1
fi
if [ "$total" -eq 0 ]; then
	echo "check-api-docs: no SPRING_API declarations found in $*" >&2
	exit 1
fi
echo "check-api-docs: all $total public functions in $# headers are documented"
