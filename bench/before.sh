#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the library as it was at an earlier commit with every one of its global symbols renamed
# PREFIX* (a forced-include header of #defines), so that spring_bench links it beside the current
# library and runs both in the same process, each link-time optimised with the benchmark as a
# user's program would be. Two such builds are benchmarked: commit 3ec4606 (prefix before_), the
# code before the speed-ups that the targets "3x and 5x the single chains of before" are measured
# against, and commit 9944929 (prefix base_), the code before the one-engine work (one lane layer,
# the tip step written once, one group contract), which the rows of that work must not fall below.
#
# Usage: bench/before.sh OUT_DIR [C compiler [COMMIT PREFIX]]
#   writes OUT_DIR/libspring_NAME.a (NAME: PREFIX without its final _); needs git history.
# The commit's own release configuration builds it: -O3, -ffp-contract=off, its float rounding
# flags and link-time optimisation.
set -eu
out=$1
cc=${2:-cc}
commit=${3:-3ec4606}
prefix=${4:-before_}
name=${prefix%_}
root=$(cd "$(dirname "$0")/.." && pwd)

if ! git -C "$root" cat-file -e "$commit^{commit}" 2>/dev/null; then
	echo "bench: commit $commit is not in this clone's history: its rows ($prefix*) are not run" >&2
	exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
lib=$out/libspring_$name.a
if [ -f "$lib" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$commit $prefix $cc" ]; then
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
nm -g --defined-only "$out/plain/libspring.a" | awk -v p="$prefix" 'NF == 3 { print "#define " $3 " " p $3 }' | sort -u >"$out/rename.h"
# ...renamed at their every use and definition.
configure "$out/renamed" -DCMAKE_C_FLAGS="-include $out/rename.h"
cp "$out/renamed/libspring.a" "$lib"
echo "$commit $prefix $cc" >"$out/stamp"
