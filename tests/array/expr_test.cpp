// SPDX-License-Identifier: Apache-2.0
// Element-wise expressions: every operator and function against a host reference, strided
// operands and destinations, aliasing, kernel reuse, errors, empty arrays.
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

#include "anycl/elementwise.hpp"
#include "anycl/kernel_loader.hpp"
#include "arrays/library_kernels.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr unsigned seed = 20240601;
const std::size_t sizes[] = {0, 1, 97, (std::size_t{1} << 20) + 3};

// Tolerances, relative to max(1, |reference|): float arithmetic may be contracted to fma and float
// division may be 2.5 ulp in OpenCL C (1e-6 covers both); OpenCL's math functions are within 4 ulp
// (16 for pow) of the correctly rounded value, covered by 1e-5 for float and 1e-12 for double.
template <class T>
constexpr double arith_tol = std::is_same_v<T, float> ? 1e-6 : 1e-14;
template <class T>
constexpr double math_tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;

// `n` values in [lo, hi], never in (-0.25, 0.25) when `nonzero`.
template <class T>
std::vector<T> random_values(std::size_t n, double lo, double hi, unsigned s,
                             bool nonzero = false) {
  std::mt19937_64 g(s);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<double> d(lo, hi);
      double y = d(g);
      if (nonzero && std::fabs(y) < 0.25) y = y < 0 ? -0.5 : 0.5;
      x = static_cast<T>(y);
    } else {
      std::uniform_int_distribution<long long> d(static_cast<long long>(lo),
                                                 static_cast<long long>(hi));
      long long y = d(g);
      if (nonzero && y == 0) y = 1;
      x = static_cast<T>(y);
    }
  }
  return v;
}

// Exact for integers, within `rel` (relative to max(1, |want|)) for floats; reports the first
// element that differs.
template <class T>
void check_close(const std::vector<T>& got, const std::vector<T>& want, double rel = 0) {
  REQUIRE(got.size() == want.size());
  std::size_t bad = got.size();
  for (std::size_t i = 0; i < got.size() && bad == got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      const double g = got[i], w = want[i];
      if (!(std::fabs(g - w) <= rel * std::max(1.0, std::fabs(w)))) bad = i;
    } else {
      if (got[i] != want[i]) bad = i;
    }
  }
  if (bad != got.size()) {
    FAIL_CHECK("element " << bad << " of " << got.size() << ": got " << +got[bad] << ", want "
                          << +want[bad]);
  }
}

template <class T, class F>
std::vector<T> host_map(const std::vector<T>& a, F f) {
  std::vector<T> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<T>(f(a[i]));
  return out;
}

template <class R, class T, class U, class F>
std::vector<R> host_zip(const std::vector<T>& a, const std::vector<U>& b, F f) {
  std::vector<R> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = static_cast<R>(f(a[i], b[i]));
  return out;
}

using anycl::test::host_gather;

