# SPDX-License-Identifier: MIT
# Determinism guard: the C compiler must keep every (float) rounding it is asked for. gcc 12's SLP
# vectoriser plus folder drops the rounding in (double)(float)x when two such values are
# computed together (cmake/float_rounding_probe.c is the reduced case); with link-time
# optimisation spring_vec2_lerp inlined into the chain2d pose hit it and moved a joint by an
# ulp. Run the probe with optimisation on; if it fails, switch that vectoriser off for the whole
# build and check again. gcc records the option per function, so the LTO link step honours it
# too. Sets SPRING_FLOAT_ROUNDING_FLAGS (cached) to the options to add, empty when none are needed.
set(SPRING_FLOAT_ROUNDING_PROBE ${CMAKE_CURRENT_LIST_DIR}/float_rounding_probe.c)

# ok_var: TRUE when the probe, built with -O3 -ffp-contract=off and `flags`, runs and exits 0.
function(spring_float_rounding_probe ok_var flags)
  string(MD5 tag "${CMAKE_C_COMPILER};${flags}")
  try_run(run_result compile_result ${PROJECT_BINARY_DIR}/float_rounding_probe/${tag}
    ${SPRING_FLOAT_ROUNDING_PROBE}
    COMPILE_DEFINITIONS -O3 -ffp-contract=off ${flags}
    COMPILE_OUTPUT_VARIABLE compile_output)
  if(NOT compile_result)
    message(FATAL_ERROR "float rounding probe did not compile:\n${compile_output}")
  endif()
  if(run_result EQUAL 0)
    set(${ok_var} TRUE PARENT_SCOPE)
  else()
    set(${ok_var} FALSE PARENT_SCOPE)
  endif()
endfunction()

if(NOT DEFINED SPRING_FLOAT_ROUNDING_FLAGS)
  set(workaround "")
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set(workaround -fno-tree-slp-vectorize)
  elseif(CMAKE_C_COMPILER_ID MATCHES "Clang")
    set(workaround -fno-slp-vectorize)
  endif()
  set(flags "")
  if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
    # The probe cannot run here: assume that gcc is affected.
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
      set(flags ${workaround})
    endif()
  else()
    spring_float_rounding_probe(ok "")
    if(NOT ok AND workaround)
      spring_float_rounding_probe(ok "${workaround}")
      set(flags ${workaround})
    endif()
    if(NOT ok)
      message(FATAL_ERROR "${CMAKE_C_COMPILER} drops float roundings (cmake/float_rounding_probe.c)"
        " even with '${workaround}': results would not be deterministic")
    endif()
  endif()
  set(SPRING_FLOAT_ROUNDING_FLAGS "${flags}" CACHE INTERNAL "Options that keep float roundings")
  if(flags)
    message(STATUS "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} drops float roundings when vectorising: building with ${flags}")
  else()
    message(STATUS "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION} keeps float roundings")
  endif()
endif()
