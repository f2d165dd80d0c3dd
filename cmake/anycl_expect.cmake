# SPDX-License-Identifier: Apache-2.0
# CTest driver for the tool tests and the examples: runs CMD (a ;-list), checks its exit code
# against RC and that its output (stdout and stderr together) matches the regular expression MATCH
# (and, when NO_MATCH is given, does not match that one), with anycl_run_and_match.
# With CREATE_POCL_CACHE_DIR, POCL_CACHE_DIR is created first (POCL hides its devices when it
# cannot create it); the tool tests make theirs in a fixture, and some set one that cannot exist.
include("${CMAKE_CURRENT_LIST_DIR}/anycl_run_and_match.cmake")
if(CREATE_POCL_CACHE_DIR AND DEFINED ENV{POCL_CACHE_DIR})
  file(MAKE_DIRECTORY "$ENV{POCL_CACHE_DIR}")
endif()
anycl_run_and_match(RC "${RC}" MATCH "${MATCH}" NO_MATCH "${NO_MATCH}" COMMAND ${CMD})
message(STATUS "exit ${RC} as expected; output matches '${MATCH}'")