// Host reference: writes `values` (row-major) through a view into `base`.
template <class T>
void host_scatter(std::vector<T>& base, const anycl::array<T>& view, const std::vector<T>& values) {
  const auto& s = view.shape();
  std::size_t idx[4] = {0, 0, 0, 0};
  for (std::size_t k = 0; k < view.size(); ++k) {
    std::size_t off = view.offset();
    for (unsigned d = 0; d < s.dims(); ++d) off += idx[d] * view.strides()[d];
    base[off] = values[k];
    for (unsigned d = s.dims(); d-- > 0;) {
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
}

template <class T>
bool skip_double(const anycl::test::env& e) {
  if (std::is_same_v<T, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return true;
  }
  return false;
}

}  // namespace

TEMPLATE_TEST_CASE("expr: arithmetic operators for every element type and size", "[expr]",
                   std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  INFO("seed " << seed);
  // Ranges keep int8 products in range; unsigned subtraction and negation wrap, as on the host.
  const double lo = std::is_signed_v<T> ? -11 : 0, hi = std::is_signed_v<T> ? 11 : 15;
  // The eight kernels below as one program (the shapes do not depend on the size). `a0` keeps
  // the context's kernels, the prepared ones among them, alive for the whole test.
  auto a0 = anycl::array<T>::zeros(e.queue, 1), b0 = anycl::array<T>::zeros(e.queue, 1);
  anycl::prepare(a0 + b0, a0 - b0, a0 * b0, a0 / b0, a0 % b0, -a0, T(2) * a0 + 3, 7 - a0 / 2);
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto ha = random_values<T>(n, lo, hi, seed);
    const auto hb = random_values<T>(n, std::is_signed_v<T> ? -11 : 1, hi, seed + 1, true);
    auto a = anycl::array<T>::from_host(e.queue, ha);
    auto b = anycl::array<T>::from_host(e.queue, hb);
    const double tol = arith_tol<T>;
    using anycl::eval;
    check_close(eval(a + b).to_host(), host_zip<T>(ha, hb, [](T x, T y) { return x + y; }), tol);
    check_close(eval(a - b).to_host(), host_zip<T>(ha, hb, [](T x, T y) { return x - y; }), tol);
    check_close(eval(a * b).to_host(), host_zip<T>(ha, hb, [](T x, T y) { return x * y; }), tol);
    check_close(eval(a / b).to_host(), host_zip<T>(ha, hb, [](T x, T y) { return x / y; }), tol);
    check_close(eval(a % b).to_host(),
                host_zip<T>(ha, hb,
                            [](T x, T y) {
                              if constexpr (std::is_floating_point_v<T>)
                                return std::fmod(x, y);
                              else
                                return x % y;
                            }),
                tol);
    check_close(eval(-a).to_host(), host_map(ha, [](T x) { return -x; }), tol);
    // Scalars on either side take the element type.
    check_close(eval(T(2) * a + 3).to_host(),
                host_map(ha, [](T x) { return static_cast<T>(T(2) * x) + T(3); }), tol);
    check_close(eval(7 - a / 2).to_host(),
                host_map(ha, [](T x) { return T(7) - static_cast<T>(x / T(2)); }), tol);
  }
}

TEMPLATE_TEST_CASE("expr: comparisons, && || ! give int32_t 0 or 1", "[expr]", std::int8_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint32_t, std::uint64_t, float,
                   double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  INFO("seed " << seed);
  const std::size_t n = 1009;
  auto ha = random_values<T>(n, 0, 9, seed);
  auto hb = random_values<T>(n, 0, 9, seed + 1);
  for (std::size_t i = 0; i < n; i += 3) hb[i] = ha[i];  // equal elements too
  auto a = anycl::array<T>::from_host(e.queue, ha);
  auto b = anycl::array<T>::from_host(e.queue, hb);
  // One kernel for all nine (each kernel build takes a while on POCL): bit j holds operator j.
  // It and the comparison on its own below build as one program.
  const auto all_nine = (a < b) + 2 * (a <= b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a == b) +
                        32 * (a != b) + 64 * ((a < 5) && (b > 2)) + 128 * ((a < 2) || (4 < b)) +
                        256 * !a;
  anycl::prepare(all_nine, a < b);
  anycl::array<std::int32_t> bits = all_nine;
  const auto got = bits.to_host();
  const char* names[] = {"<", "<=", ">", ">=", "==", "!=", "&&", "||", "!"};
  for (int j = 0; j < 9; ++j) {
    INFO("operator " << names[j]);
    std::vector<std::int32_t> g(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      const T x = ha[i], y = hb[i];
      const bool r[] = {x<y, x <= y, x> y, x >= y,         x == y, x != y,
                        x < 5 && y > 2,    x < 2 || 4 < y, x == 0};
      g[i] = (got[i] >> j) & 1;
      w[i] = r[j];
    }
    check_close(g, w);
  }
  // Results are 0 or 1: no other bits set.
  std::int32_t other = 0;
  for (std::int32_t v : got) other |= v & ~0x1ff;
  CHECK(other == 0);
  // A comparison on its own is an array<int32_t>.
  anycl::array<std::int32_t> lt = a < b;
  check_close(lt.to_host(), host_zip<std::int32_t>(ha, hb, [](T x, T y) { return x < y; }));
}

