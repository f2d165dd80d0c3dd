// SPDX-License-Identifier: Apache-2.0
// anycl::mpi under mpirun (-np 2 and -np 4): device mapping, allreduce, broadcast, allgather,
// gather and scatter of device arrays, under each transfer path (ANYCL_MPI_STAGING=auto, map and
// copy), checked against values each rank computes on the host, and their error paths. A plain
// main(): every rank checks its own results and exits non-zero with a message on a mismatch;
// mpirun then fails the test. argv[1] is a folder for per-rank POCL caches (processes sharing
// POCL's cache fail to build). ANYCL_MPI_TEST_PLANT_FAILURE=1 makes the last rank expect a wrong
// value, so that a test can show that one rank's failure fails the job.
#include <mpi.h>

#include <climits>
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
  if (got.size() != want.size()) {
    std::cerr << "rank " << rank << ": " << what << ": " << got.size() << " elements, expected "
              << want.size() << '\n';
    ++failures;
    return;
  }
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

// Runs `f`, which must throw E on this rank; `what` names the check.
template <typename E, typename F>
void expect_throw(const std::string& what, F&& f, const std::string& needle = {}) {
  try {
    f();
  } catch (const E& e) {
    if (needle.empty() || std::string(e.what()).find(needle) != std::string::npos) return;
    std::cerr << "rank " << rank << ": " << what << ": message '" << e.what() << "' lacks '"
              << needle << "'\n";
    ++failures;
    return;
  }
  std::cerr << "rank " << rank << ": " << what << ": no exception\n";
  ++failures;
}

// Rank r's contribution to allgather/gather: r == 1 has none, the others 5 + 7r elements
// 1000r + i, so sizes differ and one is 0.
std::vector<std::int32_t> part_of(int r) {
  const std::size_t n = r == 1 ? 0 : 5 + 7 * static_cast<std::size_t>(r);
  std::vector<std::int32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 1000 * r + static_cast<std::int32_t>(i);
  return v;
}

// allgather, gather and scatter against host references, under whatever ANYCL_MPI_STAGING is.
void collectives(const anycl::command_queue& q, int size, const std::string& mode) {
  const bool plant = rank == size - 1 && std::getenv("ANYCL_MPI_TEST_PLANT_FAILURE") != nullptr &&
                     std::string(std::getenv("ANYCL_MPI_TEST_PLANT_FAILURE")) == "1";
  std::vector<std::int32_t> everyone;
  for (int r = 0; r < size; ++r) {
    const std::vector<std::int32_t> p = part_of(r);
    everyone.insert(everyone.end(), p.begin(), p.end());
  }
  if (plant) everyone.back() += 1;  // a wrong expectation: this rank must fail, and the job
  const auto mine = anycl::array<std::int32_t>::from_host(q, part_of(rank));
  const auto all = anycl::mpi::allgather(mine, MPI_COMM_WORLD);
  expect_equal(all.to_host(), everyone, mode + ": allgather, unequal sizes");
  if (all.size() != everyone.size())
    std::cerr << "rank " << rank << ": " << mode << ": allgather size " << all.size() << '\n',
        ++failures;

  // A strided view (every second element of 2*(rank+1) doubles) goes through the copy path.
  std::vector<double> wide(2 * static_cast<std::size_t>(rank + 1));
  for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = rank * 100.0 + static_cast<double>(i);
  const auto w = anycl::array<double>::from_host(q, wide);
  std::vector<double> odd_ref;
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < 2 * (r + 1); i += 2) odd_ref.push_back(r * 100.0 + i);
  expect_equal(anycl::mpi::allgather(w.slice(0, 0, wide.size(), 2), MPI_COMM_WORLD).to_host(),
               odd_ref, mode + ": allgather of a strided view");

  // gather to the last rank: it gets everything, the others an empty array.
  const int last = size - 1;
  const auto g = anycl::mpi::gather(mine, last, MPI_COMM_WORLD);
  if (rank == last)
    expect_equal(g.to_host(), everyone, mode + ": gather to the last rank");
  else if (!g.empty())
    std::cerr << "rank " << rank << ": " << mode << ": gather gave a non-root rank " << g.size()
              << " elements\n",
        ++failures;

  // scatter from rank 0 in split_range's equal shares, then gather back: the round trip.
  const std::size_t n = 1001;
  std::vector<std::int64_t> whole(n);
  for (std::size_t i = 0; i < n; ++i) whole[i] = 3 * static_cast<std::int64_t>(i) - 7;
  const auto src = rank == 0 ? anycl::array<std::int64_t>::from_host(q, whole)
                             : anycl::array<std::int64_t>::zeros(q, anycl::shape(std::size_t{0}));
  const auto share = anycl::mpi::scatter(src, 0, MPI_COMM_WORLD);
  const anycl::index_range range = anycl::split_range(
      n, std::vector<double>(static_cast<std::size_t>(size), 1.0))[static_cast<std::size_t>(rank)];
  expect_equal(share.to_host(),
               std::vector<std::int64_t>(whole.begin() + static_cast<std::ptrdiff_t>(range.begin),
                                         whole.begin() + static_cast<std::ptrdiff_t>(range.end)),
               mode + ": scatter, equal shares");
  if (share.size() != range.size())
    std::cerr << "rank " << rank << ": " << mode << ": scatter share " << share.size() << '\n',
        ++failures;
  const auto back = anycl::mpi::gather(share, 0, MPI_COMM_WORLD);
  if (rank == 0) expect_equal(back.to_host(), whole, mode + ": scatter then gather");

  // Given counts: rank r gets 2r elements (rank 0 none), from root `last`.
  std::vector<std::size_t> counts;
  std::size_t total = 0;
  for (int r = 0; r < size; ++r) counts.push_back(2 * static_cast<std::size_t>(r)), total += 2 * r;
  std::vector<float> fwhole(total);
  for (std::size_t i = 0; i < total; ++i) fwhole[i] = 0.5f * static_cast<float>(i);
  const auto fsrc = rank == last ? anycl::array<float>::from_host(q, fwhole)
                                 : anycl::array<float>::zeros(q, anycl::shape(std::size_t{3}));
  const auto fshare = anycl::mpi::scatter(fsrc, last, MPI_COMM_WORLD, counts);
  const std::size_t at = static_cast<std::size_t>(rank) * static_cast<std::size_t>(rank - 1);
  expect_equal(fshare.to_host(),
               std::vector<float>(fwhole.begin() + static_cast<std::ptrdiff_t>(at),
                                  fwhole.begin() + static_cast<std::ptrdiff_t>(at + 2 * rank)),
               mode + ": scatter, given counts");
  if (fshare.size() != 2 * static_cast<std::size_t>(rank))
    std::cerr << "rank " << rank << ": " << mode << ": counted share " << fshare.size() << '\n',
        ++failures;
}

