#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the library and its tests for wasm32-wasi with clang and runs them under Node's WASI.
# The determinism goldens in the tests must match the native gcc and clang builds bit for bit.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BUILD:-build}/wasm
mkdir -p "$out/include/spring"
sed -e 's/@PROJECT_VERSION_MAJOR@/0/' -e 's/@PROJECT_VERSION_MINOR@/0/' -e 's/@PROJECT_VERSION_PATCH@/0/' \
    -e 's/@PROJECT_VERSION@/wasm-test/' cmake/version.h.in > "$out/include/spring/version.h"
# shellcheck disable=SC2054 # the commas belong to -Wl, options
cflags=(--target=wasm32-wasi -std=c11 -O2 -ffp-contract=off
        -Wall -Wextra -Wpedantic -Werror -Iinclude -I"$out/include" -Isrc -Itests -Itests/shared
        -DSPRING_BUILDING -DSPRING_SOURCE_DIR=\".\"
        # The stack first, so that an overflow traps instead of silently overwriting the heap, and
        # 256 KB of it: creating a rig takes about 40 KB of stack (more than wasm-ld's 64 KB
        # default leaves once the tests' own frames are counted; see rig.h).
        -Wl,--stack-first -Wl,-z,stack-size=262144)
# The library and the shared test scenes (tests/shared), compiled into every test.
lib=(src/*.c tests/shared/*.c)
# Tests that use only the core library (the wasm build has no file system access).
read -r -a tests <<<"${SPRING_WASM_TESTS:-test_detmath test_math test_params test_step test_bad_input test_chain test_chain_group test_chain2d test_chain2d_group test_chain2d_sway test_rig test_motion test_batch test_snapshot}"
passed=0 failed=0
for t in "${tests[@]}"; do
	[ -f "tests/$t.c" ] || continue
	# 1 MiB of stack (wasm-ld's default is 64 KiB): rig creation keeps its chain scratch on the stack.
	clang "${cflags[@]}" "${lib[@]}" "tests/$t.c" -lm -Wl,-z,stack-size=1048576 -o "$out/$t.wasm"
	echo "== wasm32 $t"
	if node --experimental-wasi-unstable-preview1 scripts/run-wasi.mjs "$out/$t.wasm"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# The vector kernels' simd128 paths (batch, tip chain groups, angle chain groups): those tests once
# more, built with -msimd128 (the library compiled into them with it).
for t in test_batch test_chain_group test_chain2d_group; do
	if [[ " ${tests[*]} " == *" $t "* ]]; then
		clang "${cflags[@]}" -msimd128 "${lib[@]}" "tests/$t.c" -lm -Wl,-z,stack-size=1048576 -o "$out/${t}_simd128.wasm"
		echo "== wasm32 simd128 $t"
		if node --experimental-wasi-unstable-preview1 scripts/run-wasi.mjs "$out/${t}_simd128.wasm"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
	fi
done
echo "wasm32: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
