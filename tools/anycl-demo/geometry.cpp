// SPDX-License-Identifier: Apache-2.0
// The demo's own kernels (cl_kernels/anycl/demo.cl): vertices transformed by 4x4 matrices, and
// k-means clustering.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "workloads.hpp"

namespace demo {
namespace {

using mat4 = std::array<float, 16>;  // row-major

mat4 multiply(const mat4& a, const mat4& b) {
  mat4 c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) c[i * 4 + j] += a[i * 4 + k] * b[k * 4 + j];
  return c;
}

// A perspective projection (90 degrees, aspect 1, near 0.1, far 100) of a camera 8 units back,
// times the model matrix of object `k`: scaled, turned about y and moved along a ring.
mat4 model_view_projection(int k) {
  const float angle = 0.1f * static_cast<float>(k), s = 0.5f + 0.01f * static_cast<float>(k);
  const float c = std::cos(angle), sn = std::sin(angle);
  const mat4 model{s * c,   0, s * sn, 3 * std::cos(angle * 7),  //
                   0,       s, 0,      0.5f,                     //
                   -s * sn, 0, s * c,  3 * std::sin(angle * 7),  //
                   0,       0, 0,      1};
  const mat4 view{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -8, 0, 0, 0, 1};
  const float nr = 0.1f, fr = 100.0f;
  const mat4 proj{1, 0, 0,  0, 0, 1, 0, 0, 0, 0, -(fr + nr) / (fr - nr), -2 * fr * nr / (fr - nr),
                  0, 0, -1, 0};
  return multiply(proj, multiply(view, model));
}

}  // namespace

row vertices(const setup& s) {
  const std::size_t n = s.n, objects = 64, per = (n + objects - 1) / objects;
  std::mt19937 rng(s.seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<cl_float4> v(n);
  for (auto& p : v) p = {{dist(rng), dist(rng), dist(rng), 1.0f}};
  std::vector<float> m(objects * 16);
  for (std::size_t k = 0; k < objects; ++k) {
    const mat4 mk = model_view_projection(static_cast<int>(k));
    for (std::size_t r = 0; r < 4; ++r)  // column-major on the device
      for (std::size_t c = 0; c < 4; ++c) m[k * 16 + c * 4 + r] = mk[r * 4 + c];
  }

  auto mb = anycl::buffer::from(s.ctx, m, anycl::memory_access::read_only);
  auto in = anycl::buffer::from(s.ctx, v, anycl::memory_access::read_only);
  anycl::buffer out(s.ctx, n * sizeof(cl_float4));
  auto transform =
      s.prog.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float4>,
                      anycl::buffer_view<const cl_float4>, anycl::buffer_view<cl_float4>>(
          "anycl_transform_vertices");
  anycl::event e = transform(s.queue, anycl::nd_range{n}, static_cast<cl_uint>(n),
                             static_cast<cl_uint>(per), mb, in, out);
  const std::vector<cl_float4> got = s.queue.read(anycl::buffer_view<cl_float4>(out), {e});

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> want(4 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const float* mk = &m[(i / per) * 16];
    for (int r = 0; r < 4; ++r) {
      double acc = 0;
      for (int c = 0; c < 4; ++c) acc += double(mk[c * 4 + r]) * double(v[i].s[c]);
      want[4 * i + static_cast<std::size_t>(r)] = acc;
    }
  }
  const double host = ms_since(t0);
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (int r = 0; r < 4; ++r) {
      const double w = want[4 * i + static_cast<std::size_t>(r)];
      err = std::max(err, std::fabs(double(got[i].s[r]) - w));
      scale = std::max(scale, std::fabs(w));
    }
  const double rel = err / std::max(scale, 1.0);
  char check[96];
  std::snprintf(check, sizeof check, "%zu matrices, relative error %.1e", objects, rel);
  return {"vertices", std::to_string(n) + " vertices", ms(e), host, check, rel <= 1e-6};
}

namespace {

using point = std::array<double, 2>;

double distance2(const point& a, const point& b) {
  return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]);
}

