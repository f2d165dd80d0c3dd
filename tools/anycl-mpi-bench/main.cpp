// SPDX-License-Identifier: Apache-2.0
// anycl-mpi-bench: AnyCL under MPI, run with mpiexec -n 1, 2, 4, ... (tools/anycl-mpi-bench/
// scaling.sh runs it so and prints speed-ups). Three families, each with a fixed total size split
// across the ranks by anycl::split_range:
//   kmeans     strong scaling of examples/12_mpi_kmeans.cpp's k-means (2^20 2-D points, k = 8, 10
//              iterations of assignment on each rank's device and an allreduce of the sums)
//   reduce     a device sum of each rank's share of 2^24 floats, then MPI_Allreduce of the partials
//   allreduce  anycl::mpi::allreduce of 2^20 floats on the device (host staging) against
//              MPI_Allreduce of a host std::vector of the same size
// Each benchmark runs its step once untimed; each iteration starts at an MPI_Barrier and is timed
// with MPI_Wtime; the time reported is the slowest rank's (MPI_Allreduce MAX), fed to Google
// Benchmark as manual time. Iteration counts are fixed so that every rank runs the same
// collectives. Only rank 0 prints.
//
//   mpiexec -n 2 anycl-mpi-bench [--quick] [Google Benchmark flags]
// --quick: sizes / 64 and 2 iterations (a smoke test of the output). Each rank's POCL cache is
// $POCL_CACHE_DIR/rank<r> when POCL_CACHE_DIR is set (POCL's cache must not be shared).
#include <benchmark/benchmark.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "anycl/mpi.hpp"

#ifndef ANYCL_MPI_BENCH_CL_DIR
#define ANYCL_MPI_BENCH_CL_DIR "examples/cl"
#endif

namespace {

int rank = 0, ranks = 1;
std::size_t scale = 1;  // sizes are divided by this (--quick: 64)
int iterations = 20;    // per benchmark, the same on every rank (--quick: 2)

// This rank's share of [0, n), equal weights.
anycl::index_range share(std::size_t n) {
  return anycl::split_range(
      n, std::vector<double>(static_cast<std::size_t>(ranks), 1.0))[static_cast<std::size_t>(rank)];
}

// Runs `step` once untimed (drivers compile a kernel at its first launch), then once per benchmark
// iteration after an MPI_Barrier, timed with MPI_Wtime: the slowest rank's seconds (MPI_Allreduce
// MAX) are the iteration's manual time, the same on every rank.
template <class F>
void run_timed(benchmark::State& state, F&& step) {
  step();
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    step();
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(t);
  }
}

void set_counters(benchmark::State& state, std::size_t total) {
  state.counters["ranks"] = ranks;
  state.counters["items"] = static_cast<double>(total);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(total));
}

struct context {
  anycl::command_queue queue;
  anycl::kernel_loader loader;
};
context* ctx = nullptr;

// k-means as in examples/12_mpi_kmeans.cpp, with a fixed number of iterations (no convergence
// test, so every configuration does the same work): 2^20 points around 8 centres.
void bm_kmeans(benchmark::State& state) {
  const cl_uint k = 8, steps = 10;
  const std::size_t n = (std::size_t{1} << 20) / scale;
  const anycl::index_range r = share(n);
  std::vector<cl_float2> pts(r.size());
  for (std::size_t i = r.begin; i < r.end; ++i) {  // deterministic, no generator state to share
    const double a = 2 * 3.14159265358979 * double(i % k) / k, e = double((i * 7919) % 1000) / 1e3;
    pts[i - r.begin] = {{static_cast<float>(8 * std::cos(a) + e - 0.5),
                         static_cast<float>(8 * std::sin(a) + 0.5 - e)}};
  }
  const auto& q = ctx->queue;
  auto assign =
      ctx->loader.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float2>,
                           anycl::buffer_view<const cl_float2>, anycl::buffer_view<cl_uint>,
                           anycl::buffer_view<cl_float4>>("kmeans.cl", "kmeans_assign");
  auto add = ctx->loader.function<cl_uint, cl_uint, anycl::buffer_view<const float>,
                                  anycl::buffer_view<float>>("kmeans.cl", "kmeans_sums");
  const auto m = static_cast<cl_uint>(r.size());
  const cl_uint groups = std::max<cl_uint>(std::min<cl_uint>(m, 1024), 1);
  anycl::buffer pb(q.context(), std::max<std::size_t>(m, 1) * sizeof(cl_float2));
  anycl::buffer ab(q.context(), std::max<std::size_t>(m, 1) * sizeof(cl_uint));
  anycl::buffer partial(q.context(), groups * k * sizeof(cl_float4));
  anycl::buffer cb(q.context(), k * sizeof(cl_float2));
  auto sums = anycl::array<float>::zeros(q, anycl::shape(std::size_t{4 * k}));
  if (m > 0) q.write(anycl::buffer_view<cl_float2>(pb), pts);
  run_timed(state, [&] {
    std::vector<cl_float2> centres(k);
    for (cl_uint c = 0; c < k; ++c) centres[c] = {{float(c), float(c)}};  // a poor start
    for (cl_uint s = 0; s < steps; ++s) {
      q.write(anycl::buffer_view<cl_float2>(cb), centres);
      if (m > 0) {
        assign(q, anycl::nd_range{groups}, m, k, pb, cb, ab, partial);
        add(q, anycl::nd_range{4 * k}, groups, k, anycl::buffer_view<const float>(partial),
            sums.view());
      }
      anycl::mpi::allreduce(sums, anycl::mpi::op::sum, MPI_COMM_WORLD);
      const std::vector<float> h = sums.to_host();
      for (cl_uint c = 0; c < k; ++c)
        if (h[4 * c + 2] > 0) centres[c] = {{h[4 * c] / h[4 * c + 2], h[4 * c + 1] / h[4 * c + 2]}};
    }
  });
  set_counters(state, n);
}

