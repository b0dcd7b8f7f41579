# SPDX-License-Identifier: MIT
# ctest driver (vendored_build): builds libspring as a game engine would vendor it -- the compiler
# alone on src/*.c with the flags README.md's "Vendoring" section names, no CMake
# configuration and no generated header (include/ only) -- optimised as hard as a release build
# (-O3, and link-time optimisation with gcc), and runs the determinism goldens of the tests, and
# the groups' and batch's same-bits checks of every instruction set, against it: a vendored build
# gives the same bits. (Without the float-rounding option, gcc 12
# at -O3 -flto moves a chain2d joint by an ulp and the chain2d golden fails.)
# Variables: SOURCE, WORK, CC, FLAGS (the float-rounding options of this compiler, may be empty),
# LTO (ON for gcc), EMULATOR (cross builds: the command the programs run under, e.g.
# "qemu-aarch64 -L /usr/aarch64-linux-gnu"; empty for native ones). DEFAULTS=ON (vendored_build_defaults, clang): the library's sources with
# the compiler's defaults instead, -std=c11 -O3 -march=native and no other flag (no
# -ffp-contract=off: src/fp_contract.h must keep clang from fusing multiply-adds, which it does by
# default on a machine with FMA); the tests' own code keeps -ffp-contract=off (it is not vendored).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
separate_arguments(extra UNIX_COMMAND "${FLAGS}")
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
set(cflags -std=c11 -O3 -ffp-contract=off ${extra} -I${SOURCE}/include)
set(library_flags ${cflags})
if(DEFAULTS)
  set(library_flags -std=c11 -O3 -march=native -I${SOURCE}/include)
  set(cflags -std=c11 -O3 -march=native -ffp-contract=off -I${SOURCE}/include)
  execute_process(COMMAND ${CC} -march=native -dM -E -x c /dev/null OUTPUT_VARIABLE macros)
  if(macros MATCHES "__FMA__|__ARM_FEATURE_FMA")
    message(STATUS "vendored build with the compiler's defaults: this machine has FMA")
  else()
    message(STATUS "vendored build with the compiler's defaults: this machine has no FMA (a weaker test)")
  endif()
endif()
if(LTO)
  list(APPEND cflags -flto)
  list(APPEND library_flags -flto)
endif()
file(GLOB sources ${SOURCE}/src/*.c ${SOURCE}/tests/shared/*.c)
set(objects "")
foreach(src ${sources})
  get_filename_component(name ${src} NAME_WE)
  set(flags ${cflags})
  if(src MATCHES "/src/[^/]*[.]c$")
    set(flags ${library_flags})
  endif()
  execute_process(COMMAND ${CC} ${flags} -I${SOURCE}/tests/shared -c ${src} -o ${WORK}/${name}.o
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "vendored compile of ${src} failed:\n${err}")
  endif()
  list(APPEND objects ${WORK}/${name}.o)
endforeach()
# The tests look inside the library (src/) and at their shared helpers; the library itself does not.
# Each test with the name filter of the tests it runs: the determinism goldens, and for the groups
# and the batch the checks that every instruction set's kernels give the single chains' (the
# scalar springs') bits (a filter that runs no test fails: tests/test_macros.h).
foreach(run test_detmath:determinism test_step:determinism test_chain:determinism test_chain2d:determinism
    test_rig:determinism test_motion:determinism test_chain_group:determinism test_chain2d_group:bit_for_bit
    test_batch:test_)
  string(REPLACE ":" ";" run ${run})
  list(GET run 0 test)
  list(GET run 1 filter)
  execute_process(COMMAND ${CC} ${cflags} -I${SOURCE}/src -I${SOURCE}/tests -I${SOURCE}/tests/shared
    ${SOURCE}/tests/${test}.c ${objects} -lm -o ${WORK}/${test} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "vendored build of ${test} failed:\n${err}")
  endif()
  execute_process(COMMAND ${emulator} ${WORK}/${test} ${filter} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${test} ${filter} against the vendored build failed:\n${out}\n${err}")
  endif()
endforeach()
message(STATUS "vendored build (${CC} ${library_flags}): determinism goldens match")
