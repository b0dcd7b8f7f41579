# SPDX-License-Identifier: MIT
# The WebAssembly artefacts, in a wasm32-wasi tree (cmake/toolchains/wasm32-wasi.cmake; the
# presets wasm-test and web). CMakeLists.txt includes this instead of the native build, so none of
# the native build's settings apply here: each artefact takes its own flags, and every flag that
# bears on floating point is the same everywhere (-ffp-contract=off, no fast-math, the library's
# own transcendental functions): the numbers are bit for bit those of the native builds.
#   SPRING_WASM_TESTS  the core C tests under Node, scalar and simd128 (tests/wasm; make test-wasm)
#   SPRING_WASM_JS     the npm package's two modules and its generated files (js/CMakeLists.txt)
#   SPRING_WASM_WEB    the playground's lab.wasm and page (web/CMakeLists.txt; make web)
option(SPRING_WASM_TESTS "wasm32: the core C tests, run under Node" ON)
option(SPRING_WASM_JS "wasm32: the npm package's modules (js/)" OFF)
option(SPRING_WASM_WEB "wasm32: the playground page (web/; needs SPRING_WASM_JS)" OFF)
if(SPRING_WASM_WEB AND NOT SPRING_WASM_JS)
  message(FATAL_ERROR "SPRING_WASM_WEB needs SPRING_WASM_JS: the page inlines the npm package's modules")
endif()

# The artefacts' flags alone: no build type's flags (-O3 -DNDEBUG...) on top of them.
foreach(config DEBUG RELEASE RELWITHDEBINFO MINSIZEREL)
  set(CMAKE_C_FLAGS_${config} "")
  set(CMAKE_EXE_LINKER_FLAGS_${config} "")
endforeach()

# The library's sources, whatever src/ holds (as the native build globs them).
file(GLOB SPRING_WASM_LIBRARY_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/*.c)
set(SPRING_WASM_WARNINGS -Wall -Wextra -Wpedantic -Werror)
# The stack first, so that an overflow traps instead of silently overwriting the heap; creating a
# rig takes about 40 KB of stack (more than wasm-ld's 64 KB default leaves: include/spring/rig.h).
set(SPRING_WASM_STACK_FIRST -Wl,--stack-first)

# spring_wasm_generated_headers(DIR VERSION MAJOR MINOR PATCH [CJSON]): DIR/spring/version.h from
# cmake/version.h.in with that version, and with CJSON the vendored cJSON's header as
# DIR/cjson/cJSON.h (the rig-file reader includes <cjson/cJSON.h>).
function(spring_wasm_generated_headers dir version major minor patch)
  set(PROJECT_VERSION ${version})
  set(PROJECT_VERSION_MAJOR ${major})
  set(PROJECT_VERSION_MINOR ${minor})
  set(PROJECT_VERSION_PATCH ${patch})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/version.h.in ${dir}/spring/version.h @ONLY)
  if("CJSON" IN_LIST ARGN)
    configure_file(${PROJECT_SOURCE_DIR}/third_party/cjson/cJSON.h ${dir}/cjson/cJSON.h COPYONLY)
  endif()
endfunction()
set(SPRING_WASM_CJSON_SOURCE ${PROJECT_SOURCE_DIR}/third_party/cjson/cJSON.c)

if(SPRING_WASM_TESTS)
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    message(FATAL_ERROR "wasm32 tests: node not found (the tests run under Node's WASI): install nodejs")
  endif()
  enable_testing()
  add_subdirectory(tests/wasm)
endif()
if(SPRING_WASM_JS)
  add_subdirectory(js)
endif()
if(SPRING_WASM_WEB)
  add_subdirectory(web)
endif()
