// SPDX-License-Identifier: Apache-2.0
// Reductions: the built-in ones, and reductions with a custom operator written in OpenCL C.
#include <anycl/anycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

int main() try {
  auto q = anycl::command_queue(anycl::select_device());
  const std::size_t n = 1 << 20;
  std::vector<float> hx(n), hy(n);
  for (std::size_t i = 0; i < n; ++i) {
    hx[i] = static_cast<float>((i * 7919) % 1000) / 10.0f;  // 0 ... 99.9, in a scrambled order
    hy[i] = hx[i] + ((i % 3 == 0) ? 0.25f : -0.125f);
  }
  auto x = anycl::array<float>::from_host(q, hx);
  auto y = anycl::array<float>::from_host(q, hy);

  // Built-in reductions: float sums are compensated; each call returns the value to the host.
  const float sum = anycl::sum(x), lo = anycl::min(x), hi = anycl::max(x);
  const std::uint64_t above = anycl::count_if(x, "x >= 50.0f");  // a predicate in OpenCL C

  // A custom operator: the largest |x - y|. `neutral` is the identity of the operator (in a, b),
  // `map` gives element i from the arguments; the operator must be associative and commutative.
  anycl::reduction_kernel<float> max_abs_diff(q.context(), "0.0f", "fmax(a, b)",
                                              "fabs(x[i] - y[i])",
                                              "global const float* x, global const float* y");
  const float linf = max_abs_diff(q, x, y);

  // Scalars are arguments too, and a preamble may define helpers: count elements in [a, b).
  anycl::reduction_kernel<std::int64_t> in_range(
      q.context(), "0", "a + b", "in_range(x[i], lo, hi)",
      "global const float* x, float lo, float hi",
      "long in_range(float v, float lo, float hi) { return v >= lo && v < hi; }");
  const std::int64_t between = in_range(q, x, 10.0f, 20.0f);

  // The same on the host.
  double hsum = 0;
  std::uint64_t habove = 0;
  std::int64_t hbetween = 0;
  float hlinf = 0;
  for (std::size_t i = 0; i < n; ++i) {
    hsum += hx[i];
    habove += hx[i] >= 50.0f;
    hbetween += hx[i] >= 10.0f && hx[i] < 20.0f;
    hlinf = std::max(hlinf, std::fabs(hx[i] - hy[i]));
  }
  const auto [hlo, hhi] = std::minmax_element(hx.begin(), hx.end());
  const bool ok = std::fabs(sum - hsum) <= 1e-6 * hsum && lo == *hlo && hi == *hhi &&
                  above == habove && linf == hlinf && between == hbetween;
  std::printf("sum %.1f (host %.1f), min %g, max %g, %llu >= 50\n", sum, hsum, lo, hi,
              static_cast<unsigned long long>(above));
  std::printf("custom: max |x - y| = %g (host %g), %lld in [10, 20) (host %lld)\n", linf, hlinf,
              static_cast<long long>(between), static_cast<long long>(hbetween));
  if (!ok) {
    std::fprintf(stderr, "a reduction differs from the host computation\n");
    return 1;
  }
  std::printf("reductions: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
