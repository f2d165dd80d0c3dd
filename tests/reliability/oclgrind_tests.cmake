# SPDX-License-Identifier: Apache-2.0
# The shipped kernels under Oclgrind (label slow): the [kernels] tests of anycl-reliability-tests
# run with --check-api --data-races --uninitialized (every Oclgrind check), and any message in
# Oclgrind's log fails the test (Oclgrind's exit code is the application's). Included from tests/reliability/CMakeLists.txt.
find_program(ANYCL_OCLGRIND oclgrind)
if(NOT ANYCL_OCLGRIND)
  message(STATUS "oclgrind not found: oclgrind-kernels is not registered (apt-get install oclgrind)")
  return()
endif()
function(anycl_oclgrind_test name tags checks)
  set(work ${CMAKE_BINARY_DIR}/oclgrind/${name})
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DOCLGRIND=${ANYCL_OCLGRIND} -DEXE=$<TARGET_FILE:anycl-reliability-tests>
            "-DTAGS=${tags}" "-DCHECKS=${checks}" -DLOG=${work}/oclgrind.log
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_oclgrind.cmake)
  # No disk cache: every kernel is compiled from source by Oclgrind's own compiler.
  set_tests_properties(${name} PROPERTIES LABELS slow TIMEOUT 900
    ENVIRONMENT "ANYCL_CACHE=off;ANYCL_CACHE_DIR=${work}/anycl-cache;POCL_CACHE_DIR=${work}/pocl-cache;ANYCL_DEVICE=oclgrind")
endfunction()
anycl_oclgrind_test(oclgrind-kernels "[kernels]" "--check-api;--data-races;--uninitialized")
# Oclgrind 21.10's --uninitialized crashes (SIGSEGV in Uninitialized::instructionExecuted) on
# reduce.cl's axis kernels, so they are checked for API misuse, races and out-of-bounds only.
anycl_oclgrind_test(oclgrind-kernels-axis "[kernels_axis]" "--check-api;--data-races")
