// SPDX-License-Identifier: Apache-2.0
// The disk cache shared by MPI ranks on one node (mpirun -np 2 and -np 4): every rank loads a
// source unique to this run through a kernel_loader on one fresh cache folder, at the same moment.
// With waiting on (ANYCL_CACHE_WAIT unset or > 0) the rank-summed builds must equal the number of
// distinct device keys (one build per key, the other ranks wait for its entry); with
// ANYCL_CACHE_WAIT=0 each rank may build. Every rank checks its kernel's result against the host.
// Rank 0 prints builds, hits, waits and the wall time from the common start to the slowest rank's
// checked result. A plain main(): a failing rank exits non-zero, and mpirun fails the test.
// argv[1] is a work folder: per-rank POCL caches and the run's cache folder go below it.
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "anycl/mpi.hpp"

namespace {

int rank = 0;
int failures = 0;

void fail(const std::string& what) {
  std::cerr << "rank " << rank << ": " << what << '\n';
  ++failures;
}

/// A string from rank 0 to every rank.
std::string broadcast(std::string s) {
  unsigned long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
  s.resize(n);
  MPI_Bcast(s.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

std::uint64_t sum(std::uint64_t v) {
  std::uint64_t total = 0;
  MPI_Reduce(&v, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  return total;
}

void run(int size, const std::string& work) {
  namespace fs = std::filesystem;
  // A cache folder and a source no earlier run used: every rank misses at first.
  std::string id;
  if (rank == 0)
    id = std::to_string(::getpid()) + "-" +
         std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
  id = broadcast(id);
  const fs::path cache = fs::path(work) / ("cache-" + id);
  const std::string source = "// run " + id +
                             "\nkernel void scale(global float* x, float a) {\n"
                             "  x[get_global_id(0)] = x[get_global_id(0)] * a + 1.0f;\n}\n";

  const anycl::device dev = anycl::mpi::select_device(MPI_COMM_WORLD);
  const anycl::context ctx(dev);
  const anycl::command_queue q(ctx, dev);
  anycl::loader_options lo;
  lo.disk_cache = true;
  lo.cache_dir = cache.string();
  const anycl::kernel_loader loader(ctx, lo);
  const std::size_t n = 4096;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i % 97) * 0.25f;
  const float a = 2.0f + static_cast<float>(rank);
  anycl::reset_cache_stats();

  MPI_Barrier(MPI_COMM_WORLD);
  const auto t0 = std::chrono::steady_clock::now();
  auto f = loader.load_source(source, "cache_test.cl")
               .function<anycl::buffer_view<float>, float>("scale");
  anycl::buffer x = anycl::buffer::from(ctx, host);
  anycl::event done = f(q, anycl::nd_range{n}, x, a);
  std::vector<float> got = q.read(anycl::buffer_view<float>(x), {done});
  anycl::wait_for_cache_writes();  // the entry is written: ranks waiting for it can go on
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t i = 0; i < n; ++i) {
    const float want = host[i] * a + 1.0f;
    if (std::fabs(got[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
      fail("element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", expected " +
           std::to_string(want));
      break;
    }
  }
  double wall = 0;
  MPI_Reduce(&mine, &wall, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  const anycl::cache_statistics s = anycl::cache_stats();
  if (s.rejects != 0 || s.write_failures != 0)
    fail("rejects " + std::to_string(s.rejects) + ", write failures " +
         std::to_string(s.write_failures));
  if (s.hits + s.misses + s.waits != 1)
    fail("hits + misses + waits is " + std::to_string(s.hits + s.misses + s.waits));
  const std::uint64_t builds = sum(s.misses), hits = sum(s.hits), waits = sum(s.waits);

  // The distinct device keys over all ranks (ranks may share a device, or devices be alike).
  char key[128] = {};
  std::snprintf(key, sizeof key, "%s", anycl::device_key(dev).c_str());
  std::vector<char> keys(rank == 0 ? sizeof key * static_cast<std::size_t>(size) : 0);
  MPI_Gather(key, sizeof key, MPI_CHAR, keys.data(), sizeof key, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  std::set<std::string> distinct;
  for (int r = 0; r < size; ++r) distinct.insert(std::string(keys.data() + r * sizeof key));
  std::size_t entries = 0;
  for (const auto& e : fs::directory_iterator(cache)) entries += e.path().extension() == ".bin";
  std::size_t lock_files = 0;
  for (const auto& e : fs::directory_iterator(cache)) lock_files += e.path().extension() == ".lock";

  const char* w = std::getenv("ANYCL_CACHE_WAIT");
  const bool waiting = w == nullptr || std::string(w) != "0";
  std::printf(
      "mpi cache: %d ranks, ANYCL_CACHE_WAIT=%s, %zu distinct device keys: builds %ju, hits %ju, "
      "waits %ju, wall %.3f s\n",
      size, w == nullptr ? "(unset: 120)" : w, distinct.size(), static_cast<std::uintmax_t>(builds),
      static_cast<std::uintmax_t>(hits), static_cast<std::uintmax_t>(waits), wall);
  if (entries != distinct.size())
    fail(std::to_string(entries) + " entries for " + std::to_string(distinct.size()) + " keys");
  if (lock_files != 0) fail(std::to_string(lock_files) + " lock files left");
  if (waiting && builds != distinct.size())
    fail("built " + std::to_string(builds) + " times for " + std::to_string(distinct.size()) +
         " device keys");
  if (!waiting && waits != 0) fail("waited with ANYCL_CACHE_WAIT=0");
  fs::remove_all(cache);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string work =
      argc > 1 ? argv[1] : (std::filesystem::temp_directory_path() / "anycl-mpi-cache").string();
  try {
    const std::string pocl = work + "/pocl/rank" + std::to_string(rank);
    std::filesystem::create_directories(pocl);
    setenv("POCL_CACHE_DIR", pocl.c_str(), 1);
    run(size, work);
  } catch (const std::exception& e) {
    fail(e.what());
  }
  int total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::cout << (total == 0 ? "mpi cache test passed" : "mpi cache test FAILED") << " on " << size
              << " ranks\n";
  MPI_Finalize();
  return failures == 0 ? 0 : 1;
}
