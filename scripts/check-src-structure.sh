#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The library's sources keep a shape a new contributor can read (ctest src_structure):
#   - no file in src/ is over 1,200 lines;
#   - no two files in src/ include each other in a circle (#include "..." of src/ files);
#   - no two translation units call each other in a circle: a unit's undefined symbols that
#     another unit of the library defines are its calls down; the graph of units has no loop;
#   - every unit's first include is fp_contract.h (no fused multiply-add in any unit, whatever
#     the compiler's default: fp_contract.h).
# Usage: scripts/check-src-structure.sh OBJECT_DIR   (the library's object files, *.o, as nm reads them)
set -euo pipefail
cd "$(dirname "$0")/.."
objects=${1:?usage: scripts/check-src-structure.sh OBJECT_DIR}
limit=1200
failed=0
fail() {
	echo "check-src-structure: $*" >&2
	failed=1
}

for f in src/*.c src/*.h; do
	n=$(wc -l <"$f")
	[ "$n" -le "$limit" ] || fail "$f has $n lines (at most $limit)"
done

for f in src/*.c; do
	first=$(sed -n 's/^#include "\([^"]*\)".*/\1/p; s/^#include <\([^>]*\)>.*/\1/p' "$f" | head -n 1)
	[ "$first" = "fp_contract.h" ] || fail "$f includes $first first (fp_contract.h must come first)"
done

# A directed graph as "from to" lines on stdin: prints a loop's members, or nothing.
loop_of() {
	# tsort names the members of each loop it finds on standard error.
	tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop' || true
}

includes=$(for f in src/*.c src/*.h; do
	sed -n 's/^#include "\([^"/]*\)".*/\1/p' "$f" | while read -r h; do
		[ -f "src/$h" ] && [ "src/$h" != "$f" ] && echo "$f src/$h"
	done
done)
loop=$(printf '%s\n' "$includes" | loop_of)
[ -z "$loop" ] || fail "files in src/ include each other in a circle: $(echo "$loop" | tr '\n' ' ')"

shopt -s nullglob
objs=("$objects"/*.o)
[ ${#objs[@]} -gt 0 ] || {
	echo "check-src-structure: no object files in $objects" >&2
	exit 1
}
# name.o: defined (T D B R, and weak W V) and undefined (U) global symbols.
defs=$(for o in "${objs[@]}"; do nm -g --defined-only "$o" | awk -v u="$(basename "$o" .o)" 'NF == 3 { print $3, u }'; done | sort -u)
calls=$(for o in "${objs[@]}"; do nm -g --undefined-only "$o" | awk -v u="$(basename "$o" .o)" '{ print $NF, u }'; done | sort -u)
edges=$(join <(printf '%s\n' "$calls") <(printf '%s\n' "$defs") | awk '$2 != $3 { print $2, $3 }' | sort -u)
[ -n "$edges" ] || fail "no calls between the units in $objects (nm read nothing?)"
loop=$(printf '%s\n' "$edges" | loop_of)
[ -z "$loop" ] || fail "units of src/ call each other in a circle: $(echo "$loop" | tr '\n' ' ')"

[ "$failed" -eq 0 ] || exit 1
files=(src/*.c src/*.h)
echo "check-src-structure: ${#files[@]} files of at most $limit lines, no include circle, no call circle among ${#objs[@]} units ($(printf '%s\n' "$edges" | wc -l) calls between units)"
