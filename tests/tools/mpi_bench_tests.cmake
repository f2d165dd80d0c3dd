# SPDX-License-Identifier: Apache-2.0
# anycl-mpi-bench's smoke test (included from tests/CMakeLists.txt, which defines anycl_tool_test):
# --quick under mpiexec -n 2 prints one row per benchmark with its ranks counter (no colours: Open
# MPI gives ranks a terminal, so Google Benchmark would colour them). It checks the
# format, never the figures.
if(NOT TARGET anycl-mpi-bench)
  return()
endif()
include(${PROJECT_SOURCE_DIR}/cmake/anycl_mpiexec.cmake)
set(row "/iterations:2/manual_time +[0-9.]+ ms +[0-9.]+ ms +2 [^\n]*ranks=2")
anycl_tool_test(tool-mpi-bench-np2 0
  "2 rank\\(s\\).*\nkmeans${row}.*\nreduce${row}.*\nallreduce/device${row}.*\nallreduce/host${row}"
  CMD ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 ${ANYCL_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS}
      $<TARGET_FILE:anycl-mpi-bench> ${MPIEXEC_POSTFLAGS} --quick --benchmark_color=false
  ENV "POCL_DEVICES=pthread pthread")
set_tests_properties(tool-mpi-bench-np2 PROPERTIES LABELS mpi PROCESSORS ${ANYCL_MPI_PROCESSORS} TIMEOUT 300)
