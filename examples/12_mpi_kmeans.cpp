// SPDX-License-Identifier: Apache-2.0
// k-means clustering split across MPI ranks: each rank assigns its share of the points on its own
// device, the per-cluster sums are added across ranks with anycl::mpi::allreduce, and every rank
// computes the same new centres. Rank 0 then runs the same k-means alone on every point and checks
// that both agree, and that the centres found are the planted ones.
//
//   mpiexec -n 2 12_mpi_kmeans [POINTS [CACHE_DIR [CL_DIR]]]    POINTS defaults to 200000
// Each rank's POCL cache is CACHE_DIR/rank<r>, else $POCL_CACHE_DIR/rank<r> (POCL's cache must not
// be shared by processes); CL_DIR holds kmeans.cl (default: the examples' cl/ folder).
// ANYCL_MPI_LOG=1 prints which device each rank took.
#include <mpi.h>
#include <anycl/anycl.hpp>
#include <anycl/mpi.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

namespace {
const cl_uint k = 8;
using point = std::array<double, 2>;
double dist(const point& a, const point& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); }
struct result {
  std::vector<point> centres;
  std::vector<float> sums;  // sum of x, sum of y, points, points that changed: per centre
  int iterations = 0;
};

// k-means from `centres` on `points` with the kernels of cl/kmeans.cl. With a communicator, every
// rank's sums are added by allreduce, so all ranks move the centres alike; MPI_COMM_NULL: alone.
template <class Assign, class Add>
result kmeans(const anycl::command_queue& q, const Assign& assign, const Add& add,
              const std::vector<cl_float2>& points, std::vector<point> centres, MPI_Comm comm) {
  const auto n = static_cast<cl_uint>(points.size()), groups = std::min<cl_uint>(n, 1024);
  auto pb = anycl::buffer::from(q.context(), points, anycl::memory_access::read_only);
  anycl::buffer ab(q.context(), n * sizeof(cl_uint)), cb(q.context(), k * sizeof(cl_float2));
  anycl::buffer partial(q.context(), groups * k * sizeof(cl_float4));
  auto sums = anycl::array<float>::zeros(q, anycl::shape(std::size_t{4 * k}));
  q.fill(anycl::buffer_view<cl_uint>(ab), ~cl_uint{0});  // no centre yet: all change at first
  result r;
  for (r.iterations = 1; r.iterations <= 100; ++r.iterations) {
    std::vector<cl_float2> cf(k);
    for (cl_uint c = 0; c < k; ++c)
      cf[c] = {{static_cast<float>(centres[c][0]), static_cast<float>(centres[c][1])}};
    q.write(anycl::buffer_view<cl_float2>(cb), cf);
    assign(q, anycl::nd_range{groups}, n, k, pb, cb, ab, partial);
    add(q, anycl::nd_range{4 * k}, groups, k, anycl::buffer_view<const float>(partial),
        sums.view());
    if (comm != MPI_COMM_NULL) anycl::mpi::allreduce(sums, anycl::mpi::op::sum, comm);
    r.sums = sums.to_host();
    double changed = 0;
    for (cl_uint c = 0; c < k; ++c) {  // the same sums on every rank: the same new centres
      const double count = r.sums[4 * c + 2];
      if (count > 0) centres[c] = {r.sums[4 * c] / count, r.sums[4 * c + 1] / count};
      changed += r.sums[4 * c + 3];
    }
    if (changed == 0) break;
  }
  r.centres = centres;
  return r;
}
}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  char* end = nullptr;
  const long long n = argc > 1 ? std::strtoll(argv[1], &end, 10) : 200000;
  if (argc > 4 || (argc > 1 && *end != '\0') || n < ranks || n > (1 << 26)) {  // a point each
    if (rank == 0) std::fprintf(stderr, "usage: 12_mpi_kmeans [POINTS [CACHE_DIR [CL_DIR]]]\n");
    MPI_Finalize();
    return 2;
  }
  if (const char* cache = argc > 2 ? argv[2] : std::getenv("POCL_CACHE_DIR")) {
    const std::string dir = std::string(cache) + "/rank" + std::to_string(rank);
    std::filesystem::create_directories(dir);
    setenv("POCL_CACHE_DIR", dir.c_str(), 1);  // before any OpenCL call
  }
  try {
    // The same points on every rank: point i lies around planted centre i % k, on a circle of
    // radius 8 with noise 0.5 (neighbouring centres are 12 standard deviations apart).
    const double spread = 0.5, pi = std::acos(-1.0);
    std::vector<point> planted(k);
    for (cl_uint c = 0; c < k; ++c)
      planted[c] = {8 * std::cos(2 * pi * c / k), 8 * std::sin(2 * pi * c / k)};
    std::mt19937 rng(2024);
    std::normal_distribution<double> noise(0.0, spread);
    std::vector<cl_float2> all(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < all.size(); ++i)
      all[i] = {{static_cast<float>(planted[i % k][0] + noise(rng)),
                 static_cast<float>(planted[i % k][1] + noise(rng))}};
    // Initial centres, the same everywhere: farthest-first over the first 1000 points.
    std::vector<point> init{{all[0].s[0], all[0].s[1]}};
    while (init.size() < k) {
      point far{};
      double best = -1;
      for (std::size_t i = 0; i < std::min<std::size_t>(all.size(), 1000); ++i) {
        double d = INFINITY;
        for (const point& c : init) d = std::min(d, dist({all[i].s[0], all[i].s[1]}, c));
        if (d > best) best = d, far = {all[i].s[0], all[i].s[1]};
      }
      init.push_back(far);
    }

    // This rank's share (split_range: consecutive, within one point of n / ranks) on its device.
    const auto mine = anycl::split_range(all.size(), std::vector<double>(ranks, 1.0))[rank];
    const std::vector<cl_float2> share(all.begin() + mine.begin, all.begin() + mine.end);
    const anycl::command_queue q(anycl::mpi::select_device(MPI_COMM_WORLD));
    anycl::loader_options options;
    options.search_path = {argc > 3 ? argv[3] : EXAMPLE_CL_DIR};
    anycl::kernel_loader loader(q.context(), options);
    auto assign = loader.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float2>,
                                  anycl::buffer_view<const cl_float2>, anycl::buffer_view<cl_uint>,
                                  anycl::buffer_view<cl_float4>>("kmeans.cl", "kmeans_assign");
    auto add = loader.function<cl_uint, cl_uint, anycl::buffer_view<const float>,
                               anycl::buffer_view<float>>("kmeans.cl", "kmeans_sums");
    kmeans(q, assign, add, share, init, MPI_COMM_NULL);  // warm-up: drivers compile at first use
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    const result split = kmeans(q, assign, add, share, init, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  // the slowest rank
    int failed = 0;
    if (rank == 0) {  // the same k-means in one process on every point, without MPI
      double t1 = MPI_Wtime();
      const result one = kmeans(q, assign, add, all, init, MPI_COMM_NULL);
      t1 = MPI_Wtime() - t1;
      std::printf("ranks  points     iterations  time (ms)\n%-6d %-10lld %-11d %.1f\n", ranks, n,
                  split.iterations, 1e3 * t);
      std::printf("alone  %-10lld %-11d %.1f\n", n, one.iterations, 1e3 * t1);
      // Equal counts, centres within float rounding, each centre within 6 standard errors of a
      // planted one and each planted one as near a centre (so no two centres share a cluster).
      const double tol = 6 * spread / std::sqrt(double(n) / k) + 0.01;
      for (cl_uint c = 0; c < k; ++c) {
        double to_planted = INFINITY, to_found = INFINITY;
        for (cl_uint j = 0; j < k; ++j) {
          to_planted = std::min(to_planted, dist(split.centres[c], planted[j]));
          to_found = std::min(to_found, dist(split.centres[j], planted[c]));
        }
        const double to_one = dist(split.centres[c], one.centres[c]);
        if (split.sums[4 * c + 2] != one.sums[4 * c + 2] || to_one > 1e-4 ||
            std::max(to_planted, to_found) > tol) {
          std::fprintf(
              stderr, "centre %u: %g points (alone %g), %.1e from alone, %.3f from planted\n", c,
              split.sums[4 * c + 2], one.sums[4 * c + 2], to_one, std::max(to_planted, to_found));
          failed = 1;
        }
      }
      if (!failed) std::printf("k-means on %d rank(s) equals one process: ok\n", ranks);
    }
    MPI_Finalize();
    return failed;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);  // the other ranks may be waiting in a collective
    return 1;
  }
}
