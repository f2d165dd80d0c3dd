# SPDX-License-Identifier: Apache-2.0
# anycl_run_and_match(RC <code> MATCH <regex> [NO_MATCH <regex>] [NAME <name>]
#                     [WORKING_DIRECTORY <dir>] [TIMEOUT <seconds>] [STDOUT_VARIABLE <var>]
#                     [OUTPUT_VARIABLE <var>] COMMAND <command>...)
# The check of the CTest drivers in script mode (cmake -P): runs COMMAND and stops with a
# FATAL_ERROR unless its exit code is RC, its output (stdout and stderr together) matches MATCH
# and, when NO_MATCH is given and not empty, does not match NO_MATCH. The message says what
# differs (led by "NAME: " when NAME is given), then the output and the command run.
# STDOUT_VARIABLE and OUTPUT_VARIABLE receive stdout and the whole output.
# Pass each regular expression quoted ("${MATCH}"): it is read as one value, ';' and '[]' included
# (PARSE_ARGV). Put COMMAND last.
function(anycl_run_and_match)
  cmake_parse_arguments(PARSE_ARGV 0 R ""
    "RC;MATCH;NO_MATCH;NAME;WORKING_DIRECTORY;TIMEOUT;STDOUT_VARIABLE;OUTPUT_VARIABLE" "COMMAND")
  if(R_UNPARSED_ARGUMENTS OR NOT DEFINED R_RC OR NOT R_COMMAND)
    message(FATAL_ERROR "anycl_run_and_match needs RC and COMMAND (given: ${ARGV})")
  endif()
  set(options "")
  if(DEFINED R_WORKING_DIRECTORY)
    list(APPEND options WORKING_DIRECTORY "${R_WORKING_DIRECTORY}")
  endif()
  if(DEFINED R_TIMEOUT)
    list(APPEND options TIMEOUT "${R_TIMEOUT}")
  endif()
  execute_process(COMMAND ${R_COMMAND} ${options} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(all "${out}${err}")
  set(lead "")
  if(DEFINED R_NAME)
    set(lead "${R_NAME}: ")
  endif()
  list(JOIN R_COMMAND " " shown)
  set(ran "\ncommand: ${shown}")
  if(NOT rc STREQUAL "${R_RC}")
    message(FATAL_ERROR "${lead}exit code ${rc}, expected ${R_RC}; output:\n${all}${ran}")
  endif()
  if(NOT all MATCHES "${R_MATCH}")
    message(FATAL_ERROR "${lead}output does not match '${R_MATCH}':\n${all}${ran}")
  endif()
  if(DEFINED R_NO_MATCH AND NOT R_NO_MATCH STREQUAL "" AND all MATCHES "${R_NO_MATCH}")
    message(FATAL_ERROR "${lead}output matches '${R_NO_MATCH}', which it must not:\n${all}${ran}")
  endif()
  if(DEFINED R_STDOUT_VARIABLE)
    set(${R_STDOUT_VARIABLE} "${out}" PARENT_SCOPE)
  endif()
  if(DEFINED R_OUTPUT_VARIABLE)
    set(${R_OUTPUT_VARIABLE} "${all}" PARENT_SCOPE)
  endif()
endfunction()
