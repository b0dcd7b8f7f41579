# SPDX-License-Identifier: MIT
# ctest driver (install_consumer): installs the built tree into a scratch prefix, checks that
# nothing installed names the build machine's paths, moves the prefix elsewhere (relocatable),
# then builds and runs against the moved prefix:
#   find_package(spring COMPONENTS io): consumer.c as C, consumer_io.c (loads a rig) as C++,
#   consumer_vrm.c (reads a VRM spring bone, spring/vrm.h) as C, consumer_hpp.cpp
#   (spring/spring.hpp) as C++17;
#   pkg-config spring and spring-io: consumer.c as C, consumer_io.c as C and as C++,
#   consumer_vrm.c as C, consumer_hpp.cpp as C++17;
#   the examples (examples/) both ways, and where SDL2 is installed the window example under
#   xvfb-run, its last frame checked by bmp_check.c;
# and runs the installed `spring demo`, which must find the installed sample rig.
# Variables: SOURCE, BUILD, WORK, CC, CXX, CFLAGS (sanitizer flags of the build, or empty).
set(prefix ${WORK}/prefix)
# A build configured before a C++ compiler was installed (make demo on a new machine, then
# make test) passes none: the C++ consumers use the one installed by then.
if(NOT CXX)
  find_program(installed_cxx NAMES c++ g++ clang++)
  if(NOT installed_cxx)
    message(FATAL_ERROR "no C++ compiler for the C++ consumers (g++ or clang++)")
  endif()
  set(CXX ${installed_cxx})
endif()
set(moved ${WORK}/moved)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err WORKING_DIRECTORY ${WORK})
  if(rc)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})