TEMPLATE_TEST_CASE("expr: math functions against <cmath>", "[expr]", float, double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  INFO("seed " << seed);
  const double tol = math_tol<T>;
  // The 22 kernels below as one program; `x0` keeps them alive for the whole test.
  auto x0 = anycl::array<T>::zeros(e.queue, 1), p0 = anycl::array<T>::zeros(e.queue, 1),
       y0 = anycl::array<T>::zeros(e.queue, 1);
  {
    using namespace anycl;
    anycl::prepare(sin(x0), cos(x0), tan(y0 * T(0.4)), exp(x0), exp2(x0), log(p0), log2(p0),
                   log10(p0), sqrt(p0), rsqrt(p0), tanh(x0), abs(x0), floor(x0), ceil(x0),
                   round(x0), pow(p0, y0), pow(p0, 2), min(x0, y0), max(x0, y0), max(x0, 0),
                   fma(x0, y0, p0), fma(x0, 3, 1));
  }
  for (std::size_t n : {std::size_t{1}, std::size_t{4099}}) {
    INFO("n = " << n);
    const auto hx = random_values<T>(n, -4, 4, seed);
    const auto hp = random_values<T>(n, 0.01, 20, seed + 1);  // positive
    const auto hy = random_values<T>(n, -3, 3, seed + 2);
    auto x = anycl::array<T>::from_host(e.queue, hx);
    auto p = anycl::array<T>::from_host(e.queue, hp);
    auto y = anycl::array<T>::from_host(e.queue, hy);
    using anycl::eval;
    // clang-format off
    check_close(eval(anycl::sin(x)).to_host(), host_map(hx, [](T v) { return std::sin(v); }), tol);
    check_close(eval(anycl::cos(x)).to_host(), host_map(hx, [](T v) { return std::cos(v); }), tol);
    check_close(eval(anycl::tan(y * T(0.4))).to_host(),
                host_map(hy, [](T v) { return std::tan(static_cast<T>(v * T(0.4))); }), tol);
    check_close(eval(anycl::exp(x)).to_host(), host_map(hx, [](T v) { return std::exp(v); }), tol);
    check_close(eval(anycl::exp2(x)).to_host(), host_map(hx, [](T v) { return std::exp2(v); }), tol);
    check_close(eval(anycl::log(p)).to_host(), host_map(hp, [](T v) { return std::log(v); }), tol);
    check_close(eval(anycl::log2(p)).to_host(), host_map(hp, [](T v) { return std::log2(v); }), tol);
    check_close(eval(anycl::log10(p)).to_host(), host_map(hp, [](T v) { return std::log10(v); }), tol);
    check_close(eval(anycl::sqrt(p)).to_host(), host_map(hp, [](T v) { return std::sqrt(v); }), tol);
    check_close(eval(anycl::rsqrt(p)).to_host(), host_map(hp, [](T v) { return T(1) / std::sqrt(v); }), tol);
    check_close(eval(anycl::tanh(x)).to_host(), host_map(hx, [](T v) { return std::tanh(v); }), tol);
    check_close(eval(anycl::abs(x)).to_host(), host_map(hx, [](T v) { return std::fabs(v); }), 0);
    check_close(eval(anycl::floor(x)).to_host(), host_map(hx, [](T v) { return std::floor(v); }), 0);
    check_close(eval(anycl::ceil(x)).to_host(), host_map(hx, [](T v) { return std::ceil(v); }), 0);
    check_close(eval(anycl::round(x)).to_host(), host_map(hx, [](T v) { return std::round(v); }), 0);
    check_close(eval(anycl::pow(p, y)).to_host(), host_zip<T>(hp, hy, [](T a, T b) { return std::pow(a, b); }), tol);
    check_close(eval(anycl::pow(p, 2)).to_host(), host_map(hp, [](T a) { return std::pow(a, T(2)); }), tol);
    check_close(eval(anycl::min(x, y)).to_host(), host_zip<T>(hx, hy, [](T a, T b) { return std::fmin(a, b); }), 0);
    check_close(eval(anycl::max(x, y)).to_host(), host_zip<T>(hx, hy, [](T a, T b) { return std::fmax(a, b); }), 0);
    check_close(eval(anycl::max(x, 0)).to_host(), host_map(hx, [](T a) { return std::fmax(a, T(0)); }), 0);
    std::vector<T> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = std::fma(hx[i], hy[i], hp[i]);
    check_close(eval(anycl::fma(x, y, p)).to_host(), want, arith_tol<T>);
    for (std::size_t i = 0; i < n; ++i) want[i] = std::fma(hx[i], T(3), T(1));
    check_close(eval(anycl::fma(x, 3, 1)).to_host(), want, arith_tol<T>);
    // clang-format on
  }
}

