// SPDX-License-Identifier: Apache-2.0
// Reductions of expressions along one axis, fused into the reduction's kernel: sum, min, max,
// count_if, any and all, their keepdims forms, and mean, var, std and norm along an axis, on
// contiguous, strided, transposed and broadcast operands, against host loops over the same lines.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using anycl::test::values;
using Catch::Matchers::Contains;

namespace {

// The host reduction of row-major values `v` of shape `s` along `axis`: element o of the result
// folds f over the line of output o, starting from `init`, in the order of the line.
template <class R, class V>
std::vector<R> host_along(const std::vector<V>& v, const anycl::shape& s, unsigned axis, R init,
                          const std::function<R(R, V)>& f) {
  std::size_t inner = 1;
  for (unsigned i = axis + 1; i < s.dims(); ++i) inner *= s[i];
  const std::size_t len = s[axis], m = len == 0 ? s.size() : s.size() / len;
  std::vector<R> out(len == 0 ? 0 : m, init);
  for (std::size_t o = 0; o < out.size(); ++o) {
    const std::size_t base = (o / inner) * len * inner + o % inner;
    for (std::size_t j = 0; j < len; ++j) out[o] = f(out[o], v[base + j * inner]);
  }
  return out;
}

// The shape of `s` without `axis` ((1) for one axis), as the reductions along it give.
anycl::shape without(const anycl::shape& s, unsigned axis) {
  std::vector<std::size_t> e;
  for (unsigned i = 0; i < s.dims(); ++i)
    if (i != axis) e.push_back(s[i]);
  if (e.empty()) e.push_back(1);
  return anycl::shape(e);
}

// Each line's sum of |terms| in double, the scale of a float sum's rounding error.
std::vector<double> magnitudes(const std::vector<float>& t, const anycl::shape& s, unsigned axis) {
  return host_along<double, float>(t, s, axis, 0.0,
                                   [](double a, float b) { return a + std::fabs(b); });
}

}  // namespace

TEST_CASE("fused_axis: sum, min, max, count_if, any and all of expressions along each axis",
          "[fused_axis]") {
  anycl::test::env e;
  const std::vector<anycl::shape> shapes = {
      {1, 1}, {3, 0}, {0, 4}, {13, 7919}, {1, (std::size_t{1} << 20) + 3}, {4, 5, 6}, {7919}};
  for (const anycl::shape& s : shapes) {
    const auto hx = values(s.size(), 1), hy = values(s.size(), 2);
    auto x = anycl::array<float>::from_host(e.queue, hx, s);
    auto y = anycl::array<float>::from_host(e.queue, hy, s);
    std::vector<float> prod(s.size()), diff(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
      prod[i] = hx[i] * hy[i];  // the expression's products, rounded to float
      diff[i] = hx[i] - hy[i];
    }
    for (unsigned ax = 0; ax < s.dims(); ++ax) {
      INFO("shape " << s.str() << ", axis " << ax);
      const anycl::axis a{ax};
      const auto got = anycl::sum(x * y, a).to_host();
      REQUIRE(anycl::sum(x * y, a).shape() == without(s, ax));
      const auto want = host_along<double, float>(prod, s, ax, 0.0, std::plus<double>());
      const auto mag = magnitudes(prod, s, ax);
      REQUIRE(got.size() == (s[ax] == 0 ? without(s, ax).size() : want.size()));
      for (std::size_t o = 0; o < want.size(); ++o)
        CHECK(std::fabs(got[o] - want[o]) <= 1e-6 * mag[o] + 1e-30);
      const auto above = host_along<std::uint64_t, float>(
          hx, s, ax, 0, [](std::uint64_t c, float v) { return c + (v > 0.5f); });
      const auto wide = host_along<std::int32_t, float>(
          hx, s, ax, 0, [](std::int32_t c, float v) { return c | (v > 0.9f ? 1 : 0); });
      const auto inside = host_along<std::int32_t, float>(
          hx, s, ax, 1, [](std::int32_t c, float v) { return c & (v > -0.9f ? 1 : 0); });
      if (s[ax] == 0) {
        // Lines of no values: counts and any 0, all 1, as numpy; no minimum or maximum.
        const std::size_t m = without(s, ax).size();
        CHECK(anycl::sum(x * y, a).to_host() == std::vector<float>(m, 0.0f));
        CHECK(anycl::count_if(x > 0.5f, a).to_host() == std::vector<std::uint64_t>(m, 0));
        CHECK(anycl::any(x > 0.9f, a).to_host() == std::vector<std::int32_t>(m, 0));
        CHECK(anycl::all(x > -0.9f, a).to_host() == std::vector<std::int32_t>(m, 1));
        if (m > 0)
          REQUIRE_THROWS_WHAT(anycl::max(anycl::abs(x - y), a), std::invalid_argument,
                              Contains("anycl::max: axis " + std::to_string(ax) + " has extent 0"));
        continue;
      }
      CHECK(anycl::count_if(x > 0.5f, a).to_host() == above);
      CHECK(anycl::any(x > 0.9f, a).to_host() == wide);
      CHECK(anycl::all(x > -0.9f, a).to_host() == inside);
      const auto hi = host_along<float, float>(
          diff, s, ax, 0.0f, [](float c, float v) { return std::max(c, std::fabs(v)); });
      const auto lo = host_along<float, float>(diff, s, ax, INFINITY,
                                               [](float c, float v) { return std::min(c, v); });
      CHECK(anycl::max(anycl::abs(x - y), a).to_host() == hi);
      CHECK(anycl::min(x - y, a).to_host() == lo);
    }
  }
}

