// SPDX-License-Identifier: Apache-2.0
// Reductions of element-wise expressions, fused into the reduction's kernel: sum(x * y),
// max(abs(a - b)), min, count_if(x > 0.5f), any, all, argmin, argmax, mean, var, std and norm, on
// contiguous, strided, transposed and broadcast operands at sizes 0, 1, a prime and 2^20 + 3,
// against host loops in double (and against dot and the string form of count_if, a second
// implementation).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using anycl::test::values;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

bool near(double got, double want, double tolerance) { return std::fabs(got - want) <= tolerance; }

}  // namespace

TEST_CASE("fused: sum, min, max, count_if, any and all of expressions against the host",
          "[fused]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto hx = values(n, 1), hy = values(n, 2);
    auto x = anycl::array<float>::from_host(e.queue, hx);
    auto y = anycl::array<float>::from_host(e.queue, hy);
    double dot = 0, mag = 0, lo = INFINITY, hi = 0;
    std::uint64_t above = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const float p = hx[i] * hy[i];  // the expression's product, rounded to float
      dot += p;
      mag += std::fabs(p);
      lo = std::min(lo, static_cast<double>(hx[i] - hy[i]));
      hi = std::max(hi, static_cast<double>(std::fabs(hx[i] - hy[i])));
      above += hx[i] > 0.5f;
    }
    const float s = anycl::sum(x * y);
    CHECK(std::fabs(s - dot) <= 1e-6 * mag + 1e-30);
    CHECK(std::fabs(s - anycl::dot(x, y)) <= 1e-6 * mag + 1e-30);
    CHECK(anycl::count_if(x > 0.5f) == above);
    CHECK(anycl::count_if(x > 0.5f) == anycl::count_if(x, "x > 0.5f"));
    CHECK(anycl::any(x > 0.5f) == (above > 0));
    CHECK(anycl::all(x < 2.0f) == true);
    CHECK(anycl::all(x > 0.5f) == (above == n));
    if (n == 0) {
      REQUIRE_THROWS_WHAT(anycl::max(anycl::abs(x - y)), std::invalid_argument,
                          Contains("anycl::max: the array is empty"));
      continue;
    }
    CHECK(anycl::max(anycl::abs(x - y)) == static_cast<float>(hi));
    CHECK(anycl::min(x - y) == static_cast<float>(lo));
  }
}

TEST_CASE("fused: reductions of expressions over strided, transposed and broadcast operands",
          "[fused]") {
  anycl::test::env e;
  for (std::size_t n : {std::size_t{1}, std::size_t{7919}, (std::size_t{1} << 19) + 3}) {
    INFO("n = " << n);
    const anycl::test::strided_operands ops = anycl::test::make_strided_operands(e.queue, 2, n);
    const anycl::array<float>&mt = ops.mt, &row = ops.row;
    double sum = 0, mag = 0;
    float hi = -INFINITY;
    std::uint64_t positive = 0;
    for (const float d : ops.diff) {
      sum += d;
      mag += std::fabs(d);
      hi = std::max(hi, d);
      positive += d > 0.0f;
    }
    CHECK(std::fabs(anycl::sum(mt - row) - sum) <= 1e-6 * mag);
    CHECK(anycl::max(mt - row) == hi);
    CHECK(anycl::count_if(mt - row > 0.0f) == positive);
  }
}

TEST_CASE("fused: integer expressions sum exactly in 64 bits", "[fused]") {
  anycl::test::env e;
  const std::size_t n = (std::size_t{1} << 20) + 3;
  std::vector<std::int32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::int32_t>(i % 50000) - 20000;
  auto a = anycl::array<std::int32_t>::from_host(e.queue, h);
  std::int64_t want = 0;
  std::int32_t lo = 0;
  for (std::int32_t v : h) {
    want += static_cast<std::int64_t>(v) * 3 + 1;
    lo = std::min(lo, v * 3 + 1);
  }
  CHECK(anycl::sum(a * 3 + 1) == want);
  CHECK(anycl::min(a * 3 + 1) == lo);
  // Operands of different contexts or shapes that do not broadcast are refused as in assignment.
  auto b = anycl::array<std::int32_t>::zeros(e.queue, 3);
  REQUIRE_THROWS_WHAT(anycl::sum(a + b), std::invalid_argument, Contains("do not broadcast"));
}