// Bad arguments throw std::invalid_argument on every rank (no hang, no corruption).
void error_paths(const anycl::command_queue& q, int size) {
  const auto a = anycl::array<std::int32_t>::zeros(q, anycl::shape(std::size_t{4}));
  using anycl::mpi::broadcast;
  using anycl::mpi::gather;
  using anycl::mpi::scatter;
  expect_throw<std::invalid_argument>(
      "gather to a root past the last rank", [&] { gather(a, size, MPI_COMM_WORLD); },
      "is not a rank");
  expect_throw<std::invalid_argument>(
      "scatter from root -1", [&] { scatter(a, -1, MPI_COMM_WORLD); }, "is not a rank");
  expect_throw<std::invalid_argument>(
      "broadcast, ranks name different roots",
      [&] {
        auto b = a.copy();
        broadcast(b, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
      },
      "different roots");
  expect_throw<std::invalid_argument>(
      "scatter with one count too few",
      [&] {
        scatter(a, 0, MPI_COMM_WORLD,
                std::vector<std::size_t>(static_cast<std::size_t>(size - 1), std::size_t{1}));
      },
      "counts for");
  expect_throw<std::invalid_argument>(
      "scatter with counts that do not add up to root's size",
      [&] {
        scatter(a, 0, MPI_COMM_WORLD,
                std::vector<std::size_t>(static_cast<std::size_t>(size), std::size_t{3}));
      },
      "add up to");
  expect_throw<std::invalid_argument>(
      "allgather, one rank's array has no queue",
      [&] { anycl::mpi::allgather(rank == 0 ? anycl::array<std::int32_t>() : a, MPI_COMM_WORLD); },
      "without a command queue");
  // Counts over 2^31-1 (MPI counts are int), exchanged without allocating such an array.
  expect_throw<std::invalid_argument>(
      "a rank with more than 2^31-1 elements",
      [&] {
        anycl::mpi::detail::gather_counts(rank == 0 ? std::uint64_t{3} << 30 : 1, MPI_COMM_WORLD,
                                          "gather_counts");
      },
      "2^31-1");
  expect_throw<std::invalid_argument>(
      "a total over 2^31-1",
      [&] {
        anycl::mpi::detail::displacements({INT_MAX, 1}, "displacements");
      },
      "2^31-1");
  expect_throw<std::invalid_argument>(
      "scatter of more than 2^31-1 elements",
      [&] {
        anycl::mpi::detail::scatter_counts(std::uint64_t{3} << 30, {}, 0, MPI_COMM_WORLD,
                                           "scatter_counts");
      },
      "2^31-1");
  // A bad ANYCL_MPI_STAGING: every collective throws, naming the valid values.
  setenv("ANYCL_MPI_STAGING", "zerocopy", 1);
  expect_throw<std::invalid_argument>(
      "ANYCL_MPI_STAGING=zerocopy", [] { anycl::mpi::requested_staging(); }, "auto, map or copy");
  expect_throw<std::invalid_argument>(
      "allgather under ANYCL_MPI_STAGING=zerocopy",
      [&] { anycl::mpi::allgather(a, MPI_COMM_WORLD); }, "'zerocopy'");
  expect_throw<std::invalid_argument>(
      "allreduce under ANYCL_MPI_STAGING=zerocopy",
      [&] {
        auto b = a.copy();
        anycl::mpi::allreduce(b, anycl::mpi::op::sum, MPI_COMM_WORLD);
      },
      "auto, map or copy");
  unsetenv("ANYCL_MPI_STAGING");
}

// The transfer report and the path each setting picks on this machine's POCL CPU device.
void transfers(const anycl::command_queue& q) {
  const anycl::mpi::transfer_report t = anycl::mpi::transfer_info();
  if (rank == 0)
    std::cout << "MPI library: " << t.library << "; mpi-ext.h: " << t.extension_header
              << "; CUDA-aware build: " << t.cuda_aware_build
              << "; CUDA-aware at run time: " << t.cuda_aware_runtime << '\n';
  if (t.library.empty()) std::cerr << "rank " << rank << ": no library version\n", ++failures;
  if (t.library.find("Open MPI") != std::string::npos && !t.extension_header)
    std::cerr << "rank " << rank << ": Open MPI without mpi-ext.h detected\n", ++failures;
  if (anycl::mpi::gpu_aware() != t.cuda_aware_runtime)
    std::cerr << "rank " << rank << ": gpu_aware() disagrees with transfer_info()\n", ++failures;
  const std::pair<const char*, bool> want[] = {{"auto", true}, {"map", true}, {"copy", false}};
  for (const auto& [mode, maps] : want) {
    setenv("ANYCL_MPI_STAGING", mode, 1);
    if (anycl::mpi::maps_buffers(q) != maps)  // POCL's CPU device shares host memory
      std::cerr << "rank " << rank << ": maps_buffers under " << mode << " is " << !maps << '\n',
          ++failures;
  }
  unsetenv("ANYCL_MPI_STAGING");
  if (anycl::mpi::requested_staging() != anycl::mpi::staging::automatic)
    std::cerr << "rank " << rank << ": unset ANYCL_MPI_STAGING is not auto\n", ++failures;
}

void reductions(const anycl::command_queue& q, int size, const std::string& mode);

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

  transfers(q);
  for (const char* mode : {"auto", "map", "copy"}) {
    setenv("ANYCL_MPI_STAGING", mode, 1);
    reductions(q, size, mode);
    collectives(q, size, mode);
  }
  unsetenv("ANYCL_MPI_STAGING");
  error_paths(q, size);
}

