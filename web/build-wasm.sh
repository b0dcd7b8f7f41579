#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the playground's wasm into $1 (default $BUILD/web/lab.wasm): web/wasm/lab.c with the
# library's unchanged sources, the standard scenes (tests/shared) and the rig-file reader of the
# tools (tools/io, with cJSON from Debian's source package and the single-threaded pthread.h of
# the npm build), for wasm32-wasi with clang and Debian's wasi-libc, as a reactor.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
out=${1:-$build/web/lab.wasm}
gen=$build/web/include
mkdir -p "$gen/spring" "$gen/cjson" "$(dirname "$out")"
if ! echo 'int x;' | clang --target=wasm32-wasi -mexec-model=reactor -x c - -o /dev/null >/dev/null 2>&1; then
	echo "web/build-wasm.sh: clang cannot build for wasm32-wasi: install clang, lld, wasi-libc and" \
	     "libclang-rt-14-dev-wasm32 (scripts/ensure-deps.sh test does)" >&2
	exit 1
fi
sed -e 's/@PROJECT_VERSION_MAJOR@/0/' -e 's/@PROJECT_VERSION_MINOR@/0/' -e 's/@PROJECT_VERSION_PATCH@/0/' \
    -e 's/@PROJECT_VERSION@/playground/' cmake/version.h.in > "$gen/spring/version.h"
cjson=third_party/cjson # the rig-file reader's parser, vendored (no network)
cp "$cjson/cJSON.h" "$gen/cjson/cJSON.h"
cflags=(--target=wasm32-wasi -mexec-model=reactor -std=c11 -O2 -ffp-contract=off -DNDEBUG
        -Wall -Wextra -Wpedantic -Werror -Iinclude -I"$gen" -Itests/shared -Itools/io -Itools/io/include -Ijs/src)
clang "${cflags[@]}" -w -c "$cjson/cJSON.c" -o "$build/web/cJSON.o"
# Rig creation needs about 40 KB of stack (rig.h).
clang "${cflags[@]}" -Wl,--stack-first -Wl,-z,stack-size=262144 -Wl,--gc-sections -Wl,--strip-all \
	src/*.c tests/shared/scenes.c tools/io/*.c web/wasm/lab.c "$build/web/cJSON.o" -lm -o "$out"
echo "web/build-wasm.sh: $out ($(wc -c < "$out") bytes)"
