// SPDX-License-Identifier: Apache-2.0
// Reductions of element-wise expressions, fused into the reduction's kernel: sum(x * y),
// max(abs(a - b)), min, count_if(x > 0.5f), any and all, on contiguous, strided, transposed and
// broadcast operands at sizes 0, 1, a prime and 2^20 + 3, against host loops in double (and
// against dot and the string form of count_if, a second implementation).
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

// Values in [-1, 1) from a fixed sequence, so a failure repeats.
std::vector<float> values(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::uint32_t s = 2654435761u * (seed + 1);
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
  return v;
}

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
    const std::size_t rows = 2;
    const auto hm = values(rows * n, 3), hr = values(2 * n, 4);
    // The matrix as the transposed view of its (n, rows) transpose, the row every other element
    // of an array twice as long, broadcast over the rows.
    auto mt = anycl::array<float>::from_host(e.queue, hm, {n, rows}).transpose();
    auto row = anycl::array<float>::from_host(e.queue, hr).slice(0, 0, 2 * n, 2);
    const auto vm = host_gather(hm, mt);
    const auto vr = host_gather(hr, anycl::broadcast_to(row, {rows, n}));
    double sum = 0, mag = 0;
    float hi = -INFINITY;
    std::uint64_t positive = 0;
    for (std::size_t i = 0; i < vm.size(); ++i) {
      const float d = vm[i] - vr[i];
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