TEST_CASE("fused_axis: strided, transposed and broadcast operands, and arrays", "[fused_axis]") {
  anycl::test::env e;
  for (std::size_t n : {std::size_t{1}, std::size_t{7919}, (std::size_t{1} << 19) + 3}) {
    INFO("n = " << n);
    const std::size_t rows = 3;
    const anycl::test::strided_operands ops = anycl::test::make_strided_operands(e.queue, rows, n);
    const anycl::array<float>&mt = ops.mt, &row = ops.row;
    const anycl::shape s{rows, n};
    const std::vector<float>& d = ops.diff;
    for (unsigned ax = 0; ax < 2; ++ax) {
      INFO("axis " << ax);
      const anycl::axis a{ax};
      const auto want = host_along<double, float>(d, s, ax, 0.0, std::plus<double>());
      const auto mag = magnitudes(d, s, ax);
      const auto got = anycl::sum(mt - row, a).to_host();
      REQUIRE(got.size() == want.size());
      for (std::size_t o = 0; o < want.size(); ++o)
        CHECK(std::fabs(got[o] - want[o]) <= 1e-6 * mag[o] + 1e-30);
      CHECK(anycl::max(mt - row, a).to_host() ==
            host_along<float, float>(d, s, ax, -INFINITY,
                                     [](float c, float v) { return std::max(c, v); }));
      CHECK(anycl::count_if(mt - row > 0.0f, a).to_host() ==
            host_along<std::uint64_t, float>(
                d, s, ax, 0, [](std::uint64_t c, float v) { return c + (v > 0.0f); }));
      // Of an array: count_if, any and all through the same kernels, and sum along an axis of
      // an array matching the expression form's.
      CHECK(anycl::count_if(mt, a).to_host() ==
            host_along<std::uint64_t, float>(
                ops.m, s, ax, 0, [](std::uint64_t c, float v) { return c + (v != 0.0f); }));
      const auto sa = anycl::sum(mt, a).to_host(), se = anycl::sum(mt + 0.0f, a).to_host();
      for (std::size_t o = 0; o < sa.size(); ++o) CHECK(std::fabs(sa[o] - se[o]) <= 1e-5f);
    }
  }
}

TEST_CASE("fused_axis: integer expressions along an axis sum exactly in 64 bits", "[fused_axis]") {
  anycl::test::env e;
  const anycl::shape s{3, (std::size_t{1} << 20) + 3};
  std::vector<std::int32_t> h(s.size());
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::int32_t>(i % 50000) - 20000;
  auto a = anycl::array<std::int32_t>::from_host(e.queue, h, s);
  for (unsigned ax = 0; ax < 2; ++ax) {
    INFO("axis " << ax);
    const auto want = host_along<std::int64_t, std::int32_t>(
        h, s, ax, 0, [](std::int64_t c, std::int32_t v) { return c + std::int64_t{v} * 3 + 1; });
    CHECK(anycl::sum(a * 3 + 1, anycl::axis{ax}).to_host() == want);
    // The mean of integers along an axis is a double from the exact sums.
    const auto m = anycl::mean(a, anycl::axis{ax}).to_host();
    const auto plain = host_along<std::int64_t, std::int32_t>(
        h, s, ax, 0, [](std::int64_t c, std::int32_t v) { return c + v; });
    for (std::size_t o = 0; o < m.size(); ++o)
      CHECK(m[o] == static_cast<double>(plain[o]) / static_cast<double>(s[ax]));
  }
}

