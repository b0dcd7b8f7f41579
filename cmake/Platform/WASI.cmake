# SPDX-License-Identifier: MIT
# The WASI platform (CMake 3.25 has none; cmake/toolchains/wasm32-wasi.cmake puts cmake/ on
# CMAKE_MODULE_PATH): programs are .wasm modules, libraries static archives (wasm-ld makes no
# shared libraries for WASI here).
# POSIX-like (wasi-libc): UNIX, as CMake treats Emscripten, so objects are .o and libraries lib*.a.
set(WASI 1)
set(UNIX 1)
set(CMAKE_EXECUTABLE_SUFFIX .wasm)
set(CMAKE_STATIC_LIBRARY_PREFIX lib)
set(CMAKE_STATIC_LIBRARY_SUFFIX .a)
set(CMAKE_FIND_LIBRARY_PREFIXES lib)
set(CMAKE_FIND_LIBRARY_SUFFIXES .a)
set_property(GLOBAL PROPERTY TARGET_SUPPORTS_SHARED_LIBS FALSE)
