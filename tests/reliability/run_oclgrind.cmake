# SPDX-License-Identifier: Apache-2.0
# Runs EXE's Catch2 tests TAGS under Oclgrind with CHECKS (a list of its flags); fails when the tests fail or
# when Oclgrind logged anything (an out-of-bounds access, a data race, an uninitialised value, an
# API misuse, a crash of the simulator).
#   cmake -DOCLGRIND=... -DEXE=... -DTAGS=... "-DCHECKS=--check-api;..." -DLOG=... -P run_oclgrind.cmake
get_filename_component(dir ${LOG} DIRECTORY)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
execute_process(
  COMMAND ${OCLGRIND} ${CHECKS} --log ${LOG} ${EXE} ${TAGS}
          --warn NoTests
  RESULT_VARIABLE rc)
set(messages "")
if(EXISTS ${LOG})
  file(READ ${LOG} messages)
endif()
if(NOT messages STREQUAL "")
  message(FATAL_ERROR "Oclgrind reported problems in the kernels (${LOG}):\n${messages}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} ${TAGS} failed under Oclgrind (exit ${rc})")
endif()
message(STATUS "Oclgrind: no messages; ${EXE} ${TAGS} passed")