TEST_CASE("fused_axis: keepdims results broadcast back; mean, var, std and norm along an axis",
          "[fused_axis]") {
  anycl::test::env e;
  for (const anycl::shape& s :
       {anycl::shape{1, 1}, anycl::shape{13, 7919}, anycl::shape{4, 5, 6}}) {
    const auto hx = values(s.size(), 5);
    auto x = anycl::array<float>::from_host(e.queue, hx, s);
    for (unsigned ax = 0; ax < s.dims(); ++ax) {
      INFO("shape " << s.str() << ", axis " << ax);
      const anycl::axis a{ax};
      const double n = static_cast<double>(s[ax]);
      const auto sums = host_along<double, float>(hx, s, ax, 0.0, std::plus<double>());
      const auto squares = host_along<double, float>(
          hx, s, ax, 0.0, [](double c, float v) { return c + static_cast<double>(v) * v; });
      std::vector<std::size_t> kept(s.extents().begin(), s.extents().begin() + s.dims());
      kept[ax] = 1;
      const anycl::array<float> m = anycl::mean(x, a, anycl::keepdims);
      REQUIRE(m.shape() == anycl::shape(kept));
      REQUIRE(anycl::sum(x * 2.0f, a, anycl::keepdims).shape() == anycl::shape(kept));
      REQUIRE(anycl::count_if(x > 0.0f, a, anycl::keepdims).shape() == anycl::shape(kept));
      // The deviations from each line's mean: x - mean(x, axis, keepdims) broadcasts.
      const anycl::array<float> centred = x - m;
      const auto hc = centred.to_host();
      std::vector<double> line_mean(sums.size());
      for (std::size_t o = 0; o < sums.size(); ++o) line_mean[o] = sums[o] / n;
      std::vector<float> want_c(hx.size());
      std::size_t inner = 1;
      for (unsigned i = ax + 1; i < s.dims(); ++i) inner *= s[i];
      for (std::size_t k = 0; k < hx.size(); ++k) {
        const std::size_t o = (k / (inner * s[ax])) * inner + k % inner;
        want_c[k] = static_cast<float>(hx[k] - line_mean[o]);
        CHECK(std::fabs(hc[k] - want_c[k]) <= 1e-6f);
      }
      const auto dev = host_along<double, float>(
          want_c, s, ax, 0.0, [](double c, float v) { return c + static_cast<double>(v) * v; });
      const auto got_m = anycl::mean(x, a).to_host();
      const auto got_v = anycl::var(x, a).to_host();
      const auto got_sd = anycl::std(x, a, anycl::keepdims).to_host();
      const auto got_n = anycl::norm(x, a).to_host();
      REQUIRE(anycl::norm(x, a, anycl::keepdims).shape() == anycl::shape(kept));
      for (std::size_t o = 0; o < sums.size(); ++o) {
        CHECK(std::fabs(got_m[o] - line_mean[o]) <= 1e-6);
        const double v = dev[o] / n;
        CHECK(std::fabs(got_v[o] - v) <= 1e-5 * v + 1e-7);
        CHECK(std::fabs(got_sd[o] - std::sqrt(v)) <= 1e-5 * std::sqrt(v) + 1e-6);
        CHECK(std::fabs(got_n[o] - std::sqrt(squares[o])) <= 1e-6 * std::sqrt(squares[o]));
      }
      if (s[ax] > 1) {
        const auto v1 = anycl::var(x, a, anycl::keepdims, 1).to_host();
        for (std::size_t o = 0; o < sums.size(); ++o)
          CHECK(std::fabs(v1[o] - dev[o] / (n - 1)) <= 1e-5 * dev[o] / (n - 1) + 1e-7);
      } else {
        REQUIRE_THROWS_WHAT(
            anycl::var(x, a, 1), std::invalid_argument,
            Contains("anycl::var: axis " + std::to_string(ax) + " has 1 element with ddof 1"));
      }
    }
  }
  // Along an axis of extent 0: the means are NaN, the norms 0.
  auto empty = anycl::array<float>::zeros(e.queue, {2, 0});
  const auto m = anycl::mean(empty, anycl::axis{1}).to_host();
  REQUIRE(m.size() == 2);
  CHECK((std::isnan(m[0]) && std::isnan(m[1])));
  CHECK(anycl::norm(empty, anycl::axis{1}).to_host() == std::vector<float>{0.0f, 0.0f});
}

