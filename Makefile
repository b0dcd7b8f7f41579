# SPDX-License-Identifier: MIT
# The Makefile only drives CMake and the set-up. Two commands matter:
#   make demo   builds what the demo runs (the `spring` command and the playground page), runs it
#   make test   builds the test configurations (gcc and clang, ASan+UBSan, -Werror) and runs every
#               test, then runs the core tests as wasm32 under Node (determinism goldens must match),
#               and checks that the sources follow .clang-format (`make format` reformats them),
#               and cross-builds the library and its C tests for aarch64 and runs them under qemu-user
#               (make test-aarch64, scripts/test-aarch64.sh: the same goldens, bit for bit),
#               and runs the whole suite again in the release build (-O3, LTO: make test-release),
#               and runs each libFuzzer target on 15,000 inputs from a fixed seed and replays its past crashes (fuzz/README.md);
#               rig files loaded from four threads run under ThreadSanitizer (scripts/test-threads.sh),
#               and the npm package (js/, built by `make web`) is tested under Node (make test-web)
#               and the playground page (web/) in chromium (make test-web-page), and the set-up
#               scripts against a simulated bare Debian (make test-deps)
#   make test-fresh   the two commands above on a brand-new Debian 12 root (root and the mirror
#               needed; scripts/test-fresh.sh): what a new user meets
#   make install PREFIX=/some/where   installs the release build (default /usr/local): library, headers,
#               CMake package, pkg-config files, spring::io, the `spring` command, sample rigs, docs
#   make docs   the API reference (Doxygen, installed from Debian when missing): $(BUILD)/docs/html/index.html
#   make fuzz   runs every libFuzzer target for FUZZ_SECONDS seconds each (default 600), or FUZZ_RUNS
#               inputs each when set; FUZZ_TARGETS chooses targets (e.g. FUZZ_TARGETS=restore)
JOBS ?= 2
SOAK_HOURS ?= 1
BUILD ?= build
PREFIX ?= /usr/local
CMAKE_TEST_FLAGS = -DCMAKE_BUILD_TYPE=Debug -DSPRING_WERROR=ON -DSPRING_SANITIZE=ON

.PHONY: docs install soak all demo cli web test-deps test-fresh test-web test-web-page test test-gcc test-clang test-wasm test-aarch64 test-threads test-release test-format test-fuzz fuzz format release bench deps deps-test clean

all: release

deps:
	@scripts/ensure-deps.sh build

deps-test:
	@scripts/ensure-deps.sh test

RELEASE_CONFIGURE = cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release -DSPRING_WERROR=ON
release: deps
	$(RELEASE_CONFIGURE)
	cmake --build $(BUILD)/release -j $(JOBS)

# The `spring` command alone (and the library it links), in the release build's tree.
cli: deps
	$(RELEASE_CONFIGURE)
	cmake --build $(BUILD)/release -j $(JOBS) --target spring_cli

