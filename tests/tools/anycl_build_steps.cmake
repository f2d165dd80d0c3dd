# SPDX-License-Identifier: Apache-2.0
# CTest driver for anycl-build tests that write files: makes OUT_DIR afresh, copies COPY (a
# |-separated list) into it, runs STEP_CMD (|-separated) there, checks its exit code against RC and
# its output (stdout and stderr together) against MATCH, then checks that every pattern in GLOBS
# (|-separated, relative to OUT_DIR) matches exactly one file and that no pattern in NO_GLOBS
# matches any.
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/anycl_run_and_match.cmake")
file(REMOVE_RECURSE "${OUT_DIR}")
file(MAKE_DIRECTORY "${OUT_DIR}")
string(REPLACE "|" ";" copy "${COPY}")
foreach(f IN LISTS copy)
  file(COPY "${f}" DESTINATION "${OUT_DIR}")
endforeach()

string(REPLACE "|" ";" cmd "${STEP_CMD}")
anycl_run_and_match(RC "${RC}" MATCH "${MATCH}" WORKING_DIRECTORY "${OUT_DIR}"
                    OUTPUT_VARIABLE all COMMAND ${cmd})

string(REPLACE "|" ";" globs "${GLOBS}")
foreach(pattern IN LISTS globs)
  file(GLOB found "${OUT_DIR}/${pattern}")
  list(LENGTH found n)
  if(NOT n EQUAL 1)
    file(GLOB_RECURSE there RELATIVE "${OUT_DIR}" "${OUT_DIR}/*")
    message(FATAL_ERROR "${n} files match ${OUT_DIR}/${pattern}, expected 1; "
                        "${OUT_DIR} holds: ${there}\noutput:\n${all}")
  endif()
endforeach()
string(REPLACE "|" ";" no_globs "${NO_GLOBS}")
foreach(pattern IN LISTS no_globs)
  file(GLOB found "${OUT_DIR}/${pattern}")
  if(found)
    message(FATAL_ERROR "unexpected files match ${OUT_DIR}/${pattern}: ${found}\noutput:\n${all}")
  endif()
endforeach()
message(STATUS "exit ${RC} as expected, output matches '${MATCH}'; files as expected\n${all}")
