// SPDX-License-Identifier: Apache-2.0
// A program on anycl::mpi from an installed AnyCL: it compiles against the installed mpi.hpp, links
// the exported target (and through it MPI), and runs without mpiexec: before MPI_Init the
// collectives' helpers report a clear error, and the staging defaults to auto.
#include <cstdio>
#include <cstdlib>

#include "anycl/mpi.hpp"

int main() {
  unsetenv("ANYCL_MPI_STAGING");
  if (anycl::mpi::requested_staging() != anycl::mpi::staging::automatic) {
    std::fprintf(stderr, "consumer-mpi: staging is not auto by default\n");
    return 1;
  }
  try {
    anycl::mpi::node_local_rank(MPI_COMM_WORLD);
  } catch (const anycl::mpi::error& e) {
    std::printf("consumer-mpi: %s\n", e.what());
    return 0;
  }
  std::fprintf(stderr, "consumer-mpi: no error before MPI_Init\n");
  return 1;
}