// allreduce and broadcast against host references, under whatever ANYCL_MPI_STAGING is.
void reductions(const anycl::command_queue& q, int size, const std::string& mode) {
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
  expect_equal(a.to_host(), sum, mode + ": allreduce sum int64");
  a.set(mine);
  anycl::mpi::allreduce(a, anycl::mpi::op::min, MPI_COMM_WORLD);
  expect_equal(a.to_host(), lo, mode + ": allreduce min int64");
  a.set(mine);
  anycl::mpi::allreduce(a, anycl::mpi::op::max, MPI_COMM_WORLD);
  expect_equal(a.to_host(), hi, mode + ": allreduce max int64");

  // Floats with small integer values: sums are exact whatever MPI's order.
  std::vector<float> fmine(n);
  std::vector<float> fsum(n);
  for (std::size_t i = 0; i < n; ++i) {
    fmine[i] = static_cast<float>(mine[i]);
    fsum[i] = static_cast<float>(sum[i]);
  }
  auto f = anycl::array<float>::from_host(q, fmine);
  anycl::mpi::allreduce(f, anycl::mpi::op::sum, MPI_COMM_WORLD);
  expect_equal(f.to_host(), fsum, mode + ": allreduce sum float");

  // Broadcast from the last rank: everyone ends with i + (size-1).
  auto b = anycl::array<std::int64_t>::from_host(q, mine);
  anycl::mpi::broadcast(b, size - 1, MPI_COMM_WORLD);
  expect_equal(b.to_host(), hi, mode + ": broadcast from last rank");

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
