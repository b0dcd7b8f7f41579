#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the playground (run by `make web`): the page's wasm (web/build-wasm.sh), then the single
# self-contained page $BUILD/web/index.html (web/build-page.mjs). Needs the npm package's wasm
# module (scripts/build-wasm-js.sh, also run by `make web`) to exist first.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD:-build}
if [ ! -f js/libspring-wasm.js ]; then
	echo "web/build.sh: js/libspring-wasm.js is missing: run scripts/build-wasm-js.sh (make web does) first" >&2
	exit 1
fi
web/build-wasm.sh "$build/web/lab.wasm"
node web/build-page.mjs "$build/web/lab.wasm" "$build/web"
