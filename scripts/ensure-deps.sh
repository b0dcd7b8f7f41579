#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what a make target needs when it is missing (Debian: apt-get as root, through sudo
# otherwise). Usage: scripts/ensure-deps.sh WHAT, where WHAT is
#   build     the release build: cmake, make, a C compiler that links, cJSON
#   test      the test suite (make test): build's, plus g++, clang with its sanitizer, fuzzer and
#             wasm32 runtimes and llvm-ar, clang-format 14, shellcheck, xmllint, Node.js, SDL2 with
#             Xvfb and xauth (the window example), and the aarch64 cross compiler with its C library
#             and qemu-user (make test-aarch64)
#   docs      doxygen
#   web       the npm package and the playground page (CMake, clang for wasm32 with llvm-ar,
#             Node.js and npm, binaryen)
#   web-page  the playground's browser tests (Debian's chromium, npm's playwright-core)
#   fresh     make test-fresh (mmdebstrap)
#   packages  prints every Debian package name this script can ask for, one per line
# Without apt-get (Fedora, macOS...) it installs nothing: a build that finds cJSON through
# pkg-config or CMake goes on, and what is missing is named with its Debian package names.
#
# SPRING_DEPS_SYSROOT (for the tests, scripts/test-deps.sh): the file probes look under this
# directory instead of /.
set -euo pipefail
what=${1:-build}
sysroot=${SPRING_DEPS_SYSROOT:-}
here=$(cd "$(dirname "$0")/.." && pwd)

# The Debian 12 clang's major version, for its wasm32 runtime package when clang is not there yet.
clang_default=14

case "$what" in
	build | test | docs | web | web-page | fresh) ;;
	packages)
		# Every name below, for make test-fresh's check that each exists (apt-cache show).
		printf '%s\n' cmake make gcc libc6-dev libcjson-dev g++ pkg-config clang libxml2-utils \
			clang-format-14 shellcheck nodejs npm wasi-libc lld "libclang-rt-$clang_default-dev-wasm32" "llvm-$clang_default" \
			libclang-rt-dev binaryen chromium doxygen mmdebstrap gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
			g++-aarch64-linux-gnu qemu-user libsdl2-dev xvfb xauth | sort -u
		exit 0 ;;
	*) echo "ensure-deps: unknown target '$what' (build, test, docs, web, web-page, fresh or packages)" >&2; exit 2 ;;
esac

have() { command -v "$1" >/dev/null 2>&1; }
# A C compiler that links a program: Debian's gcc without libc6-dev finds no crt files.
links() { printf 'int main(void){return 0;}\n' | "$1" -x c - -o /dev/null >/dev/null 2>&1; }

# The rig-file reader (spring::io, not the library) and the tools use cJSON: found by pkg-config
# or by its CMake package (cJSONConfig.cmake under a usual prefix) as tools/CMakeLists.txt finds it.
have_cjson() {
	[ -f "$sysroot/usr/include/cjson/cJSON.h" ] && return 0
	have pkg-config && pkg-config --exists libcjson && return 0
	local dir prefixes=(/usr /usr/local /opt/homebrew /opt/local)
	[ -n "${CMAKE_PREFIX_PATH:-}" ] && IFS=: read -r -a extra <<<"$CMAKE_PREFIX_PATH" && prefixes+=("${extra[@]}")
	for dir in "${prefixes[@]}"; do
		compgen -G "$sysroot$dir/lib*/cmake/cJSON/cJSONConfig.cmake" >/dev/null && return 0
		compgen -G "$sysroot$dir/lib/*/cmake/cJSON/cJSONConfig.cmake" >/dev/null && return 0
	done
	return 1
}

missing=()
need() { # need COMMAND PACKAGE: PACKAGE when COMMAND is not on PATH
	have "$1" || missing+=("$2")
}

case "$what" in
	build | test)
		need cmake cmake
		need make make
		need gcc gcc
		# gcc is installed without recommends: libc6-dev (crt files, headers) comes on its own.
		if ! have gcc || ! links gcc; then missing+=(libc6-dev); fi
		have_cjson || missing+=(libcjson-dev) ;;
	docs) need doxygen doxygen ;;
	fresh) need mmdebstrap mmdebstrap ;;
esac

