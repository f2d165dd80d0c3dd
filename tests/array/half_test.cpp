// SPDX-License-Identifier: Apache-2.0
// array<anycl::half>: the device's conversions against the host's over all 65,536 bit patterns and
// around every half, expressions computed in float and rounded once where stored (sizes 0, 1, a
// prime and 2^20+3; contiguous, strided, transposed and broadcast operands and destinations),
// casts to and from every other type, storage operations and the errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "anycl/indexing.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"
#include "support/half_probes.hpp"

using anycl::half;
using Catch::Matchers::Contains;

namespace {

std::vector<half> random_halves(std::size_t n, std::uint64_t seed, float lo = -8, float hi = 8) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<half> v(n);
  for (auto& h : v) h = half(d(g));
  return v;
}

std::vector<std::uint16_t> bits(const std::vector<half>& v) {
  std::vector<std::uint16_t> b(v.size());
  std::transform(v.begin(), v.end(), b.begin(), [](half h) { return h.bits(); });
  return b;
}

// The first position where the device's halves and the host's differ (NaNs alike), or -1.
long first_difference(const std::vector<half>& dev, const std::vector<half>& host) {
  REQUIRE(dev.size() == host.size());
  for (std::size_t i = 0; i < dev.size(); ++i)
    if (!anycl::test::same_half(dev[i].bits(), host[i].bits())) return static_cast<long>(i);
  return -1;
}

// The host's value of the fused half expression r = a * b + c * 0.1 (computed in float, the
// scalar rounded to half first, the result rounded once).
half host_fused(half a, half b, half c) {
  const float s = half(0.1f);
  return half(static_cast<float>(a) * static_cast<float>(b) + static_cast<float>(c) * s);
}

const std::size_t sizes[] = {0, 1, 97, (std::size_t{1} << 20) + 3};

}  // namespace

TEST_CASE("half arrays: every bit pattern widens on the device as on the host, and back",
          "[half]") {
  anycl::test::env e;
  std::vector<half> all(65536);
  for (std::uint32_t b = 0; b < all.size(); ++b) all[b] = half::from_bits(std::uint16_t(b));
  auto h = anycl::array<half>::from_host(e.queue, all);
  const std::vector<float> f = anycl::eval(anycl::cast<float>(h)).to_host();
  std::size_t wrong = 0;
  for (std::size_t b = 0; b < all.size(); ++b) {
    const float ref = all[b];
    if (std::isnan(ref) ? !std::isnan(f[b]) : std::memcmp(&ref, &f[b], sizeof ref) != 0) ++wrong;
  }
  CHECK(wrong == 0);
  // Back to half, rounded on the device: every pattern again (NaNs as NaNs).
  auto x = anycl::array<float>::from_host(e.queue, f);
  anycl::array<half> back = anycl::cast<half>(x);
  CHECK(first_difference(back.to_host(), all) == -1);
  // An element-wise copy (vload_half, vstore_half_rte) and a storage copy keep every pattern.
  CHECK(first_difference(anycl::eval(h * 1).to_host(), all) == -1);  // h + 0 turns -0 into +0
  CHECK(bits(h.copy().to_host()) == bits(all));
}

TEMPLATE_TEST_CASE("half arrays: floats and doubles round to nearest even as on the host", "[half]",
                   float, double) {
  anycl::test::env e;
  if (std::is_same_v<TestType, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double to half not tested");
    return;
  }
  const std::vector<TestType> p = anycl::test::half_probes<TestType>();
  std::vector<half> host(p.size());
  std::transform(p.begin(), p.end(), host.begin(), [](TestType v) { return half(v); });
  auto x = anycl::array<TestType>::from_host(e.queue, p);
  anycl::array<half> h = anycl::cast<half>(x);
  CHECK(first_difference(h.to_host(), host) == -1);
  // Rounded in the middle of an expression and widened again: the same values.
  anycl::array<TestType> w = anycl::cast<TestType>(anycl::cast<half>(x));
  std::vector<TestType> wh = w.to_host();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!anycl::test::same_half(half(wh[i]).bits(), host[i].bits()) ||
        (!std::isnan(wh[i]) && wh[i] != static_cast<TestType>(static_cast<float>(host[i]))))
      ++wrong;
  CHECK(wrong == 0);
}