TEMPLATE_TEST_CASE("expr: abs, min, max on integers are exact", "[expr]", std::int8_t, std::int16_t,
                   std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
                   std::uint64_t) {
  using T = TestType;
  anycl::test::env e;
  INFO("seed " << seed);
  const std::size_t n = 1031;
  const double lo = std::is_signed_v<T> ? -100 : 0;
  const auto ha = random_values<T>(n, lo, 100, seed);
  const auto hb = random_values<T>(n, lo, 100, seed + 1);
  auto a = anycl::array<T>::from_host(e.queue, ha);
  auto b = anycl::array<T>::from_host(e.queue, hb);
  anycl::prepare(anycl::abs(a), anycl::min(a, b), anycl::max(a, b), anycl::min(50, a));
  check_close(anycl::eval(anycl::abs(a)).to_host(),
              host_map(ha, [](T x) { return x < 0 ? -x : x; }));
  check_close(anycl::eval(anycl::min(a, b)).to_host(),
              host_zip<T>(ha, hb, [](T x, T y) { return std::min(x, y); }));
  check_close(anycl::eval(anycl::max(a, b)).to_host(),
              host_zip<T>(ha, hb, [](T x, T y) { return std::max(x, y); }));
  check_close(anycl::eval(anycl::min(50, a)).to_host(),
              host_map(ha, [](T x) { return std::min(T(50), x); }));
}

TEST_CASE("expr: where, cast and a fused expression", "[expr]") {
  anycl::test::env e;
  INFO("seed " << seed);
  const std::size_t n = 10007;
  const auto hx = random_values<float>(n, -2, 2, seed);
  const auto hi = random_values<std::int32_t>(n, -1000, 1000, seed + 1);
  auto x = anycl::array<float>::from_host(e.queue, hx);
  auto i = anycl::array<std::int32_t>::from_host(e.queue, hi);

  anycl::array<float> w = anycl::where(x > 0.5f, x, 0.0f);
  check_close(w.to_host(), host_map(hx, [](float v) { return v > 0.5f ? v : 0.0f; }));
  // Both branches scalars: their common type (int here).
  anycl::array<std::int32_t> sign = anycl::where(x < 0, -1, 1);
  check_close(sign.to_host(),
              host_zip<std::int32_t>(hx, hx, [](float v, float) { return v < 0 ? -1 : 1; }));
  // An integer condition, array branches.
  anycl::array<std::int32_t> pick = anycl::where(i % 2, i, -i);
  check_close(pick.to_host(), host_map(hi, [](std::int32_t v) { return v % 2 ? v : -v; }));

  // Casts: float to int truncates toward zero; a mask turned into a factor.
  anycl::array<std::int32_t> t = anycl::cast<std::int32_t>(x * 100.0f);
  check_close(t.to_host(), host_zip<std::int32_t>(hx, hx, [](float v, float) {
                return static_cast<std::int32_t>(static_cast<float>(v * 100.0f));
              }));
  anycl::array<float> masked = anycl::cast<float>(x > 0.5f) * x;
  check_close(masked.to_host(), host_map(hx, [](float v) { return v > 0.5f ? v : 0.0f; }));
  anycl::array<float> fi = anycl::cast<float>(i) / 4;
  check_close(
      fi.to_host(),
      host_zip<float>(hi, hi,
                      [](std::int32_t v, std::int32_t) { return static_cast<float>(v) / 4.0f; }),
      arith_tol<float>);
  anycl::array<std::uint8_t> u8 = anycl::cast<std::uint8_t>(anycl::abs(i) % 256);
  check_close(u8.to_host(), host_zip<std::uint8_t>(hi, hi, [](std::int32_t v, std::int32_t) {
                return static_cast<std::uint8_t>(std::abs(v) % 256);
              }));

  // y = 2x + sin(y), in place, one kernel.
  auto y = anycl::array<float>::from_host(e.queue, hx);
  const auto before = anycl::detail::expression_builds();
  y = 2.0f * x + anycl::sin(y);
  CHECK(anycl::detail::expression_builds() - before <= 1);
  check_close(y.to_host(), host_map(hx, [](float v) { return 2.0f * v + std::sin(v); }),
              math_tol<float>);
}