TEST_CASE("fused: mean, var, std and norm of arrays and expressions against the host", "[fused]") {
  anycl::test::env e;
  for (std::size_t n : {std::size_t{1}, std::size_t{7919}, (std::size_t{1} << 20) + 3}) {
    INFO("n = " << n);
    const auto hx = values(n, 5), hy = values(n, 6);
    auto x = anycl::array<float>::from_host(e.queue, hx);
    auto y = anycl::array<float>::from_host(e.queue, hy);
    double sx = 0, sxy = 0, sq = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sx += hx[i];
      sxy += static_cast<float>(hx[i] * hy[i]);
      sq += static_cast<double>(hx[i]) * hx[i];
    }
    const double m = sx / static_cast<double>(n), mxy = sxy / static_cast<double>(n);
    double dev = 0;
    for (float v : hx) dev += (v - m) * (v - m);
    CHECK(near(anycl::mean(x), m, 1e-6));
    CHECK(near(anycl::mean(x * y), mxy, 1e-6));
    const double v = dev / static_cast<double>(n);
    CHECK(near(anycl::var(x), v, 1e-5 * v + 1e-7));
    CHECK(near(anycl::std(x), std::sqrt(v), 1e-5 * std::sqrt(v) + 1e-7));
    CHECK(near(anycl::norm(x), std::sqrt(sq), 1e-6 * std::sqrt(sq)));
    if (n > 1) {
      const double v1 = dev / static_cast<double>(n - 1);
      CHECK(near(anycl::var(x, 1), v1, 1e-5 * v1));
      // The variance of an expression: x + 3 has x's.
      CHECK(near(anycl::var(x + 3.0f), anycl::var(x), 1e-4 * v));
    }
  }
  auto empty = anycl::array<float>::zeros(e.queue, 0);
  CHECK(std::isnan(anycl::mean(empty)));
  CHECK(anycl::norm(empty) == 0.0f);
  REQUIRE_THROWS_WHAT(anycl::var(empty), std::invalid_argument,
                      Contains("anycl::var: 0 elements with ddof 0"));
  REQUIRE_THROWS_WHAT(anycl::std(anycl::array<float>::zeros(e.queue, 1), 1), std::invalid_argument,
                      Contains("1 element with ddof 1 (the divisor n - ddof must be positive)"));
  // The mean of integers is a double from their exact 64-bit sum.
  auto big = anycl::array<std::int64_t>::full(e.queue, 3, std::int64_t{1} << 40);
  CHECK(anycl::mean(big) == 1099511627776.0);
  CHECK(anycl::mean(anycl::array<std::int32_t>::arange(e.queue, 4)) == 1.5);
}

TEMPLATE_TEST_CASE("fused: argmin and argmax give the first extreme index, NaN first", "[fused]",
                   float, std::int16_t, std::uint32_t) {
  anycl::test::env e;
  using T = TestType;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    // Few distinct values, so that ties are common: the first index must win.
    std::vector<T> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<T>((i * 7919u + 13u) % 97u);
    auto a = anycl::array<T>::from_host(e.queue, h);
    if (n == 0) {
      REQUIRE_THROWS_WHAT(anycl::argmax(a), std::invalid_argument,
                          Contains("anycl::argmax: the array is empty"));
      REQUIRE_THROWS_WHAT(anycl::argmin(a), std::invalid_argument,
                          Contains("anycl::argmin: the array is empty"));
      continue;
    }
    const auto lo = std::min_element(h.begin(), h.end()) - h.begin();
    const auto hi = std::max_element(h.begin(), h.end()) - h.begin();
    CHECK(anycl::argmin(a) == static_cast<std::uint64_t>(lo));
    CHECK(anycl::argmax(a) == static_cast<std::uint64_t>(hi));
    // Of an expression: the largest of 96 - h is the smallest of h.
    CHECK(anycl::argmax(T(96) - a) == static_cast<std::uint64_t>(lo));
  }
  if constexpr (std::is_floating_point_v<T>) {
    std::vector<T> h = {3, 1, NAN, 5, NAN, 1};
    auto a = anycl::array<T>::from_host(e.queue, h);
    CHECK(anycl::argmax(a) == 2);  // the first NaN, as numpy
    CHECK(anycl::argmin(a) == 2);
    // Long enough for the 16-lane CPU kernel: NaNs in two lanes and a larger value before both.
    std::vector<T> l(1000, T(1));
    l[100] = T(1e9);
    l[517] = NAN;
    l[300] = NAN;
    auto la = anycl::array<T>::from_host(e.queue, l);
    CHECK(anycl::argmax(la) == 300);
    CHECK(anycl::argmin(la) == 300);
    l[300] = l[517] = T(1);
    la.set(l);
    CHECK(anycl::argmax(la) == 100);
    CHECK(anycl::argmin(la) == 0);
    // A transposed view: indices are row-major in the view's own order.
    auto m = anycl::array<T>::from_host(e.queue, std::vector<T>{4, 9, 2, 9, 0, 7}, {2, 3});
    // The view is (4, 9), (9, 0), (2, 7): 4, 9, 9, 0, 2, 7 in its order; the first 9 is at 1.
    CHECK(anycl::argmax(m.transpose()) == 1);
    CHECK(anycl::argmin(m.transpose()) == 3);
  }
}
