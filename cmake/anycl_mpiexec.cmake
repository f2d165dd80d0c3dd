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
# ANYCL_MPI_PROCESSORS: the CTest PROCESSORS of an MPI test, whatever its rank count. The ranks
# mostly wait on each other and on mpiexec (cold, the 12 MPI entries used 18 s of CPU in 21 s, run
# one at a time), so reserving a processor per rank left one idle while they ran.
set(ANYCL_MPI_PROCESSORS 1)
