#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what `make demo` / `make test` / `make docs` need when it is missing (Debian; apt-get
# when root, sudo otherwise). Usage: scripts/ensure-deps.sh [build|test|docs|web|web-page]
# Without apt-get (Fedora, macOS...) it installs nothing: a build that finds cJSON through
# pkg-config or CMake goes on, and what is missing is named with its dnf and brew packages.
set -euo pipefail
what=${1:-build}

# command:package pairs; a missing command installs its Debian package.
needs=(cmake:cmake make:make gcc:gcc)
# The rig-file reader (spring::io, not the library) and the tools use cJSON: found by pkg-config
# or by its CMake package (cJSONConfig.cmake under a usual prefix) as tools/CMakeLists.txt finds it.
have_cjson() {
	[ -f /usr/include/cjson/cJSON.h ] && return 0
	command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libcjson && return 0
	local dir
	for dir in /usr /usr/local /opt/homebrew /opt/local ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }}; do
		compgen -G "$dir/lib*/cmake/cJSON/cJSONConfig.cmake" >/dev/null && return 0
		compgen -G "$dir/lib/*/cmake/cJSON/cJSONConfig.cmake" >/dev/null && return 0
	done
	return 1
}
if [ "$what" != docs ] && ! have_cjson; then
	missing_cjson=libcjson-dev
fi
if [ "$what" = docs ]; then
	needs=(doxygen:doxygen)
fi
if [ "$what" = test ]; then
	needs+=(g++:g++ pkg-config:pkg-config clang:clang clang++:clang)
	# The CLI tests check that SVG and HTML outputs are well-formed XML with xmllint.
	needs+=(xmllint:libxml2-utils)
	# The layout check (scripts/check-format.sh) is pinned to Debian 12's clang-format, 14.
	needs+=(clang-format-14:clang-format-14)
	# The thread test (scripts/test-threads.sh) unpacks Debian's cjson source package.
	needs+=(dpkg-source:dpkg-dev xz:xz-utils)
fi

# make web: the npm package (js/) is built for wasm32 by clang and packed and tested with npm.
if [ "$what" = web ]; then
	needs+=(clang:clang npm:npm)
	# binaryen's wasm-opt, which clang runs on the module when installed: 10 % smaller
	needs+=(wasm-opt:binaryen)
	# cJSON's source for the wasm32 rig reader is Debian's source package (scripts/fetch-cjson-source.sh).
	needs+=(dpkg-source:dpkg-dev xz:xz-utils)
fi

# make test-web-page: the playground's browser tests drive Debian's chromium with npm's
# playwright-core, pinned in web/test/package-lock.json (installed with npm ci when missing).
if [ "$what" = web-page ]; then
	needs+=(chromium:chromium npm:npm)
fi
web_page_modules() {
	if [ "$what" = web-page ] && [ ! -f "$(dirname "$0")/../web/test/node_modules/playwright-core/package.json" ]; then
		echo "ensure-deps: installing playwright-core for the playground's tests (npm ci in web/test)"
		(cd "$(dirname "$0")/../web/test" && npm ci --no-audit --no-fund)
	fi
}

missing=()
[ -n "${missing_cjson:-}" ] && missing+=("$missing_cjson")
for pair in "${needs[@]}"; do
	command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
done
if [ "$what" = test ] || [ "$what" = web ]; then
	command -v node >/dev/null 2>&1 || missing+=(nodejs)
	# wasm32-wasi: clang's wasm target needs Debian's wasi-libc, lld and the wasm32 compiler-rt.
	if command -v clang >/dev/null 2>&1; then
		probe=$(mktemp -d)
		if ! printf '#include <math.h>\nint main(void){return (int)sqrt(4.0);}\n' > "$probe/p.c" ||
		   ! clang --target=wasm32-wasi -O2 "$probe/p.c" -lm -o "$probe/p.wasm" >/dev/null 2>&1; then
			missing+=(wasi-libc lld "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev-wasm32")
		fi
		rm -rf "$probe"
	else
		missing+=(wasi-libc lld libclang-rt-14-dev-wasm32)
	fi
fi
# clang's sanitizer runtime lives in libclang-rt-*-dev on Debian 12 (only recommended by clang,
# and recommends are not installed here): probe it, or add it when clang itself is missing.
if [ "$what" = test ]; then
	if ! command -v clang >/dev/null 2>&1; then
		missing+=(libclang-rt-dev)
	elif ! echo 'int main(void){return 0;}' | clang -x c -fsanitize=address,undefined -o /dev/null - >/dev/null 2>&1 ||
	     ! echo 'int main(void){return 0;}' | clang -x c -fsanitize=thread -o /dev/null - >/dev/null 2>&1; then
		missing+=(libclang-rt-dev)
	elif ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' |
		clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; then
		missing+=(libclang-rt-dev) # libFuzzer (fuzz/, make fuzz and make test) is in the same package
	fi
fi

if [ ${#missing[@]} -eq 0 ]; then
	web_page_modules
	exit 0
fi
# de-duplicate
missing=($(printf '%s\n' "${missing[@]}" | sort -u)) # (no mapfile: macOS has bash 3.2)
if ! command -v apt-get >/dev/null 2>&1; then
	if [ "${missing[*]}" = libcjson-dev ]; then
		echo "ensure-deps: cJSON not found (for the spring command and spring::io): install cjson-devel (dnf)" \
		     "or cjson (brew), or build the library alone: cmake -S . -B build -DSPRING_BUILD_TOOLS=OFF" >&2
	else
		echo "ensure-deps: apt-get not found; please install (Debian names): ${missing[*]}" >&2
	fi
	exit 1
fi
echo "ensure-deps: installing missing packages: ${missing[*]}"
sudo=
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
		echo "ensure-deps: not root and no sudo; please install: ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq || true
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
web_page_modules