// A large sum: each rank's device sums its share, MPI_Allreduce adds the partials.
void bm_reduce(benchmark::State& state) {
  const std::size_t n = (std::size_t{1} << 24) / scale;
  const anycl::index_range r = share(n);
  std::vector<float> host(r.size());
  for (std::size_t i = r.begin; i < r.end; ++i) host[i - r.begin] = float(i % 1024);
  auto a = anycl::array<float>::from_host(ctx->queue, host);
  double total = 0;
  run_timed(state, [&] {
    total = r.size() > 0 ? double(anycl::sum(a)) : 0.0;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  });
  // i % 1024 over [0, n), n a multiple of 1024: n / 1024 * (0 + ... + 1023).
  const double expected = double(n / 1024) * 1023.0 * 1024.0 / 2.0;
  if (std::fabs(total - expected) > 1e-5 * expected)
    state.SkipWithError(
        ("sum " + std::to_string(total) + ", expected " + std::to_string(expected)).c_str());
  set_counters(state, n);
}

// The same allreduce of 2^20 floats: a device array through anycl::mpi, and a host vector.
void bm_allreduce_device(benchmark::State& state) {
  const std::size_t n = (std::size_t{1} << 20) / scale;
  auto a = anycl::array<float>::zeros(ctx->queue, anycl::shape(n));  // zeros: no overflow
  run_timed(state, [&] { anycl::mpi::allreduce(a, anycl::mpi::op::sum, MPI_COMM_WORLD); });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float)));
  set_counters(state, n);
}

void bm_allreduce_host(benchmark::State& state) {
  const std::size_t n = (std::size_t{1} << 20) / scale;
  std::vector<float> v(n, 0.0f);
  run_timed(state, [&] {
    MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  });
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float)));
  set_counters(state, n);
}

// Ranks other than 0 report nothing.
class silent_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

// argv without the flags this tool takes itself: --quick sets the sizes and iterations, and
// ranks other than 0 drop --benchmark_out* (only rank 0 writes the output file).
std::vector<char*> benchmark_args(int argc, char** argv) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--quick")
      scale = 64, iterations = 2;
    else if (rank != 0 && arg.rfind("--benchmark_out", 0) == 0)
      continue;
    else
      args.push_back(argv[i]);
  }
  return args;
}

// Gives this rank a POCL cache of its own under POCL_CACHE_DIR; call before any OpenCL call.
void use_rank_cache() {
  const char* cache = std::getenv("POCL_CACHE_DIR");
  if (cache == nullptr) return;
  const std::string dir = std::string(cache) + "/rank" + std::to_string(rank);
  std::filesystem::create_directories(dir);
  setenv("POCL_CACHE_DIR", dir.c_str(), 1);
}

void register_benchmarks() {
  for (auto [name, fn] : {std::pair{"kmeans", &bm_kmeans}, std::pair{"reduce", &bm_reduce},
                          std::pair{"allreduce/device", &bm_allreduce_device},
                          std::pair{"allreduce/host", &bm_allreduce_host}})
    benchmark::RegisterBenchmark(name, fn)
        ->UseManualTime()
        ->Iterations(iterations)
        ->Unit(benchmark::kMillisecond);
}

// Runs the benchmarks on the device mpi::select_device gives this rank; only rank 0 reports.
void run_benchmarks() {
  const anycl::command_queue q(anycl::mpi::select_device(MPI_COMM_WORLD));
  anycl::loader_options options;
  options.search_path = {ANYCL_MPI_BENCH_CL_DIR};
  context c{q, anycl::kernel_loader(q.context(), options)};
  ctx = &c;
  if (rank == 0)
    std::printf("anycl-mpi-bench: %d rank(s), rank 0 on %s\n", ranks, q.device().name().c_str());
  register_benchmarks();
  if (rank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    silent_reporter quiet;
    benchmark::RunSpecifiedBenchmarks(&quiet);
  }
  ctx = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<char*> args = benchmark_args(argc, argv);
  int nargs = static_cast<int>(args.size());
  benchmark::Initialize(&nargs, args.data());
  if (benchmark::ReportUnrecognizedArguments(nargs, args.data())) {
    MPI_Finalize();
    return 2;
  }
  use_rank_cache();
  try {
    run_benchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