// The usual k-means on the host in double precision, as the kernel does it: nearest centre (the
// first on ties), then each centre moves to the mean of its points; stops when no point changes
// centre or after max_iterations. Returns the iterations run.
int host_kmeans(const std::vector<cl_float2>& pts, std::vector<point>& centres,
                std::vector<std::uint32_t>& assign, int max_iterations) {
  const std::size_t k = centres.size();
  assign.assign(pts.size(), std::numeric_limits<std::uint32_t>::max());
  for (int it = 1; it <= max_iterations; ++it) {
    std::vector<point> sum(k, point{0, 0});
    std::vector<double> count(k, 0);
    std::size_t changes = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const point p{pts[i].s[0], pts[i].s[1]};
      std::uint32_t best = 0;
      for (std::uint32_t c = 1; c < k; ++c)
        if (distance2(p, centres[c]) < distance2(p, centres[best])) best = c;
      changes += assign[i] != best;
      assign[i] = best;
      sum[best][0] += p[0];
      sum[best][1] += p[1];
      count[best] += 1;
    }
    for (std::size_t c = 0; c < k; ++c)
      if (count[c] > 0) centres[c] = {sum[c][0] / count[c], sum[c][1] / count[c]};
    if (changes == 0) return it;
  }
  return max_iterations;
}

constexpr std::size_t kmeans_k = 8;
constexpr int kmeans_max_iterations = 30;
constexpr double kmeans_spread = 0.5;  // standard deviation of the points around their centre

/// The true centres, on a circle of radius 6.
std::vector<point> true_centres() {
  const double pi = std::acos(-1.0);
  const std::size_t k = kmeans_k;
  std::vector<point> truth(k);
  for (std::size_t c = 0; c < k; ++c)
    truth[c] = {6 * std::cos(2 * pi * double(c) / k), 6 * std::sin(2 * pi * double(c) / k)};
  return truth;
}

/// `n` points, point i drawn around centre i % k.
std::vector<cl_float2> cluster_points(const std::vector<point>& truth, std::size_t n,
                                      unsigned seed) {
  const std::size_t k = truth.size();
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, static_cast<float>(kmeans_spread));
  std::vector<cl_float2> pts(n);
  for (std::size_t i = 0; i < n; ++i)
    pts[i] = {{static_cast<float>(truth[i % k][0]) + noise(rng),
               static_cast<float>(truth[i % k][1]) + noise(rng)}};
  return pts;
}

/// Initial centres: farthest-first traversal of the first 1000 points, from point 0.
std::vector<point> farthest_first(const std::vector<cl_float2>& pts, std::size_t k) {
  std::vector<point> init{{pts[0].s[0], pts[0].s[1]}};
  while (init.size() < k) {
    point far{};
    double far_d = -1;
    for (std::size_t i = 0; i < std::min<std::size_t>(pts.size(), 1000); ++i) {
      const point p{pts[i].s[0], pts[i].s[1]};
      double d = std::numeric_limits<double>::infinity();
      for (const point& c : init) d = std::min(d, distance2(p, c));
      if (d > far_d) far_d = d, far = p;
    }
    init.push_back(far);
  }
  return init;
}

/// Adds the work-groups' partials (x sum, y sum, count, changes per centre) and moves each
/// centre with points to their mean; returns the number of points that changed centre.
double move_centres(const std::vector<cl_float4>& parts, std::size_t groups,
                    std::vector<point>& centres) {
  const std::size_t k = centres.size();
  std::vector<std::array<double, 4>> sum(k, {0, 0, 0, 0});
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t c = 0; c < k; ++c)
      for (int j = 0; j < 4; ++j) sum[c][static_cast<std::size_t>(j)] += parts[g * k + c].s[j];
  double changes = 0;
  for (std::size_t c = 0; c < k; ++c) {
    if (sum[c][2] > 0) centres[c] = {sum[c][0] / sum[c][2], sum[c][1] / sum[c][2]};
    changes += sum[c][3];
  }
  return changes;
}

struct device_clusters {
  std::vector<point> centres;
  std::vector<cl_uint> assign;
  double device_ms = 0;  // the kernels' time, all iterations
  int iterations = 0;
};

