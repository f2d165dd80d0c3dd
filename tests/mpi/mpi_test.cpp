// SPDX-License-Identifier: Apache-2.0
// anycl::mpi under mpirun (-np 2 and -np 4): device mapping, allreduce and broadcast of device
// arrays, checked against values each rank computes on the host. A plain main(): every rank checks
// its own results and exits non-zero with a message on a mismatch; mpirun then fails the test.
// argv[1] is a folder for per-rank POCL caches (processes sharing POCL's cache fail to build).
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "anycl/mpi.hpp"

namespace {

int rank = 0;
int failures = 0;

template <typename T>
void expect_equal(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (got.size() != want.size() || got[i] != want[i]) {
      std::cerr << "rank " << rank << ": " << what << ": element " << i << " is "
                << (i < got.size() ? std::to_string(got[i]) : std::string("missing"))
                << ", expected " << std::to_string(want[i]) << '\n';
      ++failures;
      return;
    }
  }
}

void run(int size) {
  const anycl::device dev = anycl::mpi::select_device(MPI_COMM_WORLD, {}, true);
  const anycl::command_queue q(dev);
  // A spec that matches nothing is device_not_found (this machine has no FPGA).
  bool none_found = false;
  try {
    anycl::mpi::select_device(MPI_COMM_WORLD, "fpga");
  } catch (const anycl::device_not_found&) {
    none_found = true;
  }
  if (!none_found) std::cerr << "rank " << rank << ": no device_not_found for 'fpga'\n", ++failures;
  const int local = anycl::mpi::node_local_rank(MPI_COMM_WORLD);
  if (local != rank)  // one node: node-local ranks equal world ranks
    std::cerr << "rank " << rank << ": node_local_rank is " << local << '\n', ++failures;

  const std::size_t n = 1000;
  // Rank r holds i + r: the sum over ranks is size*i + size*(size-1)/2, min i, max i + size-1.
  std::vector<std::int64_t> mine(n);
  std::vector<std::int64_t> sum(n);
  std::vector<std::int64_t> lo(n);
  std::vector<std::int64_t> hi(n);
  const std::int64_t s = size;
  for (std::size_t i = 0; i < n; ++i) {
    const auto v = static_cast<std::int64_t>(i);
    mine[i] = v + rank;
    sum[i] = s * v + s * (s - 1) / 2;
    lo[i] = v;
    hi[i] = v + s - 1;
  }
  auto a = anycl::array<std::int64_t>::from_host(q, mine);
  anycl::mpi::allreduce(a, anycl::mpi::op::sum, MPI_COMM_WORLD);
  expect_equal(a.to_host(), sum, "allreduce sum int64");
  a.set(mine);
  anycl::mpi::allreduce(a, anycl::mpi::op::min, MPI_COMM_WORLD);
  expect_equal(a.to_host(), lo, "allreduce min int64");
  a.set(mine);
  anycl::mpi::allreduce(a, anycl::mpi::op::max, MPI_COMM_WORLD);
  expect_equal(a.to_host(), hi, "allreduce max int64");

  // Floats with small integer values: sums are exact whatever MPI's order.
  std::vector<float> fmine(n);
  std::vector<float> fsum(n);
  for (std::size_t i = 0; i < n; ++i) {
    fmine[i] = static_cast<float>(mine[i]);
    fsum[i] = static_cast<float>(sum[i]);
  }
  auto f = anycl::array<float>::from_host(q, fmine);
  anycl::mpi::allreduce(f, anycl::mpi::op::sum, MPI_COMM_WORLD);
  expect_equal(f.to_host(), fsum, "allreduce sum float");

  // Broadcast from the last rank: everyone ends with i + (size-1).
  auto b = anycl::array<std::int64_t>::from_host(q, mine);
  anycl::mpi::broadcast(b, size - 1, MPI_COMM_WORLD);
  expect_equal(b.to_host(), hi, "broadcast from last rank");

  // Sizes that differ between ranks throw std::invalid_argument on every rank.
  auto odd = anycl::array<std::int32_t>::zeros(q, anycl::shape(static_cast<std::size_t>(rank + 1)));
  bool threw = false;
  try {
    anycl::mpi::allreduce(odd, anycl::mpi::op::sum, MPI_COMM_WORLD);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  if (!threw) std::cerr << "rank " << rank << ": no error for unequal sizes\n", ++failures;

  // An empty array is a no-op, as everywhere in AnyCL.
  auto none = anycl::array<double>::zeros(q, anycl::shape(std::size_t{0}));
  anycl::mpi::allreduce(none, anycl::mpi::op::max, MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  // Before MPI_Init: using MPI without it is a clear error, not a crash.
  bool threw = false;
  try {
    anycl::mpi::node_local_rank(MPI_COMM_WORLD);
  } catch (const anycl::mpi::error&) {
    threw = true;
  }
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (!threw) std::cerr << "rank " << rank << ": no error before MPI_Init\n", ++failures;
  // Each rank its own POCL cache, set before any OpenCL call.
  if (argc > 1) {
    const std::string dir = std::string(argv[1]) + "/rank" + std::to_string(rank);
    std::filesystem::create_directories(dir);
    setenv("POCL_CACHE_DIR", dir.c_str(), 1);
  }
  try {
    run(size);
  } catch (const std::exception& e) {
    std::cerr << "rank " << rank << ": " << e.what() << '\n';
    ++failures;
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::cout << (total == 0 ? "mpi tests passed" : "mpi tests FAILED") << " on " << size
              << " ranks\n";
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
