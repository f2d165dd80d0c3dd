# SPDX-License-Identifier: Apache-2.0
# The shipped kernels under Oclgrind (label slow): the [kernels] tests of anycl-reliability-tests
# (and the image tests of anycl-device-tests)
# run with --check-api --data-races --uninitialized (every Oclgrind check), and any message in
# Oclgrind's log fails the test (Oclgrind's exit code is the application's). Included from tests/reliability/CMakeLists.txt.
find_program(ANYCL_OCLGRIND oclgrind)
if(NOT ANYCL_OCLGRIND)
  message(STATUS "oclgrind not found: oclgrind-kernels is not registered (apt-get install oclgrind)")
  return()
endif()
# anycl_oclgrind_test(name tags checks [EXE target] [ENV ...]): EXE defaults to
# anycl-reliability-tests.
function(anycl_oclgrind_test name tags checks)
  cmake_parse_arguments(T "" "EXE" "ENV" ${ARGN})
  if(NOT T_EXE)
    set(T_EXE anycl-reliability-tests)
  endif()
  set(work ${CMAKE_BINARY_DIR}/oclgrind/${name})
  add_test(NAME ${name}
    COMMAND ${CMAKE_COMMAND} -DOCLGRIND=${ANYCL_OCLGRIND} -DEXE=$<TARGET_FILE:${T_EXE}>
            "-DTAGS=${tags}" "-DCHECKS=${checks}" -DLOG=${work}/oclgrind.log
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_oclgrind.cmake)
  # No disk cache: every kernel is compiled from source by Oclgrind's own compiler. A context per
  # test case, as these entries were measured with: Oclgrind 21.10's uninitialised-value check
  # depends on what a reused buffer held before (a fill marks only its first pattern as written),
  # and a shared context's memory pool reuses buffers across test cases.
  set_tests_properties(${name} PROPERTIES LABELS slow TIMEOUT 900
    ENVIRONMENT "ANYCL_TEST_FRESH_CONTEXTS=1;ANYCL_CACHE=off;ANYCL_CACHE_DIR=${work}/anycl-cache;POCL_CACHE_DIR=${work}/pocl-cache;ANYCL_DEVICE=oclgrind;${T_ENV}")
endfunction()
anycl_oclgrind_test(oclgrind-kernels "[kernels]" "--check-api;--data-races;--uninitialized")
# Oclgrind 21.10's --uninitialized crashes (SIGSEGV in Uninitialized::instructionExecuted) on
# reduce.cl's axis kernels, so they are checked for API misuse, races and out-of-bounds only.
anycl_oclgrind_test(oclgrind-kernels-axis "[kernels_axis]" "--check-api;--data-races")
# Oclgrind is a CPU device first, so the entries above run the CPU launch shape. The reduce, scan,
# sort, indexing and compaction kernels again in the GPU shape (work-groups, local-memory trees,
# grid-stride loops), where races and barrier divergence would show on a GPU.
anycl_oclgrind_test(oclgrind-kernels-gpu "kernels: reduce.cl reductions equal*,kernels: scan.cl*,kernels: sort.cl*,kernels: indexing.cl*,kernels: compact.cl*"
                    "--check-api;--data-races;--uninitialized" ENV "ANYCL_LAUNCH_SHAPE=gpu")
anycl_oclgrind_test(oclgrind-kernels-axis-gpu "[kernels_axis]" "--check-api;--data-races"
                    ENV "ANYCL_LAUNCH_SHAPE=gpu")
# Images and samplers (Oclgrind supports them; it has no SVM, whose refusal is catalogue row
# B-74): the [image] tests of the device suite, every check on.
anycl_oclgrind_test(oclgrind-images "[image]" "--check-api;--data-races;--uninitialized"
                    EXE anycl-device-tests)