if [ "$what" = test ]; then
	need g++ g++
	need pkg-config pkg-config
	need clang clang
	need clang++ clang
	# The CLI tests check that SVG and HTML outputs are well-formed XML with xmllint.
	need xmllint libxml2-utils
	# The layout check (scripts/check-format.sh) is pinned to Debian 12's clang-format, 14.
	need clang-format-14 clang-format-14
	# The set-up scripts pass shellcheck (scripts/test-deps.sh).
	need shellcheck shellcheck
	# make test-aarch64: the library and tests cross-built for 64-bit ARM and run under qemu-user.
	# The cross gcc comes without recommends, so without its C library (crt files, headers).
	need aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
	if ! have aarch64-linux-gnu-gcc || ! links aarch64-linux-gnu-gcc; then missing+=(libc6-dev-arm64-cross); fi
	need qemu-aarch64 qemu-user
	# Its C++ checks (the headers and every documentation example compiled as C++).
	need aarch64-linux-gnu-g++ g++-aarch64-linux-gnu
	# The install test builds the window example (examples/window.c, SDL2) and checks its frames
	# headless under Xvfb: xvfb-run, which needs xauth.
	if [ ! -f "$sysroot/usr/include/SDL2/SDL.h" ] && ! { have pkg-config && pkg-config --exists sdl2; }; then
		missing+=(libsdl2-dev)
	fi
	need xvfb-run xvfb
	need xauth xauth
fi

# make web: the npm package (js/) and the page are built for wasm32 by CMake and clang, and the
# package is packed and tested with npm.
if [ "$what" = web ]; then
	need cmake cmake
	need clang clang
	need npm npm
	# binaryen's wasm-opt, which clang runs on the module when installed: 10 % smaller
	need wasm-opt binaryen
fi

# make test-web-page: the playground's browser tests drive Debian's chromium with npm's
# playwright-core, pinned in web/test/package-lock.json (installed with npm ci when missing).
if [ "$what" = web-page ]; then
	need chromium chromium
	need npm npm
fi

if [ "$what" = test ] || [ "$what" = web ]; then
	need node nodejs
	# wasm32-wasi: clang's wasm target needs Debian's wasi-libc, lld and the wasm32 compiler-rt.
	if have clang; then
		probe=$(mktemp -d)
		if ! printf '#include <math.h>\nint main(void){return (int)sqrt(4.0);}\n' >"$probe/p.c" ||
			! clang --target=wasm32-wasi -O2 "$probe/p.c" -lm -o "$probe/p.wasm" >/dev/null 2>&1; then
			missing+=(wasi-libc lld "libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev-wasm32")
		fi
		rm -rf "$probe"
	else
		missing+=(wasi-libc lld "libclang-rt-$clang_default-dev-wasm32")
	fi
	# CMake's wasm32-wasi toolchain (cmake/toolchains/wasm32-wasi.cmake; make test-wasm, make web)
	# takes llvm-ar-14 and llvm-ranlib-14 as its archiver and stops without them (binutils' ar
	# cannot index wasm objects): Debian's llvm-14, which clang only recommends (via llvm-14-dev).
	need "llvm-ar-$clang_default" "llvm-$clang_default"
	need "llvm-ranlib-$clang_default" "llvm-$clang_default"
fi
# clang's sanitizer runtime lives in libclang-rt-*-dev on Debian 12 (only recommended by clang,
# and recommends are not installed here): probe it, or add it when clang itself is missing.
if [ "$what" = test ]; then
	if ! have clang; then
		missing+=(libclang-rt-dev)
	elif ! echo 'int main(void){return 0;}' | clang -x c -fsanitize=address,undefined -o /dev/null - >/dev/null 2>&1 ||
		! echo 'int main(void){return 0;}' | clang -x c -fsanitize=thread -o /dev/null - >/dev/null 2>&1; then
		missing+=(libclang-rt-dev)
	elif ! echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}' |
		clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; then
		missing+=(libclang-rt-dev) # libFuzzer (fuzz/, make fuzz and make test) is in the same package
	fi
fi

web_page_modules() {
	if [ "$what" = web-page ] && [ ! -f "$here/web/test/node_modules/playwright-core/package.json" ]; then
		echo "ensure-deps: installing playwright-core for the playground's tests (npm ci in web/test)"
		(cd "$here/web/test" && npm ci --no-audit --no-fund --loglevel=error)
	fi
}

if [ ${#missing[@]} -eq 0 ]; then
	web_page_modules
	exit 0
fi
# de-duplicate (no mapfile: macOS has bash 3.2)
read -r -a missing <<<"$(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')"
if ! have apt-get; then
	if [ "${missing[*]}" = libcjson-dev ]; then
		echo "ensure-deps: cJSON not found (for the spring command and spring::io): install cjson-devel (dnf)" \
			"or cjson (brew), or build the library alone: cmake -S . -B build -DSPRING_BUILD_TOOLS=OFF" >&2
	else
		echo "ensure-deps: apt-get not found; please install (Debian names): ${missing[*]}" >&2
	fi
	exit 1
fi
echo "ensure-deps: installing missing packages: ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if have sudo; then sudo=(sudo); else
		echo "ensure-deps: not root and no sudo; please install: ${missing[*]}" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
${sudo[@]+"${sudo[@]}"} apt-get update -qq || true
${sudo[@]+"${sudo[@]}"} apt-get install -y -qq --no-install-recommends "${missing[@]}"
web_page_modules