TEST_CASE("expr: a default-constructed array takes the expression's shape and queue", "[expr]") {
  anycl::test::env e;
  auto x = anycl::array<std::int64_t>::arange(e.queue, 12).reshape({3, 4});
  anycl::array<std::int64_t> y;
  y = x * x + 1;
  CHECK(y.shape() == anycl::shape{3, 4});
  CHECK(y.queue().get() == e.queue.get());
  CHECK(y.buffer().get() != x.buffer().get());
  std::vector<std::int64_t> want(12);
  for (int k = 0; k < 12; ++k) want[k] = k * k + 1;
  CHECK(y.to_host() == want);
  auto z = anycl::eval(x - 1);
  CHECK(z.shape() == anycl::shape{3, 4});
  for (auto& v : want) v = 0;
  for (int k = 0; k < 12; ++k) want[k] = k - 1;
  CHECK(z.to_host() == want);
  // eval of an array is a copy.
  auto c = anycl::eval(x);
  CHECK(c.buffer().get() != x.buffer().get());
  CHECK(c.to_host() == x.to_host());
}

TEST_CASE("expr: strided operands and destinations", "[expr]") {
  anycl::test::env e;
  INFO("seed " << seed);
  const std::size_t r = 37, c = 53;
  const auto hm = random_values<float>(r * c, -5, 5, seed);
  const auto hn = random_values<float>(c * r, -5, 5, seed + 1);
  auto m = anycl::array<float>::from_host(e.queue, hm, {r, c});
  auto nt = anycl::array<float>::from_host(e.queue, hn, {c, r});

  // A transposed operand next to a contiguous one.
  anycl::array<float> s = m + nt.transpose() * 2.0f;
  std::vector<float> want(r * c);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) want[i * c + j] = hm[i * c + j] + hn[j * r + i] * 2.0f;
  check_close(s.to_host(), want, arith_tol<float>);

  // Stepped slices on both sides; the destination is a strided view of a bigger array.
  auto big = anycl::array<float>::zeros(e.queue, {2 * r, c});
  auto dst = big.slice(0, 0, 2 * r, 2);  // every other row
  dst = m.slice(1, 0, c, 1) - 1.0f;
  std::vector<float> hbig(2 * r * c, 0.0f);
  for (std::size_t i = 0; i < r; ++i)
    for (std::size_t j = 0; j < c; ++j) hbig[2 * i * c + j] = hm[i * c + j] - 1.0f;
  check_close(big.to_host(), hbig, arith_tol<float>);

  auto cols = m.slice(1, 1, c, 3);                // columns 1, 4, 7, ...: (37, 18), strided
  auto rows = nt.slice(0, 0, 18, 1).transpose();  // (37, 18), strided
  auto out = anycl::array<float>::zeros(e.queue, {r, c});
  auto out_cols = out.slice(1, 2, c, 3);  // columns 2, 5, ...: (37, 17)
  REQUIRE(cols.shape() == anycl::shape{r, 18});
  REQUIRE(out_cols.shape() == anycl::shape{r, 17});
  REQUIRE_THROWS_WHAT(out_cols = cols * rows, std::invalid_argument,
                      Contains("(37, 17)") && Contains("(37, 18)"));
  out_cols = cols.slice(1, 0, 17, 1) * rows.slice(1, 0, 17, 1);
  auto hout = std::vector<float>(r * c, 0.0f);
  {
    auto gc = host_gather(hm, cols.slice(1, 0, 17, 1));
    auto gr = host_gather(hn, rows.slice(1, 0, 17, 1));
    std::vector<float> prod(gc.size());
    for (std::size_t k = 0; k < gc.size(); ++k) prod[k] = gc[k] * gr[k];
    host_scatter(hout, out_cols, prod);
  }
  check_close(out.to_host(), hout, arith_tol<float>);

  // 3-D and 4-D shapes with permuted axes.
  auto h4 = random_values<std::int32_t>(2 * 3 * 4 * 5, -100, 100, seed + 2);
  auto a4 = anycl::array<std::int32_t>::from_host(e.queue, h4, {2, 3, 4, 5});
  auto p4 = a4.transpose({3, 1, 0, 2});  // (5, 3, 2, 4)
  auto b4 = anycl::array<std::int32_t>::arange(e.queue, 120).reshape({5, 3, 2, 4});
  anycl::array<std::int32_t> r4 = p4 * 3 - b4;
  auto g4 = host_gather(h4, p4);
  std::vector<std::int32_t> w4(120);
  for (int k = 0; k < 120; ++k) w4[k] = g4[k] * 3 - k;
  check_close(r4.to_host(), w4);
  auto a3 = a4.reshape({6, 4, 5}).slice(1, 1, 4, 2);  // (6, 2, 5)
  anycl::array<std::int32_t> r3 = -a3;
  check_close(r3.to_host(), host_map(host_gather(h4, a3), [](std::int32_t v) { return -v; }));
}

