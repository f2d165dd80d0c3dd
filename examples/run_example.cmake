# SPDX-License-Identifier: Apache-2.0
# CTest driver for the examples: runs CMD (a ;-list) with a fresh POCL cache folder, checks that it
# exits with RC (default 0) and that its output (stdout and stderr together) matches the regular
# expression MATCH.
if(DEFINED ENV{POCL_CACHE_DIR})
  file(MAKE_DIRECTORY "$ENV{POCL_CACHE_DIR}")
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(NOT DEFINED RC)
  set(RC 0)
endif()
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${RC}")
endif()
if(NOT all MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'")
endif()
