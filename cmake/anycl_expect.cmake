# SPDX-License-Identifier: Apache-2.0
# CTest driver for the tool tests and the examples: runs CMD (a ;-list), checks its exit code
# against RC and that its output (stdout and stderr together) matches the regular expression MATCH
# (and, when NO_MATCH is given, does not match that one).
# With CREATE_POCL_CACHE_DIR, POCL_CACHE_DIR is created first (POCL hides its devices when it
# cannot create it); the tool tests make theirs in a fixture, and some set one that cannot exist.
if(CREATE_POCL_CACHE_DIR AND DEFINED ENV{POCL_CACHE_DIR})
  file(MAKE_DIRECTORY "$ENV{POCL_CACHE_DIR}")
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}; output:\n${all}")
endif()
if(NOT all MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}':\n${all}")
endif()
if(DEFINED NO_MATCH AND NOT NO_MATCH STREQUAL "" AND all MATCHES "${NO_MATCH}")
  message(FATAL_ERROR "output matches '${NO_MATCH}', which it must not:\n${all}")
endif()
message(STATUS "exit ${rc} as expected; output matches '${MATCH}'")