TEST_CASE("expr: aliasing, in place and overlapping views", "[expr]") {
  anycl::test::env e;
  const std::size_t n = 100003;
  auto hx = random_values<std::int32_t>(n, -1000, 1000, seed);
  auto x = anycl::array<std::int32_t>::from_host(e.queue, hx);
  const auto x_buffer = x.buffer().get();
  x = x + x;  // same elements, same layout: in place
  CHECK(x.buffer().get() == x_buffer);
  check_close(x.to_host(), host_map(hx, [](std::int32_t v) { return 2 * v; }));

  // Shift right by one: a[1:] = a[:-1] * 2 must read the old values.
  auto ha = random_values<std::int32_t>(n, -1000, 1000, seed + 1);
  auto a = anycl::array<std::int32_t>::from_host(e.queue, ha);
  a.slice(1, n) = a.slice(0, n - 1) * 2;
  std::vector<std::int32_t> want = ha;
  for (std::size_t i = 1; i < n; ++i) want[i] = ha[i - 1] * 2;
  check_close(a.to_host(), want);
  // And left: a[:-1] = a[1:] + 1.
  a.set(ha);
  a.slice(0, n - 1) = a.slice(1, n) + 1;
  want = ha;
  for (std::size_t i = 0; i + 1 < n; ++i) want[i] = ha[i + 1] + 1;
  check_close(a.to_host(), want);
  // A matrix and its own transpose: m = m.T + m (every element read by another work-item).
  const std::size_t s = 301;
  auto hm = random_values<std::int32_t>(s * s, -1000, 1000, seed + 2);
  auto m = anycl::array<std::int32_t>::from_host(e.queue, hm, {s, s});
  m = m.transpose() + m;
  std::vector<std::int32_t> wm(s * s);
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = 0; j < s; ++j) wm[i * s + j] = hm[j * s + i] + hm[i * s + j];
  check_close(m.to_host(), wm);
  // A strided view written in place from itself (same layout).
  auto hv = random_values<float>(2 * n, -4, 4, seed + 3);
  auto v = anycl::array<float>::from_host(e.queue, hv);
  auto odd = v.slice(0, 1, 2 * n, 2);
  odd = odd * odd + odd;
  std::vector<float> wv = hv;
  for (std::size_t i = 1; i < 2 * n; i += 2) wv[i] = hv[i] * hv[i] + hv[i];
  check_close(v.to_host(), wv, arith_tol<float>);
}

TEST_CASE("expr: one kernel build per expression shape; scalars are arguments", "[expr]") {
  anycl::test::env e;
  const std::size_t n = 1000;
  auto x = anycl::array<float>::arange(e.queue, n);
  auto y = anycl::array<float>::zeros(e.queue, n);
  const auto b0 = anycl::detail::expression_builds();
  y = 2.0f * x + 1.0f;
  const auto b1 = anycl::detail::expression_builds();
  CHECK(b1 == b0 + 1);
  // New scalar values, new arrays of the same kind: the same kernel.
  float a = 3.0f, c = -4.0f;
  auto x2 = anycl::array<float>::full(e.queue, 77, 2.0f);
  auto y2 = anycl::array<float>::zeros(e.queue, 77);
  y = a * x + c;
  y2 = 0.5f * x2 + 7.0f;
  CHECK(anycl::detail::expression_builds() == b1);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = 3.0f * static_cast<float>(i) - 4.0f;
  check_close(y.to_host(), want, arith_tol<float>);
  CHECK(y2.to_host() == std::vector<float>(77, 8.0f));
  // Another shape (a strided operand, another tree, another type) builds once more each.
  y.slice(0, 0, n, 2) = a * x.slice(0, 0, n, 2) + c;
  CHECK(anycl::detail::expression_builds() == b1 + 1);
  y = a * x - c;
  CHECK(anycl::detail::expression_builds() == b1 + 2);
  y = a * x - c;
  CHECK(anycl::detail::expression_builds() == b1 + 2);
}

