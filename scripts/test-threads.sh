#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Loads rig files from four threads at once under ThreadSanitizer (tests/test_io_threads.c).
# cJSON is built from its vendored source (third_party/cjson) with the same -fsanitize=thread: the
# installed libcjson is not instrumented, and a race inside it (on its global error record) would
# go unseen.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out=$build/tsan
src=$(pwd)/third_party/cjson

cmake -S . -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DSPRING_WERROR=ON \
	-DSPRING_BUILD_BENCH=OFF -DSPRING_LTO=OFF "-DSPRING_CJSON_SOURCE_DIR=$src" \
	"-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" \
	"-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread" >/dev/null
cmake --build "$out" -j "${JOBS:-2}" --target test_io_threads
echo "== tsan test_io_threads"
# halt_on_error: the first race fails the run with TSan's report.
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" "$out/tests/test_io_threads"
