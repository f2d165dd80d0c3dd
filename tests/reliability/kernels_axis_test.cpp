// SPDX-License-Identifier: Apache-2.0
// The reductions along one axis (reduce.cl's anycl_{sum,min,max}_{axis,axis_final}, and the axis
// kernels of reduce.cl and argreduce.cl over expressions) at sizes around a work-group boundary,
// against the host. Under Oclgrind they run without --uninitialized
// (CTest oclgrind-kernels-axis): Oclgrind 21.10's uninitialised-value check crashes (SIGSEGV in
// oclgrind::Uninitialized::instructionExecuted) while simulating them.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "anycl/reduce.hpp"
#include "reliability/kernels_support.hpp"
#include "support/device_fixture.hpp"

using anycl::array;
using namespace anycl::test::kernels;

TEMPLATE_TEST_CASE("kernels: reduce.cl reductions along an axis equal the host", "[kernels_axis]",
                   float, double, std::int32_t, std::uint32_t, std::int64_t, std::uint8_t) {
  using T = TestType;
  using S = anycl::sum_type_t<T>;
  anycl::test::env e;
  if (!supported<T>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<T> h = values<T>(n);
    auto a = array<T>::from_host(e.queue, h);
    const anycl::shape s = shape_2d(n);
    auto m = a.reshape(s);
    std::vector<S> rows(s[0], 0), cols(s[1], 0);
    std::vector<T> row_min(s[0]), col_max(s[1]);
    for (std::size_t r = 0; r < s[0]; ++r)
      for (std::size_t c = 0; c < s[1]; ++c) {
        const T x = h[r * s[1] + c];
        rows[r] = static_cast<S>(rows[r] + static_cast<S>(x));
        cols[c] = static_cast<S>(cols[c] + static_cast<S>(x));
        row_min[r] = c == 0 ? x : std::min(row_min[r], x);
        col_max[c] = r == 0 ? x : std::max(col_max[c], x);
      }
    CHECK(anycl::sum(m, anycl::axis{1}).to_host() == rows);
    CHECK(anycl::sum(m, anycl::axis{0}).to_host() == cols);
    CHECK(anycl::min(m, anycl::axis{1}).to_host() == row_min);
    CHECK(anycl::max(m, anycl::axis{0}).to_host() == col_max);
  }
}

TEST_CASE("kernels: reduce.cl and argreduce.cl along an axis of expressions equal the host",
          "[kernels_axis]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> h = values<float>(n);
    const anycl::shape s = shape_2d(n);
    auto m = array<float>::from_host(e.queue, h, s);
    std::vector<float> rows(s[0], 0);
    std::vector<std::uint64_t> positive(s[0], 0), col_max(s[1], 0);
    for (std::size_t r = 0; r < s[0]; ++r)
      for (std::size_t c = 0; c < s[1]; ++c) {
        const float x = h[r * s[1] + c];
        rows[r] += x * 2.0f;  // exact: small integers
        positive[r] += x > 0.0f;
        if (x > h[col_max[c] * s[1] + c]) col_max[c] = r;
      }
    CHECK(anycl::sum(m * 2.0f, anycl::axis{1}).to_host() == rows);
    CHECK(anycl::count_if(m > 0.0f, anycl::axis{1}).to_host() == positive);
    CHECK(anycl::argmax(m, anycl::axis{0}).to_host() == col_max);
  }
}