TEST_CASE("expr: prepare builds several expression shapes as one program", "[expr]") {
  anycl::test::env e;
  const std::size_t n = 513;
  const auto hx = random_values<float>(n, -4, 4, seed);
  const auto hy = random_values<float>(n, -4, 4, seed + 1);
  auto x = anycl::array<float>::from_host(e.queue, hx);
  auto y = anycl::array<float>::from_host(e.queue, hy);
  const auto b0 = anycl::detail::expression_builds();
  const auto loads = [] {
    const anycl::cache_statistics s = anycl::cache_stats();
    return s.hits + s.misses + s.waits;
  };
  const auto l0 = loads();
  // Two shapes (the third expression repeats the first): two kernels, one program.
  anycl::prepare(x * y + 0.25f * x, anycl::sqrt(anycl::abs(x - y)) * 3.0f, x * y + 0.25f * x);
  CHECK(anycl::detail::expression_builds() == b0 + 2);
  CHECK(loads() == l0 + 1);
  // Their evaluations (other scalar values, the same shapes) load and build nothing.
  auto r1 = anycl::eval(x * y + 0.5f * x);
  anycl::array<float> r2 = anycl::sqrt(anycl::abs(x - y)) * 3.0f;
  CHECK(anycl::detail::expression_builds() == b0 + 2);
  CHECK(loads() == l0 + 1);
  check_close(r1.to_host(),
              host_zip<float>(hx, hy, [](float a, float b) { return a * b + 0.5f * a; }),
              arith_tol<float>);
  check_close(
      r2.to_host(),
      host_zip<float>(hx, hy, [](float a, float b) { return std::sqrt(std::fabs(a - b)) * 3.0f; }),
      math_tol<float>);
  // Prepared again: nothing to build or load.
  anycl::prepare(x * y + 0.25f * x);
  CHECK(loads() == l0 + 1);
  // A destination the prepared kernels do not cover (a strided view) builds its own.
  auto z = anycl::array<float>::zeros(e.queue, 2 * n);
  z.slice(0, 0, 2 * n, 2) = x * y + 0.25f * x;
  CHECK(anycl::detail::expression_builds() == b0 + 3);
  // Errors, before anything is built.
  anycl::test::env other{anycl::test::fresh_context};  // another context
  auto o = anycl::array<float>::zeros(other.queue, n);
  REQUIRE_THROWS_WHAT(anycl::prepare(x + 1.0f, o + 1.0f), std::invalid_argument,
                      Contains("anycl::prepare") && Contains("different OpenCL contexts"));
  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(anycl::prepare(x * 2.0f, x + none), std::invalid_argument, Contains("empty"));
  REQUIRE_THROWS_WHAT(anycl::prepare(x + y, anycl::array<float>::zeros(e.queue, 3) + 1.0f - x),
                      std::invalid_argument, Contains("(513)") && Contains("(3)"));
  CHECK(anycl::detail::expression_builds() == b0 + 3);
}