/// The device: the assignment kernel, then the host adds its partial sums into new centres.
device_clusters device_kmeans(const setup& s, const std::vector<cl_float2>& pts,
                              const std::vector<point>& init) {
  const std::size_t n = pts.size(), k = init.size();
  const std::size_t groups = std::min<std::size_t>(n, 4096);
  auto pb = anycl::buffer::from(s.ctx, pts, anycl::memory_access::read_only);
  anycl::buffer cb(s.ctx, k * sizeof(cl_float2));
  anycl::buffer ab(s.ctx, n * sizeof(cl_uint));
  anycl::buffer partial(s.ctx, groups * k * sizeof(cl_float4));
  const cl_uint none = std::numeric_limits<cl_uint>::max();
  s.queue.fill(anycl::buffer_view<cl_uint>(ab), none);
  auto assign_step =
      s.prog.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float2>,
                      anycl::buffer_view<const cl_float2>, anycl::buffer_view<cl_uint>,
                      anycl::buffer_view<cl_float4>>("anycl_kmeans_assign");
  device_clusters d;
  d.centres = init;
  for (int it = 1; it <= kmeans_max_iterations; ++it) {
    std::vector<cl_float2> cf(k);
    for (std::size_t c = 0; c < k; ++c)
      cf[c] = {{static_cast<float>(d.centres[c][0]), static_cast<float>(d.centres[c][1])}};
    s.queue.write(anycl::buffer_view<cl_float2>(cb), cf);
    anycl::event e = assign_step(s.queue, anycl::nd_range{groups}, static_cast<cl_uint>(n),
                                 static_cast<cl_uint>(k), pb, cb, ab, partial);
    const std::vector<cl_float4> parts = s.queue.read(anycl::buffer_view<cl_float4>(partial), {e});
    d.device_ms += ms(e);
    const double changes = move_centres(parts, groups, d.centres);
    d.iterations = it;
    if (changes == 0) break;
  }
  d.assign = s.queue.read(anycl::buffer_view<cl_uint>(ab));
  return d;
}

/// The largest distance between a found centre and the nearest true one, and between a true
/// centre and the nearest found one (both ways, so that two centres found near one true centre
/// fail the check).
double truth_error(const std::vector<point>& truth, const std::vector<point>& centres) {
  const std::size_t k = truth.size();
  double truth_err = 0;
  for (std::size_t c = 0; c < k; ++c) {
    double to_truth = std::numeric_limits<double>::infinity(), to_found = to_truth;
    for (std::size_t j = 0; j < k; ++j) {
      to_truth = std::min(to_truth, std::sqrt(distance2(truth[j], centres[c])));
      to_found = std::min(to_found, std::sqrt(distance2(truth[c], centres[j])));
    }
    truth_err = std::max({truth_err, to_truth, to_found});
  }
  return truth_err;
}

}  // namespace

row kmeans(const setup& s) {
  const std::size_t n = s.n, k = kmeans_k;
  const std::vector<point> truth = true_centres();
  const std::vector<cl_float2> pts = cluster_points(truth, n, s.seed + 1);
  const std::vector<point> init = farthest_first(pts, k);
  const device_clusters d = device_kmeans(s, pts, init);

  const auto t0 = std::chrono::steady_clock::now();
  std::vector<point> host_centres = init;
  std::vector<std::uint32_t> host_assign;
  host_kmeans(pts, host_centres, host_assign, kmeans_max_iterations);
  const double host = ms_since(t0);

  // Device against host: the same centres (within float rounding) and the same assignments but
  // for points so near a boundary that rounding decides; host centres against the truth: within
  // six standard errors of a cluster's mean, plus a little for the clusters' overlap.
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) differ += d.assign[i] != host_assign[i];
  double centre_err = 0;
  for (std::size_t c = 0; c < k; ++c)
    centre_err = std::max(centre_err, std::sqrt(distance2(d.centres[c], host_centres[c])));
  const double truth_err = truth_error(truth, d.centres);
  const double truth_tol = 6 * kmeans_spread / std::sqrt(double(n) / k) + 0.01;
  const bool ok =
      centre_err <= 1e-4 && double(differ) <= 1e-4 * double(n) + 1 && truth_err <= truth_tol;
  char check[160];
  std::snprintf(check, sizeof check,
                "%d iterations, %zu assignments differ, centres %.1e from host, %.3f from truth",
                d.iterations, differ, centre_err, truth_err);
  return {"kmeans", std::to_string(n) + " points, k=8", d.device_ms, host, check, ok};
}

}  // namespace demo
