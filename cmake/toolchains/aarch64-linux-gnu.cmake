# SPDX-License-Identifier: MIT
# Cross-builds for 64-bit ARM Linux with Debian's gcc-aarch64-linux-gnu (and its C library,
# libc6-dev-arm64-cross, under /usr/aarch64-linux-gnu); CTest runs the programs under qemu-user
# (Debian's qemu-user). scripts/test-aarch64.sh (make test-aarch64) uses it:
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(SPRING_AARCH64_TRIPLE aarch64-linux-gnu)
set(SPRING_AARCH64_SYSROOT /usr/${SPRING_AARCH64_TRIPLE})
set(CMAKE_C_COMPILER ${SPRING_AARCH64_TRIPLE}-gcc)
# The C++ checks (headers, documentation examples) need a C++ cross compiler: without
# g++-aarch64-linux-gnu the variable is NOTFOUND and tests/CMakeLists.txt leaves them out (instead
# of taking the host's c++).
find_program(SPRING_AARCH64_CXX ${SPRING_AARCH64_TRIPLE}-g++)
set(CMAKE_CXX_COMPILER ${SPRING_AARCH64_CXX})
# Headers, libraries and CMake packages of the target only; programs (cmake, the shell) of the host.
set(CMAKE_FIND_ROOT_PATH ${SPRING_AARCH64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# add_test(COMMAND <an executable target>) and try_run run through this; -L: the target's dynamic
# loader and shared libraries.
find_program(SPRING_QEMU_AARCH64 qemu-aarch64)
if(SPRING_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${SPRING_QEMU_AARCH64} -L ${SPRING_AARCH64_SYSROOT})
endif()
