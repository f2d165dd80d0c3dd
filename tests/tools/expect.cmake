# SPDX-License-Identifier: Apache-2.0
# CTest driver for tool tests: runs CMD (a ;-list), checks its exit code and that its output
# (stdout and stderr together) matches the regular expression MATCH.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}; output:\n${all}")
endif()
if(NOT all MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}':\n${all}")
endif()
message(STATUS "exit ${rc} as expected; output matches '${MATCH}'")