# The API reference from the header comments (Doxyfile); the version from project(VERSION).
docs:
	@scripts/ensure-deps.sh docs
	@mkdir -p $(BUILD)/docs
	SPRING_DOCS_OUT=$(BUILD)/docs SPRING_VERSION=$$(sed -n 's/^project(spring VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt) doxygen Doxyfile
	@echo "API reference: $(BUILD)/docs/html/index.html"

install: release
	cmake --install $(BUILD)/release --prefix $(PREFIX)

demo: cli web
	$(BUILD)/release/tools/spring demo
	@echo "The playground (one self-contained page; open it in a browser): file://$(abspath $(BUILD))/web/index.html"

soak: release
	$(BUILD)/release/bench/spring_soak examples/rigs/character.json $(SOAK_HOURS)

# The C suite (bench/), then the peers under node when node and npm are there (bench/peers/,
# installed with npm ci from its lock file), with the ratios libspring / peer of the same run.
BENCH_REPS ?= 9
PEER_REPS ?= 3
BENCH_FLAGS ?= # --markdown: tables as Markdown (bench/RESULTS.md)
# The rows "before the speed-ups" link the library of commit 3ec4606, the rows "at the one-engine
# work's base" that of commit 9944929 (bench/before.sh), built with the release build's C
# compiler; without git history they are left out.
bench: release
	@cc=$$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' $(BUILD)/release/CMakeCache.txt); \
	if bench/before.sh $(BUILD)/before "$${cc:-cc}"; then before=$(abspath $(BUILD))/before/libspring_before.a; else before=; fi; \
	if bench/before.sh $(BUILD)/base "$${cc:-cc}" 9944929 base_; then base=$(abspath $(BUILD))/base/libspring_base.a; else base=; fi; \
	cmake -S . -B $(BUILD)/release -DSPRING_BENCH_BEFORE="$$before" -DSPRING_BENCH_BASE="$$base" >/dev/null && \
	cmake --build $(BUILD)/release -j $(JOBS) --target spring_bench
	$(BUILD)/release/bench/spring_bench --reps $(BENCH_REPS) --csv $(BUILD)/bench.csv $(BENCH_FLAGS)
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		cd bench/peers && npm ci --no-audit --no-fund --silent && \
		node peers.mjs --reps $(PEER_REPS) --libspring $(abspath $(BUILD))/bench.csv --csv $(abspath $(BUILD))/bench-peers.csv $(BENCH_FLAGS); \
	else echo "bench: node or npm not found: the peers (bench/peers) were not run"; fi

test-gcc: deps-test
	cmake -S . -B $(BUILD)/test-gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ $(CMAKE_TEST_FLAGS)
	cmake --build $(BUILD)/test-gcc -j $(JOBS)
	ctest --test-dir $(BUILD)/test-gcc --output-on-failure -j $(JOBS)

test-clang: deps-test
	cmake -S . -B $(BUILD)/test-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ $(CMAKE_TEST_FLAGS)
	cmake --build $(BUILD)/test-clang -j $(JOBS)
	ctest --test-dir $(BUILD)/test-clang --output-on-failure -j $(JOBS)

# The core C tests built for wasm32-wasi (cmake/toolchains/wasm32-wasi.cmake, tests/wasm/) and run by
# CTest under Node, scalar and simd128: the determinism goldens are the native ones, bit for bit.
test-wasm: deps-test
	cmake --preset wasm-test -B $(BUILD)/wasm
	cmake --build $(BUILD)/wasm -j $(JOBS)
	ctest --test-dir $(BUILD)/wasm --output-on-failure -j $(JOBS)

# Rig files loaded from four threads at once under ThreadSanitizer, with cJSON built from
# Debian's source package so that TSan sees inside it.
test-threads: deps-test
	scripts/test-threads.sh

# The library and its C tests cross-built for 64-bit ARM Linux (release configuration) and run
# under qemu-user: the determinism goldens are the x86-64 ones (scripts/test-aarch64.sh).
test-aarch64: deps-test
	JOBS=$(JOBS) BUILD=$(BUILD) scripts/test-aarch64.sh

# The whole CTest suite again in the optimised build users ship (-O3, LTO, no sanitizers): the
# determinism goldens and the tests that force each instruction set's kernels and compare bits.
test-release: deps-test release
	ctest --test-dir $(BUILD)/release --output-on-failure -j $(JOBS)

# The layout of every tracked C/C++ source (clang-format 14, as Debian 12 ships it), and the
# licence line at the top of every source, header, script and CMake file (scripts/check-spdx.sh).
test-format: deps-test
	scripts/check-format.sh
	scripts/check-spdx.sh

format:
	scripts/check-format.sh --fix

# libFuzzer targets (fuzz/): 15,000 inputs each (fixed seed) plus every past crash in `make test`; FUZZ_SECONDS each in `make fuzz`.
FUZZ_SECONDS ?= 600
test-fuzz: deps-test
	JOBS=$(JOBS) fuzz/run.sh --test

fuzz: deps-test
	JOBS=$(JOBS) fuzz/run.sh --seconds $(FUZZ_SECONDS) $(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS)) $(FUZZ_TARGETS)

# The npm package (js/: the library built for wasm32 with its JavaScript layer, tested under Node by
# make test-web) and the playground page, $(BUILD)/web/index.html (web/), by CMake for wasm32-wasi
# (the preset web: js/CMakeLists.txt, web/CMakeLists.txt). SPRING_WASM_KEEP_NAMES=1 keeps the
# modules' function names (to see what takes the room).
web:
	@scripts/ensure-deps.sh web
	cmake --preset web -B $(BUILD)/wasm-web -DSPRING_WEB_PAGE_DIR=$(abspath $(BUILD))/web \
		-DSPRING_WASM_KEEP_NAMES=$(if $(SPRING_WASM_KEEP_NAMES),ON,OFF)
	cmake --build $(BUILD)/wasm-web -j $(JOBS)

test-web: web cli
	cd js && npm ci --no-audit --no-fund --loglevel=error && npx tsc --noEmit -p .
	cd tests/vrm/threevrm && npm ci --no-audit --no-fund --loglevel=error
	BUILD=$(BUILD) node --test js/test/

# The playground page (web/) in Debian's chromium (playwright-core): from file://, desktop and phone.
test-web-page: web cli
	@scripts/ensure-deps.sh web-page
	BUILD=$(BUILD) node --test web/test/

# The set-up (seconds, no network, no root): shellcheck, and ensure-deps on a simulated bare Debian.
test-deps: deps-test
	scripts/test-deps.sh

# The README's two commands on a brand-new Debian 12 root (scripts/test-fresh.sh; .ci/run runs it).
test-fresh:
	scripts/test-fresh.sh

test: test-deps test-gcc test-clang test-wasm test-aarch64 test-threads test-release test-format test-fuzz test-web test-web-page

clean:
	rm -rf $(BUILD)