TEST_CASE("half arrays: expressions compute in float and round once where stored", "[half]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto ha = random_halves(n, 11 + n), hb = random_halves(n, 12 + n),
               hc = random_halves(n, 13 + n);
    auto a = anycl::array<half>::from_host(e.queue, ha);
    auto b = anycl::array<half>::from_host(e.queue, hb);
    auto c = anycl::array<half>::from_host(e.queue, hc);
    // a * b is exact in float, so a contracted a * b + c rounds as the host does.
    anycl::array<half> r = a * b + c * 0.1f;
    std::vector<half> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = host_fused(ha[i], hb[i], hc[i]);
    CHECK(first_difference(r.to_host(), ref) == -1);
    // Comparisons give int; where() picks halves; min, max and abs are exact.
    const std::vector<std::int32_t> gt = anycl::eval(a > b).to_host();
    const std::vector<half> m = anycl::eval(where(a > b, abs(a), max(b, c))).to_host();
    for (std::size_t i = 0; i < n; ++i) {
      const float fa = ha[i], fb = hb[i], fc = hc[i];
      REQUIRE(gt[i] == (fa > fb ? 1 : 0));
      REQUIRE(static_cast<float>(m[i]) == (fa > fb ? std::fabs(fa) : std::max(fb, fc)));
    }
    // Math functions in float: within one half ulp of the host's.
    const std::vector<half> s = anycl::eval(sqrt(abs(a)) + exp(b / 4)).to_host();
    for (std::size_t i = 0; i < n; ++i) {
      const float want = std::sqrt(std::fabs(float(ha[i]))) + std::exp(float(hb[i]) / 4);
      REQUIRE(std::fabs(float(s[i]) - want) <= std::ldexp(std::fabs(want), -10));
    }
  }
}

TEST_CASE("half arrays: strided, transposed and broadcast operands and destinations", "[half]") {
  anycl::test::env e;
  const std::size_t rows = 37, cols = 53;
  const auto hm = random_halves(rows * cols, 21), hrow = random_halves(rows, 22);
  auto m = anycl::array<half>::from_host(e.queue, hm, {rows, cols});
  auto row = anycl::array<half>::from_host(e.queue, hrow, {1, rows});
  // The transpose (cols, rows) minus a row broadcast down it.
  anycl::array<half> t = m.transpose() - row;
  const auto tv = t.to_host();
  for (std::size_t i = 0; i < cols; ++i)
    for (std::size_t j = 0; j < rows; ++j)
      REQUIRE(anycl::test::same_half(tv[i * rows + j].bits(),
                                     half(float(hm[j * cols + i]) - float(hrow[j])).bits()));
  // Into a strided destination: every other column of m doubled in place.
  auto odd = m.slice(1, 1, cols, 2);
  odd = odd * 2;
  const auto mv = m.to_host();
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const half want = j % 2 ? half(float(hm[i * cols + j]) * 2) : hm[i * cols + j];
      REQUIRE(mv[i * cols + j].bits() == want.bits());
    }
  // Storage operations of half: a strided fill, a transposed copy, take, flip and concatenate.
  m.slice(0, 0, rows, 3).fill(half(-1.5f));
  const auto filled = m.to_host();
  for (std::size_t i = 0; i < rows; ++i)
    REQUIRE((filled[i * cols].bits() == 0xbe00u) == (i % 3 == 0));
  const auto tt = m.transpose().copy().to_host();
  CHECK(bits(tt) == bits(anycl::test::host_gather(filled, m.transpose())));
  const std::vector<std::int32_t> idx = {3, 0, -1, 36};
  auto taken = anycl::take(m, anycl::array<std::int32_t>::from_host(e.queue, idx), anycl::axis{0});
  const auto tk = taken.to_host();
  for (std::size_t r = 0; r < idx.size(); ++r)
    for (std::size_t j = 0; j < cols; ++j)
      REQUIRE(tk[r * cols + j].bits() ==
              filled[(idx[r] < 0 ? rows - 1 : idx[r]) * cols + j].bits());
  const auto fl = anycl::flip(row).to_host();
  CHECK(fl.front().bits() == hrow.back().bits());
  const auto cat = anycl::concatenate(std::vector<anycl::array<half>>{row, row}, 1).to_host();
  CHECK(cat.size() == 2 * rows);
  CHECK(cat[rows].bits() == hrow[0].bits());
  CHECK(bits(anycl::array<half>::full(e.queue, 5, half(2.5f)).to_host()) ==
        std::vector<std::uint16_t>(5, 0x4100u));
  CHECK(bits(anycl::array<half>::zeros(e.queue, 3).to_host()) == std::vector<std::uint16_t>(3, 0));
}

