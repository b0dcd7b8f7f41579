#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test-aarch64 (part of make test): cross-builds the library, the `spring` command and the C
# tests for 64-bit ARM Linux (Debian's gcc-aarch64-linux-gnu, cmake/toolchains/aarch64-linux-gnu.cmake)
# in the release configuration users ship (-O3, link-time optimisation, -ffp-contract=off as
# everywhere, -Werror, no sanitizers) and runs the CTest suite under qemu-user (qemu-aarch64).
# The determinism goldens are the x86-64 ones: they must match bit for bit.
# Left out: install_consumer (it installs spring::io, which is installed only against an installed
# cJSON; here cJSON is built from third_party/cjson, as no arm64 libcjson-dev is installed) and the
# benchmarks (not tests; gcc 12's aarch64 cross compiler stops with an internal error on
# bench/bench_main.c under -O3 -flto). The C++ header check and the documentation examples are
# built with g++-aarch64-linux-gnu (ensure-deps installs it) and run under qemu too.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BUILD:-build}/aarch64
jobs=${JOBS:-2}
for tool in aarch64-linux-gnu-gcc qemu-aarch64; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "test-aarch64: $tool not found: run scripts/ensure-deps.sh test (gcc-aarch64-linux-gnu, qemu-user)" >&2
		exit 1
	}
done
cmake -S . -B "$out" -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/aarch64-linux-gnu.cmake" \
	-DCMAKE_BUILD_TYPE=Release -DSPRING_WERROR=ON -DSPRING_BUILD_BENCH=OFF \
	-DSPRING_CJSON_SOURCE_DIR="$PWD/third_party/cjson" >/dev/null
cmake --build "$out" -j "$jobs"
# The tests' processor-time watchdog (tests/test_macros.h) allows 10 times as much under qemu-user,
# which takes several times the processor time of the same work run natively. The CLI tests run
# the cross-built `spring` command under the same emulator.
export SPRING_TEST_CPU_SCALE=10
SPRING_TEST_EMULATOR="$(command -v qemu-aarch64) -L /usr/aarch64-linux-gnu"
export SPRING_TEST_EMULATOR
ctest --test-dir "$out" --output-on-failure -j "$jobs" -E '^install_consumer$'
