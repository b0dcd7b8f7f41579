# SPDX-License-Identifier: MIT
# Finds cJSON (the rig-file reader's one dependency) and makes an imported target `cjson`:
# through cJSON's own CMake package (Debian's libcjson-dev, Fedora's cjson-devel, Homebrew's
# cjson), else through pkg-config (libcjson.pc), else by header and library name.
# Used by tools/CMakeLists.txt and by the installed springConfig.cmake (component io), so a
# consumer finds cJSON the way the build did. Sets SPRING_CJSON_FOUND.
if(NOT TARGET cjson)
  find_package(cJSON CONFIG QUIET)
endif()
if(NOT TARGET cjson)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(SPRING_PC_CJSON QUIET IMPORTED_TARGET libcjson)
    if(SPRING_PC_CJSON_FOUND)
      add_library(cjson INTERFACE IMPORTED)
      set_target_properties(cjson PROPERTIES INTERFACE_LINK_LIBRARIES PkgConfig::SPRING_PC_CJSON)
    endif()
  endif()
endif()
if(NOT TARGET cjson)
  find_path(SPRING_CJSON_INCLUDE cjson/cJSON.h)
  find_library(SPRING_CJSON_LIBRARY cjson)
  if(SPRING_CJSON_INCLUDE AND SPRING_CJSON_LIBRARY)
    add_library(cjson UNKNOWN IMPORTED)
    set_target_properties(cjson PROPERTIES IMPORTED_LOCATION ${SPRING_CJSON_LIBRARY}
      INTERFACE_INCLUDE_DIRECTORIES ${SPRING_CJSON_INCLUDE})
  endif()
endif()
if(TARGET cjson)
  set(SPRING_CJSON_FOUND TRUE)
else()
  set(SPRING_CJSON_FOUND FALSE)
endif()
