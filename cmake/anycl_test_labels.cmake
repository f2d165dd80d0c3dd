# SPDX-License-Identifier: Apache-2.0
# CTest labels, so that people can run parts of the suite (`ctest --test-dir build -L unit`):
#   unit: needs no OpenCL device (passes with no platform installed); device: needs one.
#   Every test has exactly one of the two (tests/docs/check_labels.cmake checks it), plus the
#   labels of its area: array, blas, fft, tools, reliability, multi, mpi, example, package, docs.
#   slow is set where the test is defined.
# Labels follow from the test's name; a test that needs no device outside the patterns below
# gets the property ANYCL_NO_DEVICE where it is defined (anycl_tool_test: every bad-usage test,
# exit 2). .ci/run runs the unit label with no OpenCL platform installed.

# Name patterns of the tests that need no device: usage errors and the no-platform cases.
set(ANYCL_UNIT_TEST_PATTERNS
  "^unit$" "^compile-fail-" "^docs-(links|layout|doxygen|readme-example-in-sync|test-labels)$"
  "^device-(no-platform|suite-fails-without-device|suite-skip-when-allowed)$"
  "^reliability-B-0(1|3)-" "^fuzz-" "^run-arg-spec$" "^make-pocl-cache-dirs$"
  "^tool-[a-z]+-(help|version|no-platform)(-json)?$" "^tool-bench-(list|list-filter|first-result-help)$")

# The area labels by name prefix.
set(ANYCL_AREA_LABELS
  "^array-:array" "^blas-:blas" "^fft-:fft" "^(tool|run)-:tools" "^(reliability|oclgrind|fuzz)-:reliability"
  "^device-process-cache:reliability" "^multi:multi" "^array-multi$:multi" "^mpi-:mpi"
  "^tool-mpi-:mpi" "^example-:example" "^package-:package" "^docs-:docs")

# Labels every test of the current folder and gives those without a TIMEOUT one of 300 s (CMake
# before 3.28 sets test properties only in the folder that defined the test, so each
# CMakeLists.txt with tests calls this at its end).
function(anycl_label_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    get_test_property(${t} ANYCL_NO_DEVICE no_device)
    set(kind device)
    if(no_device)
      set(kind unit)
    endif()
    foreach(p IN LISTS ANYCL_UNIT_TEST_PATTERNS)
      if(t MATCHES "${p}")
        set(kind unit)
      endif()
    endforeach()
    set(labels ${kind})
    foreach(pair IN LISTS ANYCL_AREA_LABELS)
      string(REGEX MATCH "^[^:]*" p "${pair}")
      string(REGEX REPLACE "^[^:]*:" "" label "${pair}")
      if(t MATCHES "${p}" AND NOT label IN_LIST labels)
        list(APPEND labels ${label})
      endif()
    endforeach()
    set_property(TEST ${t} APPEND PROPERTY LABELS ${labels})
    # A hang fails in minutes, not at CI's limit.
    get_test_property(${t} TIMEOUT timeout)
    if(NOT timeout)
      set_tests_properties(${t} PROPERTIES TIMEOUT 300)
    endif()
  endforeach()
endfunction()
