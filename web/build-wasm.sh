#!/usr/bin/env bash
# Builds the playground's wasm (web/wasm/lab.c and the library's unchanged sources, for
# wasm32-wasi with clang and Debian's wasi-libc) into $1 (default build/web/lab.wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${BUILD:-build}/web/lab.wasm}
gen=$(dirname "$out")/include
mkdir -p "$gen/spring"
if ! printf 'int x;\n' | clang --target=wasm32-wasi -mexec-model=reactor -x c - -o /dev/null -nostartfiles -Wl,--no-entry >/dev/null 2>&1; then
	echo "build-wasm: clang cannot build for wasm32-wasi: run scripts/ensure-deps.sh test (wasi-libc, lld, libclang-rt-*-dev-wasm32)" >&2
fi
sed -e 's/@PROJECT_VERSION_MAJOR@/0/' -e 's/@PROJECT_VERSION_MINOR@/0/' -e 's/@PROJECT_VERSION_PATCH@/0/' \
    -e 's/@PROJECT_VERSION@/playground/' cmake/version.h.in > "$gen/spring/version.h"
# Rig creation needs about 40 KB of stack (rig.h); the scenes keep their chains in static memory.
clang --target=wasm32-wasi -mexec-model=reactor -std=c11 -O2 -ffp-contract=off \
	-Wall -Wextra -Wpedantic -Werror -Iinclude -I"$gen" -Itests/shared -DSPRING_BUILDING \
	-Wl,--stack-first -Wl,-z,stack-size=262144 -Wl,--gc-sections \
	src/*.c tests/shared/scenes.c web/wasm/lab.c -lm -o "$out"
echo "build-wasm: $out ($(wc -c < "$out") bytes)"
