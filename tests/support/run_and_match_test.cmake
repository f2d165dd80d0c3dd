# SPDX-License-Identifier: Apache-2.0
# Test of anycl_run_and_match (cmake/anycl_run_and_match.cmake): regular expressions holding ';'
# and '[]' (unbalanced too) are taken whole, and a wrong exit code, a MATCH that fails and a
# NO_MATCH that matches each fail with their message, the output and the command.
# Usage: cmake -DWORK_DIR=... -P run_and_match_test.cmake (with CASE=<name>: one failing case).
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/anycl_run_and_match.cmake")
# The command prints a text file: a ';' in a command word would be a list separator.
set(text "${WORK_DIR}/text.txt")
file(WRITE "${text}" "usage: tool [FILE] a;b\n")
set(echo ${CMAKE_COMMAND} -E cat "${text}")

if(CASE STREQUAL "rc")
  anycl_run_and_match(RC 3 MATCH "usage" COMMAND ${echo})
elseif(CASE STREQUAL "match")
  anycl_run_and_match(NAME named RC 0 MATCH "a[;]c \\[" COMMAND ${echo})
elseif(CASE STREQUAL "no-match")
  anycl_run_and_match(RC 0 MATCH "" NO_MATCH "\\[FILE\\] a;b" COMMAND ${echo})
endif()
if(DEFINED CASE)
  return()
endif()

# Passing: ';' inside a value, in a class and as text; an unbalanced '[' before more keywords.
anycl_run_and_match(RC 0 MATCH "tool \\[FILE\\] a;b\n$" NO_MATCH "a b" STDOUT_VARIABLE out
                    COMMAND ${echo})
anycl_run_and_match(RC 0 MATCH "a[;]b" COMMAND ${echo})
anycl_run_and_match(RC 0 MATCH "tool \\[" NO_MATCH "tool \\[F[^;]*;c" OUTPUT_VARIABLE all
                    COMMAND ${echo})
if(NOT out STREQUAL "usage: tool [FILE] a;b\n" OR NOT all STREQUAL out)
  message(FATAL_ERROR "STDOUT_VARIABLE '${out}', OUTPUT_VARIABLE '${all}'")
endif()

# Failing: each case in a cmake of its own, which must exit 1 with this message.
# (cmake indents a message's lines and puts a blank line between them.)
set(expect_rc
    "exit code 0, expected 3; output:[ \n]*usage: tool \\[FILE\\] a;b[ \n]*command: [^ ]+[ \n]+-E[ \n]+cat[ \n]")
set(expect_match "named: output does not match 'a\\[;\\]c \\\\\\[':[ \n]*usage: tool")
set(expect_no-match "output matches '\\\\\\[FILE\\\\\\] a;b', which it must not:[ \n]*usage: tool")
foreach(c rc match no-match)
  anycl_run_and_match(NAME "case ${c}" RC 1 MATCH "${expect_${c}}"
    COMMAND ${CMAKE_COMMAND} -DCASE=${c} "-DWORK_DIR=${WORK_DIR}" -P ${CMAKE_CURRENT_LIST_FILE})
endforeach()
message(STATUS "run_and_match_test: ok")