TEST_CASE("fused_axis: a bad axis names the axis and the shape", "[fused_axis]") {
  anycl::test::env e;
  auto x = anycl::array<float>::zeros(e.queue, {2, 3});
  REQUIRE_THROWS_WHAT(anycl::sum(x * x, anycl::axis{2}), std::invalid_argument,
                      Contains("anycl::sum: axis 2 of an operand of shape (2, 3), which has 2 "
                               "dimensions"));
  REQUIRE_THROWS_WHAT(anycl::count_if(x > 1.0f, anycl::axis{5}, anycl::keepdims),
                      std::invalid_argument, Contains("anycl::count_if: axis 5"));
  REQUIRE_THROWS_WHAT(anycl::mean(x, anycl::axis{2}), std::invalid_argument,
                      Contains("anycl::sum: axis 2"));
  REQUIRE_THROWS_WHAT(anycl::all(anycl::array<float>::zeros(e.queue, 4), anycl::axis{1}),
                      std::invalid_argument, Contains("shape (4), which has 1 dimension"));
  REQUIRE_THROWS_WHAT(anycl::argmax(anycl::array<float>::zeros(e.queue, {3, 0}), anycl::axis{1}),
                      std::invalid_argument,
                      Contains("anycl::argmax: axis 1 has extent 0 (no element to give the index "
                               "of)"));
}

TEMPLATE_TEST_CASE("fused_axis: argmin and argmax along an axis give the first index, NaN first",
                   "[fused_axis]", float, std::int16_t) {
  anycl::test::env e;
  using T = TestType;
  for (const anycl::shape& s : {anycl::shape{1, 1}, anycl::shape{13, 7919}, anycl::shape{4, 5, 6},
                                anycl::shape{(std::size_t{1} << 20) + 3}}) {
    // Few distinct values, so that ties are common: the first index along the axis must win.
    std::vector<T> h(s.size());
    for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<T>((i * 7919u + 13u) % 97u);
    if constexpr (std::is_floating_point_v<T>)
      for (std::size_t i = 5; i < h.size(); i += 4099) h[i] = NAN;
    auto a = anycl::array<T>::from_host(e.queue, h, s);
    for (unsigned ax = 0; ax < s.dims(); ++ax) {
      INFO("shape " << s.str() << ", axis " << ax);
      // The host's: (best value, its index, the next index) per line, NaN winning.
      const auto pick = [&](bool largest) {
        std::size_t inner = 1;
        for (unsigned i = ax + 1; i < s.dims(); ++i) inner *= s[i];
        const std::size_t len = s[ax], m = s.size() / len;
        std::vector<std::uint64_t> out(m);
        for (std::size_t o = 0; o < m; ++o) {
          const std::size_t base = (o / inner) * len * inner + o % inner;
          std::size_t best = 0;
          for (std::size_t j = 1; j < len; ++j) {
            const T v = h[base + j * inner], b = h[base + best * inner];
            if (std::isnan(static_cast<double>(b))) break;
            if (std::isnan(static_cast<double>(v)) || (largest ? v > b : v < b)) best = j;
          }
          out[o] = best;
        }
        return out;
      };
      CHECK(anycl::argmin(a, anycl::axis{ax}).to_host() == pick(false));
      CHECK(anycl::argmax(a, anycl::axis{ax}).to_host() == pick(true));
      // Of an expression, keeping the axis: the largest of 96 - h is the smallest of h.
      const auto k = anycl::argmax(T(96) - a, anycl::axis{ax}, anycl::keepdims);
      std::vector<std::size_t> kept(s.extents().begin(), s.extents().begin() + s.dims());
      kept[ax] = 1;
      CHECK(k.shape() == anycl::shape(kept));
      CHECK(k.to_host() == pick(false));
    }
  }
}