# What a consumer reads (CMake package, pkg-config files) names no absolute path of this machine.
file(GLOB_RECURSE meta ${prefix}/*.cmake ${prefix}/*.pc)
set(expected springConfig.cmake springTargets.cmake springIoTargets.cmake spring.pc spring-io.pc)
foreach(name ${expected})
  set(seen FALSE)
  foreach(f ${meta})
    get_filename_component(n ${f} NAME)
    if(n STREQUAL name)
      set(seen TRUE)
    endif()
  endforeach()
  if(NOT seen)
    message(FATAL_ERROR "not installed: ${name}")
  endif()
endforeach()
foreach(f ${meta})
  file(READ ${f} text)
  foreach(path ${prefix} ${BUILD} ${SOURCE} "/libm")
    string(FIND "${text}" "${path}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${f} names ${path}: the install is not relocatable")
    endif()
  endforeach()
endforeach()
foreach(f include/spring/spring.h include/spring/spring.hpp include/spring/io.h include/spring/vrm.h include/spring/skeleton.h share/doc/spring/LICENSE share/spring/examples/rigs/character.json)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()

file(RENAME ${prefix} ${moved})
set(rig ${moved}/share/spring/examples/rigs/character.json)

# find_package(spring COMPONENTS io)
run("consumer configure" ${CMAKE_COMMAND} -S ${SOURCE}/tests/install -B ${WORK}/consumer
  -DCMAKE_PREFIX_PATH=${moved} -DCMAKE_C_COMPILER=${CC} -DCMAKE_CXX_COMPILER=${CXX}
  "-DCMAKE_C_FLAGS=${CFLAGS}" "-DCMAKE_CXX_FLAGS=${CFLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CFLAGS}")
run("consumer build" ${CMAKE_COMMAND} --build ${WORK}/consumer)
run("consumer (C, find_package)" ${WORK}/consumer/consumer)
run("consumer_hpp (C++17, find_package)" ${WORK}/consumer/consumer_hpp)
run("consumer_io (C++, find_package, spring::io)" ${WORK}/consumer/consumer_io_cxx ${rig})
run("consumer_vrm (C, find_package, spring::io)" ${WORK}/consumer/consumer_vrm)
message(STATUS "find_package: ${run_output}")

# pkg-config
find_program(PKG_CONFIG pkg-config)
if(NOT PKG_CONFIG)
  message(FATAL_ERROR "pkg-config not found")
endif()
file(GLOB_RECURSE pc ${moved}/*/spring.pc)
get_filename_component(pcdir "${pc}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pcdir})
foreach(module spring spring-io)
  run("pkg-config ${module}" ${PKG_CONFIG} --cflags --libs ${module})
  string(STRIP "${run_output}" flags)
  if(NOT flags MATCHES "-I${moved}/" OR NOT flags MATCHES "${moved}/[^ ]*/libspring(_io)?\\.a")
    message(FATAL_ERROR "pkg-config ${module} does not point into the moved prefix: ${flags}")
  endif()
  separate_arguments(flags_${module} UNIX_COMMAND "${flags}")
endforeach()
# pkg-config links the static libraries: the programs run without a run path or
# LD_LIBRARY_PATH (with -lspring they stopped at "libspring.so.0: cannot open shared object file").
separate_arguments(cflags UNIX_COMMAND "${CFLAGS}")
run("cc consumer.c (pkg-config spring)" ${CC} ${cflags} -std=c11 ${SOURCE}/tests/install/consumer.c ${flags_spring} -o ${WORK}/pc_c)
run("consumer (C, pkg-config)" ${WORK}/pc_c)
run("c++ consumer_hpp.cpp (pkg-config spring)" ${CXX} ${cflags} -std=c++17 -Wall -Wextra -Werror -pedantic
  ${SOURCE}/tests/install/consumer_hpp.cpp ${flags_spring} -o ${WORK}/pc_hpp)
run("consumer_hpp (C++17, pkg-config)" ${WORK}/pc_hpp)
run("cc consumer_io.c (pkg-config spring-io)" ${CC} ${cflags} -std=c11 ${SOURCE}/tests/install/consumer_io.c ${flags_spring-io} -o ${WORK}/pc_io_c)
run("consumer_io (C, pkg-config)" ${WORK}/pc_io_c ${rig})
run("c++ consumer_io.c (pkg-config spring-io)" ${CXX} ${cflags} -x c++ ${SOURCE}/tests/install/consumer_io.c -x none ${flags_spring-io} -o ${WORK}/pc_io_cxx)
run("consumer_io (C++, pkg-config)" ${WORK}/pc_io_cxx ${rig})
run("cc consumer_vrm.c (pkg-config spring-io)" ${CC} ${cflags} -std=c11 ${SOURCE}/tests/install/consumer_vrm.c ${flags_spring-io} -o ${WORK}/pc_vrm_c)
run("consumer_vrm (C, pkg-config)" ${WORK}/pc_vrm_c)
message(STATUS "pkg-config: ${run_output}")

# The example programs (examples/), with find_package and with pkg-config, each run.
run("examples configure" ${CMAKE_COMMAND} -S ${SOURCE}/examples -B ${WORK}/examples
  -DCMAKE_PREFIX_PATH=${moved} -DCMAKE_C_COMPILER=${CC}
  "-DCMAKE_C_FLAGS=${CFLAGS} -Wall -Wextra -Werror" "-DCMAKE_EXE_LINKER_FLAGS=${CFLAGS}")
run("examples build" ${CMAKE_COMMAND} --build ${WORK}/examples)
foreach(example ui_value tail crowd character)
  set(example_args)
  set(module spring)
  if(example STREQUAL "character")
    set(example_args ${rig})
    set(module spring-io)
  endif()
  run("example ${example} (find_package)" ${WORK}/examples/${example} ${example_args})
  set(found_output "${run_output}")
  run("cc examples/${example}.c (pkg-config ${module})" ${CC} ${cflags} -std=c11 -Wall -Wextra -Werror
    ${SOURCE}/examples/${example}.c ${flags_${module}} -o ${WORK}/pc_${example})
  run("example ${example} (pkg-config)" ${WORK}/pc_${example} ${example_args})
  if(NOT example STREQUAL "crowd" AND NOT run_output STREQUAL found_output)
    message(FATAL_ERROR "example ${example}: the pkg-config build printed other output:\n${run_output}\n---\n${found_output}")
  endif()
endforeach()
message(STATUS "examples: ${found_output}")

# The window example (SDL2) where SDL2 is installed: examples/CMakeLists.txt builds it when CMake
# finds SDL2's package, and it is built with pkg-config when `pkg-config --exists sdl2`. Each
# build plays 120 fixed frames headless under xvfb-run, on X11 (not SDL's offscreen fallback);
# tests/install/bmp_check.c checks the last frame: the window's size, drawn, with the spring
# chains' colour (window.c's `background` and `springs`); both builds' frames are the same bytes.
set(window_builds)
file(STRINGS ${WORK}/examples/CMakeCache.txt sdl2_dir REGEX "^SDL2_DIR:")
if(sdl2_dir AND NOT sdl2_dir MATCHES "NOTFOUND$")
  if(NOT EXISTS ${WORK}/examples/window)
    message(FATAL_ERROR "CMake found SDL2 (${sdl2_dir}) but examples/CMakeLists.txt built no window program")
  endif()
  list(APPEND window_builds find_package)
  set(window_find_package ${WORK}/examples/window)
endif()
execute_process(COMMAND ${PKG_CONFIG} --exists sdl2 RESULT_VARIABLE sdl2_pc)
if(sdl2_pc EQUAL 0)
  run("pkg-config sdl2" ${PKG_CONFIG} --cflags --libs sdl2)
  separate_arguments(flags_sdl2 UNIX_COMMAND "${run_output}")
  run("cc examples/window.c (pkg-config spring-io sdl2)" ${CC} ${cflags} -std=c11 -Wall -Wextra -Werror
    ${SOURCE}/examples/window.c ${flags_spring-io} ${flags_sdl2} -o ${WORK}/pc_window)
  list(APPEND window_builds pkg-config)
  set(window_pkg-config ${WORK}/pc_window)
endif()
if(window_builds)
  find_program(XVFB_RUN xvfb-run)
  find_program(XAUTH xauth)
  if(NOT XVFB_RUN OR NOT XAUTH)
    message(FATAL_ERROR "SDL2 is installed, so the window example is built (${window_builds}), but xvfb-run or xauth "
      "is missing to run it headless (Debian: xvfb, xauth; scripts/ensure-deps.sh test installs them)")
  endif()
  run("cc tests/install/bmp_check.c" ${CC} ${cflags} -std=c11 -Wall -Wextra -Werror ${SOURCE}/tests/install/bmp_check.c
    -o ${WORK}/bmp_check)
  # Sanitized builds: LeakSanitizer is off for this program alone. What it finds is the system's:
  # 1032 bytes of libdbus that SDL 2.26 never frees, and two blocks of the GL driver SDL unloads
  # at SDL_Quit (their stacks lost); the address and undefined-behaviour checks stay on.
  set(window_env SDL_VIDEODRIVER=x11 "ASAN_OPTIONS=$ENV{ASAN_OPTIONS}:detect_leaks=0")
  foreach(build ${window_builds})
    set(shot ${WORK}/window_${build}.bmp)
    file(REMOVE ${shot})
    run("example window (${build}) under xvfb-run" ${XVFB_RUN} -a -s "-screen 0 1280x1024x24"
      ${CMAKE_COMMAND} -E env ${window_env} ${window_${build}} --frames 120 --fixed-dt --screenshot ${shot} ${rig})
    string(REGEX MATCH "[0-9]+ frames[^\n]*" ran "${run_output}")
    if(NOT ran MATCHES "^120 frames")
      message(FATAL_ERROR "example window (${build}) did not report 120 frames:\n${run_output}")
    endif()
    # 800 x 600 (window.c's WINDOW_WIDTH, _HEIGHT); drawn: the skeleton, the chains and the ground
    # cover about 7,800 pixels, the chains' orange about 1,850.
    run("bmp_check window_${build}.bmp" ${WORK}/bmp_check ${shot} 800 600 181c24 ff8c00 3000 800)
    message(STATUS "window (${build}): ${ran}; ${run_output}")
    file(SHA256 ${shot} window_hash_${build})
  endforeach()
  if(window_builds MATCHES "find_package;pkg-config" AND NOT window_hash_find_package STREQUAL window_hash_pkg-config)
    message(FATAL_ERROR "example window: the find_package and pkg-config builds drew other last frames")
  endif()
  # Without a display it says so and fails.
  list(GET window_builds 0 build)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY ${window_env}
    ${window_${build}} --frames 1 ${rig} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc OR NOT err MATCHES "no video device")
    message(FATAL_ERROR "example window without a display: exit ${rc}, not the no-video-device error:\n${out}\n${err}")
  endif()
