// SPDX-License-Identifier: Apache-2.0
// Complex numbers in expressions: + - * /, conj, real, imag, abs, arg, exp, sqrt, polar, == and
// !=, casts; mixed with real arrays and scalars by numpy's rules; sum, dot and vdot. Each against
// std::complex<double> on the host at sizes 0, 1, a prime and 2^20 + 3, on contiguous arrays and
// on transposed, strided and broadcast views.
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;
using cf = std::complex<float>;
using cd = std::complex<double>;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

template <class C>
std::vector<C> host_complex(std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<C> v(n);
  for (auto& x : v)
    x = C(static_cast<typename C::value_type>(d(rng)), static_cast<typename C::value_type>(d(rng)));
  return v;
}

std::vector<float> host_real(std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(d(rng));
  return v;
}

// The first element whose device value is further than `rel` (relative to |want| + 1) from the
// host's, or -1.
template <class C, class F>
long first_off(const std::vector<C>& got, std::size_t n, F want, double rel) {
  if (got.size() != n) return 0;
  for (std::size_t i = 0; i < n; ++i) {
    const cd w = want(i);
    const cd g(got[i]);
    if (!(std::abs(g - w) <= rel * (std::abs(w) + 1))) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace

TEST_CASE("complex_expr: arithmetic and functions against std::complex", "[complex_expr]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto ha = host_complex<cf>(n, 1), hb = host_complex<cf>(n, 2, 0.5, 2);
    const auto hr = host_real(n, 3, 0.1, 3), ht = host_real(n, 4, -3, 3);
    auto a = anycl::array<cf>::from_host(e.queue, ha);
    auto b = anycl::array<cf>::from_host(e.queue, hb);
    auto r = anycl::array<float>::from_host(e.queue, hr);
    auto t = anycl::array<float>::from_host(e.queue, ht);
    const auto A = [&](std::size_t i) { return cd(ha[i]); };
    const auto B = [&](std::size_t i) { return cd(hb[i]); };
    anycl::array<cf> z = a * b + a / b - conj(a);
    CHECK(first_off(
              z.to_host(), n,
              [&](std::size_t i) { return A(i) * B(i) + A(i) / B(i) - std::conj(A(i)); },
              2e-6) == -1);
    z = -a + exp(a) * 0.5f;
    CHECK(first_off(
              z.to_host(), n, [&](std::size_t i) { return -A(i) + std::exp(A(i)) * 0.5; }, 2e-6) ==
          -1);
    z = sqrt(a);
    CHECK(first_off(
              z.to_host(), n, [&](std::size_t i) { return std::sqrt(A(i)); }, 2e-6) == -1);
    z = polar(r, t);
    CHECK(first_off(
              z.to_host(), n,
              [&](std::size_t i) { return std::polar(double(hr[i]), double(ht[i])); }, 2e-6) == -1);
    // Real results: magnitude, angle, parts.
    anycl::array<float> m = abs(a) + arg(a) * 10.0f + real(b) - imag(b);
    const std::vector<float> hm = m.to_host();
    REQUIRE(hm.size() == n);
    long bad = -1;
    for (std::size_t i = 0; i < n && bad < 0; ++i) {
      const double w = std::abs(A(i)) + std::arg(A(i)) * 10 + B(i).real() - B(i).imag();
      if (!(std::fabs(hm[i] - w) <= 1e-5 * (std::fabs(w) + 1))) bad = static_cast<long>(i);
    }
    CHECK(bad == -1);
    // Comparisons: int32 0 or 1, and the exact round trip through conj twice.
    anycl::array<std::int32_t> same = conj(conj(a)) == a, differ = a != b;
    CHECK(same.to_host() == std::vector<std::int32_t>(n, 1));
    std::vector<std::int32_t> want_differ(n);
    for (std::size_t i = 0; i < n; ++i) want_differ[i] = ha[i] != hb[i];
    CHECK(differ.to_host() == want_differ);
  }
}

TEST_CASE("complex_expr: numpy's type rules with real arrays and scalars", "[complex_expr]") {
  anycl::test::env e;
  const std::size_t n = 7919;
  const auto ha = host_complex<cf>(n, 5);
  const auto hr = host_real(n, 6);
  auto a = anycl::array<cf>::from_host(e.queue, ha);
  auto r = anycl::array<float>::from_host(e.queue, hr);
  // complex<float> with float arrays and with real and complex scalars of any precision stays
  // complex<float>.
  auto m1 = anycl::eval(a * r + 2 - 1.5 * a + cd(0, 1));
  STATIC_REQUIRE(std::is_same_v<decltype(m1)::value_type, cf>);
  CHECK(first_off(
            m1.to_host(), n,
            [&](std::size_t i) {
              return cd(ha[i]) * double(hr[i]) + 2.0 - 1.5 * cd(ha[i]) + cd(0, 1);
            },
            2e-6) == -1);
  // A real array first, the complex one second: the same.
  auto m2 = anycl::eval(r - a);
  STATIC_REQUIRE(std::is_same_v<decltype(m2)::value_type, cf>);
  CHECK(first_off(
            m2.to_host(), n, [&](std::size_t i) { return double(hr[i]) - cd(ha[i]); }, 1e-7) == -1);
  // casts: real to complex, complex<float> to complex<double> and back.
  anycl::array<cf> m3 = anycl::cast<cf>(r * 2.0f);
  CHECK(first_off(
            m3.to_host(), n, [&](std::size_t i) { return cd(2.0 * hr[i], 0); }, 0) == -1);
  if (!e.dev.fp64()) {
    WARN("no fp64 on this device: std::complex<double> expressions not tested");
    return;
  }
  auto d = anycl::array<double>::from_host(e.queue, std::vector<double>(hr.begin(), hr.end()));
  auto m4 = anycl::eval(a * d);  // complex<float> with double: complex<double>, as numpy's
  STATIC_REQUIRE(std::is_same_v<decltype(m4)::value_type, cd>);
  CHECK(first_off(
            m4.to_host(), n, [&](std::size_t i) { return cd(ha[i]) * double(hr[i]); }, 1e-15) ==
        -1);
  auto w = anycl::array<cd>::from_host(e.queue, host_complex<cd>(n, 7));
  const auto hw = w.to_host();
  anycl::array<cd> m5 = w * w / (w + 3.0) + exp(w) - sqrt(w) + anycl::cast<cd>(a);
  CHECK(first_off(
            m5.to_host(), n,
            [&](std::size_t i) {
              return hw[i] * hw[i] / (hw[i] + 3.0) + std::exp(hw[i]) - std::sqrt(hw[i]) + cd(ha[i]);
            },
            1e-13) == -1);
  anycl::array<cf> back = anycl::cast<cf>(w);
  CHECK(first_off(
            back.to_host(), n, [&](std::size_t i) { return cd(cf(hw[i])); }, 0) == -1);
}

TEST_CASE("complex_expr: transposed, strided and broadcast operands and destinations",
          "[complex_expr]") {
  anycl::test::env e;
  const std::size_t rows = 3, cols = 1001;
  const auto hm = host_complex<cf>(rows * cols, 8), hv = host_complex<cf>(2 * cols, 9);
  // The (rows, cols) matrix as the transpose of its transpose, a row of every other element
  // broadcast over the rows.
  auto mt = anycl::array<cf>::from_host(e.queue, hm, {cols, rows}).transpose();
  auto row = anycl::array<cf>::from_host(e.queue, hv).slice(0, 0, 2 * cols, 2);
  const auto vm = anycl::test::host_gather(hm, mt);
  const auto vr = anycl::test::host_gather(hv, anycl::broadcast_to(row, {rows, cols}));
  anycl::array<cf> out = mt * row - conj(row);
  CHECK(out.shape() == anycl::shape{rows, cols});
  CHECK(first_off(
            out.to_host(), rows * cols,
            [&](std::size_t i) { return cd(vm[i]) * cd(vr[i]) - std::conj(cd(vr[i])); },
            2e-6) == -1);
  // Into a strided destination: every other column of a wider matrix.
  auto wide = anycl::array<cf>::zeros(e.queue, {rows, 2 * cols});
  auto dst = wide.slice(1, 0, 2 * cols, 2);
  dst = mt + row;
  const auto hw = wide.to_host();
  long bad = -1;
  for (std::size_t i = 0; i < rows * cols && bad < 0; ++i) {
    const cd want = cd(vm[i]) + cd(vr[i]);
    const cf got = hw[(i / cols) * 2 * cols + 2 * (i % cols)];
    if (std::abs(cd(got) - want) > 1e-6 ||
        hw[(i / cols) * 2 * cols + 2 * (i % cols) + 1] != cf(0, 0))
      bad = static_cast<long>(i);
  }
  CHECK(bad == -1);
  // sum of a view's values, and of an expression of views.
  cd want_sum = 0, want_expr = 0;
  double mag = 0;
  for (std::size_t i = 0; i < rows * cols; ++i) {
    want_sum += cd(vm[i]);
    want_expr += cd(vm[i]) * cd(vr[i]);
    mag += std::abs(cd(vm[i])) * (1 + std::abs(cd(vr[i])));
  }
  CHECK(std::abs(cd(anycl::sum(mt)) - want_sum) <= 1e-6 * mag);
  CHECK(std::abs(cd(anycl::sum(mt * row)) - want_expr) <= 1e-6 * mag);
}

TEST_CASE("complex_expr: sum, dot, vdot and mean against the host", "[complex_expr]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto ha = host_complex<cf>(n, 10), hb = host_complex<cf>(n, 11);
    auto a = anycl::array<cf>::from_host(e.queue, ha);
    auto b = anycl::array<cf>::from_host(e.queue, hb);
    cd s = 0, d = 0, v = 0;
    double mag = 0;
    for (std::size_t i = 0; i < n; ++i) {
      s += cd(ha[i]);
      d += cd(ha[i]) * cd(hb[i]);
      v += std::conj(cd(ha[i])) * cd(hb[i]);
      mag += std::abs(cd(ha[i])) * (1 + std::abs(cd(hb[i])));
    }
    const cf got_sum = anycl::sum(a), got_dot = anycl::dot(a, b), got_vdot = anycl::vdot(a, b);
    CHECK(std::abs(cd(got_sum) - s) <= 1e-6 * mag + 1e-30);
    CHECK(std::abs(cd(got_dot) - d) <= 1e-6 * mag + 1e-30);
    CHECK(std::abs(cd(got_vdot) - v) <= 1e-6 * mag + 1e-30);
    if (n > 0) CHECK(std::abs(cd(anycl::mean(a)) - s / double(n)) <= 1e-6 * mag / double(n));
  }
  // vdot of real arrays is dot.
  auto x = anycl::array<float>::from_host(e.queue, host_real(1000, 12));
  CHECK(anycl::vdot(x, x) == anycl::dot(x, x));
  // Operands of different shapes or contexts are refused, naming them.
  auto a = anycl::array<cf>::zeros(e.queue, 5);
  auto b = anycl::array<cf>::zeros(e.queue, 6);
  REQUIRE_THROWS_AS(anycl::dot(a, b), std::invalid_argument);
  REQUIRE_THROWS_AS(anycl::vdot(a, b), std::invalid_argument);
  REQUIRE_THROWS_WITH(anycl::dot(a, b),
                      Contains("anycl::dot") && Contains("shapes (5) and (6) differ"));
  REQUIRE_THROWS_WITH(anycl::vdot(a, b), Contains("anycl::vdot") && Contains("differ"));
  anycl::context other(e.dev);
  anycl::command_queue oq(other, e.dev);
  auto elsewhere = anycl::array<cf>::zeros(oq, 5);
  REQUIRE_THROWS_AS(anycl::dot(a, elsewhere), std::invalid_argument);
  REQUIRE_THROWS_WITH(anycl::dot(a, elsewhere), Contains("different contexts"));
  REQUIRE_THROWS_WITH(anycl::vdot(anycl::array<cf>(), a), Contains("anycl::vdot"));
}
