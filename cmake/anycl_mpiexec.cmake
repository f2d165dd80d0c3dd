# SPDX-License-Identifier: Apache-2.0
# ANYCL_MPIEXEC_FLAGS: what mpiexec needs besides -n to run the MPI tests, examples and benchmarks
# here: Open MPI refuses to run as root and to start more ranks than cores unless told.
if(NOT DEFINED ANYCL_MPIEXEC_FLAGS)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _anycl_mpiexec_version
                  ERROR_QUIET)
  set(ANYCL_MPIEXEC_FLAGS "")
  if(_anycl_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(ANYCL_MPIEXEC_FLAGS --allow-run-as-root --oversubscribe)
  endif()
endif()
