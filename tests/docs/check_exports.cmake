# SPDX-License-Identifier: Apache-2.0
# Counts the ANYCL_EXPORT declarations inside `detail` namespaces of the installed headers and
# fails above MAX (default 16): internals live in src/, and a public header exports only the API
# and what its templates truly need. Prints each one found.
# Run: cmake -DSOURCE_DIR=<repo> [-DMAX=16] -P tests/docs/check_exports.cmake
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "check_exports: pass -DSOURCE_DIR=<source folder>")
endif()
if(NOT DEFINED MAX)
  set(MAX 16)
endif()

file(GLOB_RECURSE headers RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/include/anycl/*.hpp")
list(SORT headers)
set(found "")
foreach(h IN LISTS headers)
  file(READ "${SOURCE_DIR}/${h}" text)
  # One list item per line: characters CMake lists treat specially become harmless first.
  string(REGEX REPLACE "[][;\\\\]" " " text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(stack "")  # one item per open brace: D for a namespace named ...detail..., x otherwise
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")
    if(code MATCHES "ANYCL_EXPORT" AND NOT code MATCHES "^#" AND stack MATCHES "D")
      string(STRIP "${code}" shown)
      list(APPEND found "${h}:${number}: ${shown}")
    endif()
    # The braces in their order; the first opening one of a `namespace ...detail...` line is D.
    set(is_detail OFF)
    if(code MATCHES "namespace[ ]+[A-Za-z_:]*detail[A-Za-z_:]*[ ]*{")
      set(is_detail ON)
    endif()
    string(REGEX MATCHALL "[{}]" braces "${code}")
    foreach(b IN LISTS braces)
      if(b STREQUAL "{")
        if(is_detail)
          list(APPEND stack D)
          set(is_detail OFF)
        else()
          list(APPEND stack x)
        endif()
      else()
        list(LENGTH stack depth)
        if(depth GREATER 0)
          list(REMOVE_AT stack -1)
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

list(LENGTH found count)
foreach(f IN LISTS found)
  message(STATUS "${f}")
endforeach()
if(count GREATER MAX)
  message(FATAL_ERROR "check_exports: ${count} exported declarations in detail namespaces, more "
                      "than ${MAX}: move internals to src/ (the tests link anycl_internal) or fold "
                      "them into fewer entry points")
endif()
message(STATUS "check_exports: ${count} exported declarations in detail namespaces (at most ${MAX})")