TEST_CASE("expr: shape, context and scalar errors", "[expr]") {
  anycl::test::env e;
  auto a = anycl::array<float>::zeros(e.queue, {3, 4});
  auto b = anycl::array<float>::zeros(e.queue, {4, 3});
  auto v = anycl::array<float>::zeros(e.queue, 12);
  REQUIRE_THROWS_WHAT(anycl::eval(a + b), std::invalid_argument,
                      Contains("(3, 4)") && Contains("(4, 3)"));
  REQUIRE_THROWS_WHAT(anycl::eval(a * 2 + v), std::invalid_argument,
                      Contains("(3, 4)") && Contains("(12)"));
  REQUIRE_THROWS_WHAT(v = a + 1, std::invalid_argument,
                      Contains("shape (3, 4)") && Contains("shape (12)"));
  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(anycl::eval(a + none), std::invalid_argument, Contains("empty"));
  auto u8 = anycl::array<std::uint8_t>::zeros(e.queue, 5);
  REQUIRE_THROWS_WHAT(anycl::eval(u8 + 300), std::invalid_argument,
                      Contains("300") && Contains("uchar"));
  REQUIRE_THROWS_WHAT(anycl::eval(u8 - (-1)), std::invalid_argument, Contains("-1"));
  CHECK(anycl::eval(u8 + 255).to_host() == std::vector<std::uint8_t>(5, 255));

  anycl::test::env other{anycl::test::fresh_context};  // another context
  auto o = anycl::array<float>::zeros(other.queue, {3, 4});
  REQUIRE_THROWS_WHAT(anycl::eval(a + o), std::invalid_argument,
                      Contains("different OpenCL contexts"));
  REQUIRE_THROWS_WHAT(o = a * 2, std::invalid_argument, Contains("different OpenCL contexts"));
  // Nothing was written by the failed assignments.
  CHECK(v.to_host() == std::vector<float>(12, 0.0f));
  CHECK(o.to_host() == std::vector<float>(12, 0.0f));
}

TEST_CASE("expr: empty arrays", "[expr]") {
  anycl::test::env e;
  auto a = anycl::array<double>::zeros(e.queue, 0);
  auto b = anycl::array<double>::zeros(e.queue, 0);
  if (e.dev.fp64()) {
    auto c = anycl::eval(a * b + 1.0);
    CHECK(c.size() == 0);
    a = b - 2.0;
    CHECK(a.to_host().empty());
  }
  auto m = anycl::array<int>::zeros(e.queue, {0, 5});
  anycl::array<int> r = m + 1;
  CHECK(r.shape() == anycl::shape{0, 5});
  CHECK(r.to_host().empty());
  REQUIRE_THROWS_WHAT(anycl::eval(m + anycl::array<int>::zeros(e.queue, {5, 0})),
                      std::invalid_argument, Contains("(0, 5)") && Contains("(5, 0)"));
}

TEST_CASE("expr: describe() gives the OpenCL text and arguments", "[expr]") {
  anycl::test::env e;
  auto x = anycl::array<float>::arange(e.queue, 10);
  auto t = anycl::array<float>::zeros(e.queue, {2, 5});
  auto code = anycl::detail::describe(2.0f * x + 1.0f, "q");
  CHECK(code.type == "float");
  CHECK(code.element == anycl::scalar_type::f32);
  CHECK(code.params == "float q0, global const float* q1, ulong q1_off, float q2");
  CHECK(code.value == "((float)(((float)(q0 * q1[q1_off + k])) + q2))");
  CHECK(code.args.size() == 4);
  CHECK(code.arrays.size() == 1);
  CHECK(code.size() == 10);
  CHECK_FALSE(code.uses_extents);
  auto strided = anycl::detail::describe(anycl::sqrt(t.transpose()));
  CHECK(strided.uses_extents);
  CHECK(strided.params == "global const float* e0, ulong e0_off, ulong4 e0_st, ulong4 e_ext");
  CHECK(strided.value == "sqrt(e0[anycl_strided_index(k, e_ext, e0_st, e0_off)])");
  CHECK(strided.extents == anycl::shape{5, 2});
}

TEST_CASE("expr: operands on another queue of the same context are waited for", "[expr]") {
  anycl::test::env e;
  anycl::command_queue q2(e.ctx, e.dev);
  const std::size_t n = (std::size_t{1} << 20) + 3;
  auto a = anycl::array<std::int32_t>::zeros(q2, n);
  auto b = anycl::array<std::int32_t>::zeros(e.queue, n);
  for (int round = 0; round < 3; ++round) {
    a = a + 1;  // on q2
    b = b + a;  // on e.queue, after q2's command
  }
  CHECK(b.to_host() == std::vector<std::int32_t>(n, 1 + 2 + 3));
}