else()
  message(STATUS "SDL2 not found (neither its CMake package nor pkg-config sdl2): the window example was not built")
endif()

# Every relative link of the installed documents leads to an installed file.
file(GLOB_RECURSE docs ${moved}/share/doc/*.md)
list(LENGTH docs doc_count)
if(doc_count LESS 8)
  message(FATAL_ERROR "only ${doc_count} documents installed: ${docs}")
endif()
set(link_count 0)
foreach(doc ${docs})
  file(READ ${doc} text)
  get_filename_component(dir ${doc} DIRECTORY)
  # Semicolons and brackets would split CMake's lists: mark the links, then drop them.
  string(REPLACE "](" "@LINK@" text "${text}")
  string(REGEX REPLACE "[][;]" " " text "${text}")
  string(REGEX MATCHALL "@LINK@[^)# \n]+" links "${text}")
  foreach(link ${links})
    string(SUBSTRING "${link}" 6 -1 target)
    if(target MATCHES "^[a-z]+:")
      continue()
    endif()
    math(EXPR link_count "${link_count} + 1")
    if(NOT EXISTS ${dir}/${target})
      message(FATAL_ERROR "${doc}: the link ${target} leads to no installed file")
    endif()
  endforeach()
endforeach()
message(STATUS "${doc_count} installed documents, ${link_count} relative links, all resolve")

# The installed command finds its sample rig under the (moved) prefix, from any directory.
file(MAKE_DIRECTORY ${WORK}/elsewhere)
execute_process(COMMAND ${moved}/bin/spring demo WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(FIND "${out}" "sample rig: ${moved}/bin/../share/spring/examples/rigs/character.json" at)
if(rc OR at EQUAL -1)
  message(FATAL_ERROR "the installed spring demo did not use the installed sample rig (${rc}):\n${out}\n${err}")
endif()
# ... and plays and checks the installed samples by name (as the README shows), from there too.
foreach(args "simulate;character.json;--seconds;0.1" "verify;examples/rigs/undulation.json")
  execute_process(COMMAND ${moved}/bin/spring ${args} WORKING_DIRECTORY ${WORK}/elsewhere RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "the installed spring ${args} did not find the installed sample (${rc}):\n${out}\n${err}")
  endif()
endforeach()
message(STATUS "install, relocation, find_package(spring COMPONENTS io) and pkg-config work")
