# The Makefile only drives CMake and the set-up. Two commands matter:
#   make demo   builds the release configuration and runs the demo
#   make test   builds the test configurations (gcc and clang, ASan+UBSan, -Werror) and runs every
#               test, then runs the core tests as wasm32 under Node (determinism goldens must match)
JOBS ?= 2
BUILD ?= build
CMAKE_TEST_FLAGS = -DCMAKE_BUILD_TYPE=Debug -DSPRING_WERROR=ON -DSPRING_SANITIZE=ON

.PHONY: all demo test test-gcc test-clang test-wasm release bench deps deps-test clean

all: release

deps:
	@scripts/ensure-deps.sh build

deps-test:
	@scripts/ensure-deps.sh test

release: deps
	cmake -S . -B $(BUILD)/release -DCMAKE_BUILD_TYPE=Release -DSPRING_WERROR=ON
	cmake --build $(BUILD)/release -j $(JOBS)

demo: release
	$(BUILD)/release/tools/spring demo

bench: release
	$(BUILD)/release/bench/spring_bench 9 $(BUILD)/bench.csv

test-gcc: deps-test
	cmake -S . -B $(BUILD)/test-gcc -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ $(CMAKE_TEST_FLAGS)
	cmake --build $(BUILD)/test-gcc -j $(JOBS)
	ctest --test-dir $(BUILD)/test-gcc --output-on-failure -j $(JOBS)

test-clang: deps-test
	cmake -S . -B $(BUILD)/test-clang -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ $(CMAKE_TEST_FLAGS)
	cmake --build $(BUILD)/test-clang -j $(JOBS)
	ctest --test-dir $(BUILD)/test-clang --output-on-failure -j $(JOBS)

test-wasm: deps-test
	scripts/test-wasm.sh

test: test-gcc test-clang test-wasm

clean:
	rm -rf $(BUILD)
