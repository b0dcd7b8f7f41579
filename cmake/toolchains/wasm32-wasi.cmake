# SPDX-License-Identifier: MIT
# Builds for wasm32-wasi with Debian 12's clang 14 (no Emscripten): clang --target=wasm32-wasi,
# its wasm-ld (Debian's lld), wasi-libc (Debian's wasi-libc: /usr/include/wasm32-wasi and
# /usr/lib/wasm32-wasi, which Debian's clang searches by itself), the wasm32 compiler-rt
# (libclang-rt-14-dev-wasm32) and llvm-ar-14 / llvm-ranlib-14 (llvm-14). Programs (the tests) run
# under Node's WASI through scripts/run-wasi.mjs. The presets wasm-test and web use it
# (CMakePresets.json; make test-wasm, make web):
#   cmake -S . -B build/wasm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/wasm32-wasi.cmake
# With another wasi-libc (wasi-sdk's, say), give its sysroot: -DSPRING_WASI_SYSROOT=/path/to/wasi-sysroot.
# What is built in such a tree, and with which flags: cmake/wasm.cmake.
set(CMAKE_SYSTEM_NAME WASI) # cmake/Platform/WASI.cmake (CMake 3.25 has none): .wasm programs, static libraries only
set(CMAKE_SYSTEM_VERSION 1)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR}/..)
get_filename_component(SPRING_WASM_SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}/../.. ABSOLUTE)

set(SPRING_WASM_PACKAGES "clang, lld, wasi-libc, libclang-rt-14-dev-wasm32 and llvm-14 (scripts/ensure-deps.sh web installs them)")
find_program(SPRING_WASM_CLANG NAMES clang-14 clang)
find_program(SPRING_WASM_LD NAMES wasm-ld-14 wasm-ld)
find_program(SPRING_WASM_AR NAMES llvm-ar-14 llvm-ar)
find_program(SPRING_WASM_RANLIB NAMES llvm-ranlib-14 llvm-ranlib)
foreach(tool SPRING_WASM_CLANG SPRING_WASM_LD SPRING_WASM_AR SPRING_WASM_RANLIB)
  if(NOT ${tool})
    message(FATAL_ERROR "wasm32-wasi: ${tool} not found: install ${SPRING_WASM_PACKAGES}")
  endif()
endforeach()
set(CMAKE_C_COMPILER ${SPRING_WASM_CLANG})
set(CMAKE_C_COMPILER_TARGET wasm32-wasi)
set(CMAKE_LINKER ${SPRING_WASM_LD} CACHE FILEPATH "wasm-ld (clang runs it)")
set(CMAKE_AR ${SPRING_WASM_AR} CACHE FILEPATH "llvm-ar for wasm32")
set(CMAKE_RANLIB ${SPRING_WASM_RANLIB} CACHE FILEPATH "llvm-ranlib for wasm32")

# wasi-libc: Debian's by default (found by clang without --sysroot), or SPRING_WASI_SYSROOT.
set(SPRING_WASI_SYSROOT "" CACHE PATH "A wasi-libc sysroot (empty: Debian's wasi-libc, /usr/lib/wasm32-wasi)")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SPRING_WASI_SYSROOT) # (this file is read again there)
if(SPRING_WASI_SYSROOT)
  set(CMAKE_SYSROOT ${SPRING_WASI_SYSROOT})
  set(SPRING_WASI_LIBC ${SPRING_WASI_SYSROOT}/lib/wasm32-wasi/libc.a)
else()
  set(SPRING_WASI_LIBC /usr/lib/wasm32-wasi/libc.a)
endif()
if(NOT EXISTS ${SPRING_WASI_LIBC})
  message(FATAL_ERROR "wasm32-wasi: ${SPRING_WASI_LIBC} not found: install ${SPRING_WASM_PACKAGES}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# add_test(COMMAND <a program target>) and try_run run the module under Node's WASI (Node 18 wants
# the flag; later releases accept it).
find_program(SPRING_WASM_NODE node)
if(SPRING_WASM_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPRING_WASM_NODE} --experimental-wasi-unstable-preview1
    ${SPRING_WASM_SOURCE_DIR}/scripts/run-wasi.mjs)
endif()
