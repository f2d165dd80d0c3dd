# SPDX-License-Identifier: Apache-2.0
# CTest driver for anycl-info tests: makes OUT_DIR/vendors afresh from VENDORS (|-separated
# NAME=SOURCE, SOURCE being a file to copy, "text:LINE" for a file holding LINE and a newline, or
# "empty") when MAKE_VENDORS is set, points OCL_ICD_VENDORS at it (or at VENDORS_ENV under it),
# runs TOOL with ARGS (|-separated), checks the exit code against RC and the output (stdout and
# stderr together) against the regular expression MATCH. With JSON set, stdout is parsed and
# checked by json_checks.cmake (EXPECT_* variables); with CLINFO set, also compared with
# `clinfo --json` run in the same environment.
cmake_minimum_required(VERSION 3.20)  # policies for -P scripts (IN_LIST, string(JSON))
include("${CMAKE_CURRENT_LIST_DIR}/../../../cmake/anycl_run_and_match.cmake")
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
if(MAKE_VENDORS)
  set(vendors_dir "${OUT_DIR}/vendors")
  file(MAKE_DIRECTORY "${vendors_dir}")
  string(REPLACE "|" ";" entries "${VENDORS}")
  foreach(entry IN LISTS entries)
    if(NOT entry MATCHES "^([^=]+)=(.*)$")
      message(FATAL_ERROR "bad VENDORS entry '${entry}' (NAME=SOURCE)")
    endif()
    set(name "${CMAKE_MATCH_1}")
    set(source "${CMAKE_MATCH_2}")
    if(source STREQUAL "empty")
      file(WRITE "${vendors_dir}/${name}" "")
    elseif(source MATCHES "^text:(.*)$")
      file(WRITE "${vendors_dir}/${name}" "${CMAKE_MATCH_1}\n")
    elseif(EXISTS "${source}")
      file(COPY_FILE "${source}" "${vendors_dir}/${name}")
    else()
      message(FATAL_ERROR "${source} does not exist (for ${name}); tools/install-deps.sh installs "
                          "the drivers the tests use")
    endif()
  endforeach()
  set(ENV{OCL_ICD_VENDORS} "${vendors_dir}${VENDORS_ENV}")
endif()

string(REPLACE "|" ";" args "${ARGS}")
anycl_run_and_match(RC "${RC}" MATCH "${MATCH}" STDOUT_VARIABLE out OUTPUT_VARIABLE all
                    COMMAND "${TOOL}" ${args})
if(JSON)
  set(json "${out}")
  include("${CMAKE_CURRENT_LIST_DIR}/json_checks.cmake")
endif()
if(CLINFO)
  include("${CMAKE_CURRENT_LIST_DIR}/compare_clinfo.cmake")
endif()
message(STATUS "anycl-info test passed: exit ${RC}, output matches '${MATCH}'\n${all}")
