# SPDX-License-Identifier: Apache-2.0
# CTest driver proving the fault shim works: each case runs anycl-fault-scenarios (EXE) with the
# shim (SHIM, after PRELOAD when set) preloaded and one fault, and checks the exit code and the
# output (stdout, then stderr). Usage: cmake -DEXE=... -DSHIM=... [-DPRELOAD=...] -DWORK_DIR=... -P fault_shim_test.cmake
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/anycl_run_and_match.cmake")
set(preload "${SHIM}")
if(PRELOAD)
  set(preload "${PRELOAD}:${SHIM}")
endif()
file(MAKE_DIRECTORY "${WORK_DIR}")
set(cases 0)

# fault_case(<name> RC <code> MATCH <regex> ENV <VAR=value>... ARGS <scenario>...)
function(fault_case name)
  cmake_parse_arguments(PARSE_ARGV 1 C "" "RC;MATCH" "ENV;ARGS")
  anycl_run_and_match(NAME "${name}" RC "${C_RC}" MATCH "${C_MATCH}" TIMEOUT 120
    COMMAND ${CMAKE_COMMAND} -E env --unset=FAULT_FN --unset=FAULT_NTH --unset=FAULT_CODE
            --unset=FAULT_EVERY --unset=FAULT_REPORT "LD_PRELOAD=${preload}" ${C_ENV} ${EXE} ${C_ARGS})
  message(STATUS "${name}: exit ${C_RC}, output as expected")
endfunction()

# A failed create: api_error naming the call and the status, and the library works afterwards.
fault_case(create-buffer RC 0
  MATCH "scenario buffers: threw anycl::api_error: clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE \\(-4\\)[^\n]*\\[failed call made by (anycl-fault-scenarios|libanycl[.a-z0-9]*)\\].*scenario usable-after: ok.*faults fired 1, exceptions 1, graceful 0, exit 0"
  ENV FAULT_FN=clCreateBuffer FAULT_NTH=1 FAULT_CODE=-4 ARGS buffers)
# Inside CLBlast: a failed launch of its kernel becomes blas_error.
fault_case(inside-clblast RC 0
  MATCH "scenario blas-gemm: threw anycl::blas_error: anycl::blas::gemm failed: kOpenCLOutOfResources \\(-5\\)[^\n]*\\[failed call made by libclblast[^\n]*\\].*scenario usable-after: ok"
  ENV FAULT_FN=clEnqueueNDRangeKernel FAULT_NTH=1 FAULT_CODE=-5 ANYCL_HOST_LIBRARIES=off
  ARGS blas-gemm)
# On the host-library path (OpenBLAS on POCL): a failed native kernel, and a failed second map
# (the first is undone), become api_error naming the call; the buffers work afterwards.
fault_case(host-blas-native-kernel RC 0
  MATCH "scenario blas-gemm: threw anycl::api_error: clEnqueueNativeKernel failed: CL_OUT_OF_RESOURCES \\(-5\\)[^\n]*CL_EXEC_NATIVE_KERNEL.*scenario usable-after: ok"
  ENV FAULT_FN=clEnqueueNativeKernel FAULT_NTH=1 FAULT_CODE=-5 ARGS blas-gemm)
fault_case(host-blas-map RC 0
  MATCH "scenario blas-gemm: threw anycl::api_error: clEnqueueMapBuffer failed: CL_MAP_FAILURE \\(-12\\)[^\n]*host task.*scenario usable-after: ok"
  ENV FAULT_FN=clEnqueueMapBuffer FAULT_NTH=2 FAULT_CODE=-12 ARGS blas-gemm)
# Inside clFFT: a failed launch of its kernel becomes fft_error.
fault_case(inside-clfft RC 0
  MATCH "scenario fft-c2c: threw anycl::fft_error: clfftEnqueueTransform failed: CL_DEVICE_NOT_AVAILABLE \\(-2\\)[^\n]*\\[failed call made by libclFFT[^\n]*\\].*scenario usable-after: ok"
  ENV FAULT_FN=clEnqueueNDRangeKernel FAULT_NTH=1 FAULT_CODE=-2 ARGS fft-c2c)
# The documented non-fatal failures: a failed release goes to the cleanup handler, a cache entry
# the driver refuses is rebuilt from source.
# (A failed release never reaches the driver, so the object leaks there by design: LeakSanitizer
# is told not to count it.)
fault_case(release RC 0
  MATCH "scenario buffers: graceful: failure in a destructor, sent to the cleanup handler.*cleanup handler: clReleaseMemObject of a cl_mem failed: CL_OUT_OF_HOST_MEMORY \\(-6\\)"
  ENV FAULT_FN=clReleaseMemObject FAULT_NTH=1 FAULT_CODE=-6 "ASAN_OPTIONS=$ENV{ASAN_OPTIONS}:detect_leaks=0"
  ARGS buffers)
fault_case(cache-entry-refused RC 0
  MATCH "scenario loader-cold: ok\nscenario loader-warm: graceful: cache entry refused: deleted and built from source"
  ENV FAULT_FN=clCreateProgramWithBinary FAULT_NTH=1 ARGS loader-cold loader-warm)
# FAULT_EVERY fails every call from the n-th on.
fault_case(every RC 0
  MATCH "scenario buffers: threw anycl::api_error: clCreateBuffer failed: CL_OUT_OF_RESOURCES \\(-5\\).*scenario arrays: threw anycl::api_error: clCreateBuffer failed.*faults fired 2, exceptions 2"
  ENV FAULT_FN=clCreateBuffer FAULT_EVERY=1 ARGS buffers arrays)
# Without FAULT_FN nothing fails; FAULT_REPORT counts the calls.
fault_case(count RC 0 MATCH "scenario select: ok.*faults fired 0"
  ENV FAULT_REPORT=${WORK_DIR}/count.txt ARGS select)
file(READ "${WORK_DIR}/count.txt" report)
if(NOT report MATCHES "\nclGetPlatformIDs [1-9][0-9]* 0 -\n" OR NOT report MATCHES "\nclGetDeviceInfo [1-9]")
  message(FATAL_ERROR "count: the report does not count the calls:\n${report}")
endif()
# An entry point the shim does not know is refused.
fault_case(unknown-entry-point RC 2 MATCH "FAULT_FN=clNoSuchCall is not an entry point the shim knows"
  ENV FAULT_FN=clNoSuchCall ARGS select)