TEST_CASE("half arrays: casts to and from every type, and reductions through float", "[half]") {
  anycl::test::env e;
  const std::size_t n = 1001;
  const auto hh = random_halves(n, 31, -300, 300);
  auto h = anycl::array<half>::from_host(e.queue, hh);
  const auto i16 = anycl::eval(anycl::cast<std::int16_t>(h)).to_host();
  const auto u8 = anycl::eval(anycl::cast<std::uint8_t>(abs(h) / 2)).to_host();
  for (std::size_t i = 0; i < n; ++i) {
    REQUIRE(i16[i] == static_cast<std::int16_t>(float(hh[i])));
    REQUIRE(u8[i] == static_cast<std::uint8_t>(std::fabs(float(hh[i])) / 2));
  }
  // Integers to half: exact up to 2048, rounded to even beyond, infinity past 65519.
  const std::vector<std::int32_t> ints = {0, -7, 2049, 2051, 65504, 65519, 65520, -100000};
  auto ia = anycl::array<std::int32_t>::from_host(e.queue, ints);
  const auto ih = anycl::eval(anycl::cast<half>(ia)).to_host();
  for (std::size_t i = 0; i < ints.size(); ++i) REQUIRE(ih[i].bits() == half(ints[i]).bits());
  // A half mask selects, and sums of halves go through float.
  const float total = anycl::sum(anycl::cast<float>(h));
  double host_total = 0;
  for (half v : hh) host_total += float(v);
  CHECK(std::fabs(total - host_total) <= 1e-3 * n);
  CHECK(anycl::max(anycl::cast<float>(h)) ==
        float(*std::max_element(hh.begin(), hh.end(),
                                [](half a, half b) { return float(a) < float(b); })));
  const auto pos = anycl::compress(h > 0, h).to_host();
  CHECK(pos.size() == static_cast<std::size_t>(std::count_if(hh.begin(), hh.end(),
                                                             [](half v) { return float(v) > 0; })));
  if (e.dev.fp64()) {
    const auto d = anycl::eval(anycl::cast<double>(h) * 0.5).to_host();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(d[i] == double(float(hh[i])) * 0.5);
  }
}

TEST_CASE("half arrays: errors name the types and shapes", "[half]") {
  anycl::test::env e;
  auto h = anycl::array<half>::zeros(e.queue, {3, 4});
  auto f = anycl::array<float>::zeros(e.queue, {3, 4});
  REQUIRE_THROWS_WHAT(anycl::array<half>(f.core()), std::invalid_argument,
                      Contains("array<half>: the data holds float elements"));
  REQUIRE_THROWS_WHAT(h.core().assign(f.core()), std::invalid_argument,
                      Contains("array::assign: float elements into a half array"));
  auto col = anycl::array<half>::zeros(e.queue, {3, 1});
  REQUIRE_THROWS_WHAT(col = h * 2, std::invalid_argument,
                      Contains("expression of shape (3, 4) to an array of shape (3, 1)"));
  REQUIRE_THROWS_WHAT(anycl::detail::evaluate(f.core(), anycl::detail::describe(h + 1)),
                      std::invalid_argument, Contains("a half expression into an array of float"));
  auto other = anycl::array<half>::zeros(e.queue, {4, 3});
  REQUIRE_THROWS_WHAT(anycl::eval(h + other), std::invalid_argument, Contains("(3, 4)"));
}
