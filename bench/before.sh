#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the library as it was before the speed-ups (commit 3ec4606, the code the targets "3x and
# 5x the single chains of before" are measured against) with every one of its global symbols
# renamed before_* (a forced-include header of #defines), so that spring_bench links it beside the
# current library and runs both in the same process, each link-time optimised with the benchmark
# as a user's program would be. The single chains' declarations and structs are the same in both.
#
# Usage: bench/before.sh OUT_DIR [C compiler]   (writes OUT_DIR/libspring_before.a; needs git history)
# That commit's own release configuration builds it: -O3, -ffp-contract=off, its float rounding
# flags and link-time optimisation.
set -eu
commit=3ec4606
out=$1
cc=${2:-cc}
root=$(cd "$(dirname "$0")/.." && pwd)

if ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
	echo "bench: commit $commit is not in this clone's history: the rows 'before the speed-ups' are not run" >&2
	exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
lib=$out/libspring_before.a
if [ -f "$lib" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$commit $cc" ]; then
	exit 0
fi
rm -rf "$out/src" "$out/plain" "$out/renamed" "$lib" "$out/stamp"
mkdir -p "$out/src"
git -C "$root" archive "$commit" | tar -x -C "$out/src"
configure() { # build dir, then cmake options
	dir=$1
	shift
	cmake -S "$out/src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER="$cc" -DSPRING_BUILD_TESTS=OFF \
		-DSPRING_BUILD_TOOLS=OFF -DSPRING_BUILD_BENCH=OFF "$@" >"$dir.log"
	cmake --build "$dir" --target spring >>"$dir.log"
}
# Its global symbols, from a build without link-time optimisation...
configure "$out/plain" -DSPRING_LTO=OFF
nm -g --defined-only "$out/plain/libspring.a" | awk 'NF == 3 { print "#define " $3 " before_" $3 }' | sort -u >"$out/rename.h"
# ...renamed at their every use and definition.
configure "$out/renamed" -DCMAKE_C_FLAGS="-include $out/rename.h"
cp "$out/renamed/libspring.a" "$lib"
echo "$commit $cc" >"$out/stamp"
