// SPDX-License-Identifier: Apache-2.0
// histogram, bincount and unique against host counts, at sizes 0, 1, a prime and 2^20 + 3, of
// arrays, strided views and expressions, with their errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <vector>

#include "anycl/histogram.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

std::vector<float> normal_like(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::uint32_t s = 2654435761u * (seed + 1);
  for (float& x : v) {
    float t = 0;
    for (int j = 0; j < 4; ++j) {
      s = s * 1664525u + 1013904223u;
      t += static_cast<float>(s >> 8) * (1.0f / 16777216.0f);
    }
    x = t - 2.0f;  // in [-2, 2), denser in the middle
  }
  return v;
}

// The host's histogram by the device's own edges: bin i takes edges[i] <= v < edges[i + 1], the
// last bin also edges[bins].
std::vector<std::uint64_t> host_histogram(const std::vector<float>& v,
                                          const std::vector<float>& edges) {
  const std::size_t bins = edges.size() - 1;
  std::vector<std::uint64_t> c(bins, 0);
  for (float x : v) {
    if (!(x >= edges.front() && x <= edges.back())) continue;
    const auto at = std::upper_bound(edges.begin(), edges.end(), x) - edges.begin() - 1;
    ++c[std::min<std::size_t>(static_cast<std::size_t>(at), bins - 1)];
  }
  return c;
}

}  // namespace

TEST_CASE("histogram: counts between the edges, of arrays and expressions", "[histogram]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    auto h = normal_like(n, 1);
    if (n > 10) {
      h[3] = NAN;    // not counted
      h[4] = 1.5f;   // exactly the top edge: the last bin
      h[5] = -1.5f;  // exactly the bottom edge
      h[6] = 1.75f;  // above the range
    }
    auto x = anycl::array<float>::from_host(e.queue, h);
    const auto r = anycl::histogram(x, 30, -1.5f, 1.5f);
    const auto edges = r.edges.to_host();
    REQUIRE(edges.size() == 31);
    CHECK(edges.front() == -1.5f);
    CHECK(edges.back() == 1.5f);
    CHECK(std::is_sorted(edges.begin(), edges.end()));
    CHECK(r.counts.to_host() == host_histogram(h, edges));
    // Of an expression, over the values' own range: every finite value is counted.
    const auto d = anycl::histogram(x * 2.0f, 7);
    std::vector<float> doubled;
    for (float v : h) doubled.push_back(v * 2.0f);
    const auto de = d.edges.to_host();
    const auto dc = d.counts.to_host();
    CHECK(dc == host_histogram(doubled, de));
    std::uint64_t total = 0, finite = 0;
    for (std::uint64_t c : dc) total += c;
    for (float v : doubled) finite += std::isfinite(v) ? 1 : 0;
    CHECK(total == finite);
    if (n == 0) CHECK((de.front() == 0.0f && de.back() == 1.0f));
    if (n == 1) CHECK((de.front() == h[0] * 2.0f - 0.5f && de.back() == h[0] * 2.0f + 0.5f));
  }
  auto x = anycl::array<float>::zeros(e.queue, 4);
  REQUIRE_THROWS_WHAT(anycl::histogram(x, 0, 0.0f, 1.0f), std::invalid_argument,
                      Contains("anycl::histogram: 0 bins"));
  REQUIRE_THROWS_WHAT(anycl::histogram(x, 4, 1.0f, 1.0f), std::invalid_argument,
                      Contains("anycl::histogram: the range [1.000000, 1.000000] (finite, low "
                               "below high)"));
  REQUIRE_THROWS_WHAT(anycl::histogram(x, 4, 0.0f, INFINITY), std::invalid_argument,
                      Contains("anycl::histogram: the range"));
}

TEST_CASE("histogram: ranges at float's limits bin as the host does", "[histogram]") {
  anycl::test::env e;
  // One ulp wide at 1e-30: bins / width overflows float (the kernel's guess is then 0 * inf, a
  // NaN, for the lowest value) and most edges are equal.
  const float lo = 1e-30f, hi = std::nextafter(lo, 1.0f);
  std::vector<float> h = {lo, hi, lo, hi, hi, std::nextafter(lo, 0.0f), 1.0f, lo};
  auto x = anycl::array<float>::from_host(e.queue, h);
  const auto r = anycl::histogram(x, 1000, lo, hi);
  CHECK(r.counts.to_host() == host_histogram(h, r.edges.to_host()));
  // 2^24 + 4 bins: the last bin, 2^24 + 3, is not a float and rounds up to 2^24 + 4 (a bin
  // past the end); the top value still lands in the last bin.
  const std::size_t many = (std::size_t{1} << 24) + 4;
  std::vector<float> g = {1.0f, 0.0f, 0.5f, 1.0f, std::nextafter(1.0f, 0.0f), 0.25f};
  auto y = anycl::array<float>::from_host(e.queue, g);
  const auto big = anycl::histogram(y, many, 0.0f, 1.0f);
  const auto counts = big.counts.to_host(), want = host_histogram(g, big.edges.to_host());
  REQUIRE(counts.size() == many);
  // The first bin that differs, not 2^24 counts printed.
  const auto at = std::mismatch(counts.begin(), counts.end(), want.begin()).first - counts.begin();
  CHECK(static_cast<std::size_t>(at) == many);
  CHECK(counts.back() >= 2);  // both 1.0f values (and 1 - 2^-24, the last edge)
}

TEST_CASE("histogram: bincount of arrays, strided views and expressions", "[histogram]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<std::int32_t> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::int32_t>((i * 7919) % 97);
    auto a = anycl::array<std::int32_t>::from_host(e.queue, h);
    std::vector<std::uint64_t> want(n == 0 ? 0 : 97, 0);
    for (std::int32_t v : h) ++want[static_cast<std::size_t>(v)];
    if (n > 0) want.resize(static_cast<std::size_t>(*std::max_element(h.begin(), h.end())) + 1);
    CHECK(anycl::bincount(a).to_host() == want);
    std::vector<std::uint64_t> longer = want;
    longer.resize(std::max<std::size_t>(want.size(), 200), 0);
    CHECK(anycl::bincount(a, 200).to_host() == longer);
    // Of an expression: a % 10 counts the last digits.
    std::vector<std::uint64_t> digits;
    for (std::int32_t v : h) {
      const auto d = static_cast<std::size_t>(v % 10);
      if (digits.size() <= d) digits.resize(d + 1, 0);
      ++digits[d];
    }
    CHECK(anycl::bincount(a % 10).to_host() == digits);
  }
  // A transposed view counts its elements as the host sees them.
  std::vector<std::uint8_t> h(6 * 9);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::uint8_t>(i % 13);
  auto m = anycl::array<std::uint8_t>::from_host(e.queue, h, {6, 9}).transpose().slice(0, 0, 9, 2);
  const auto v = host_gather(h, m);
  std::vector<std::uint64_t> want(13, 0);
  for (std::uint8_t x : v) ++want[x];
  want.resize(*std::max_element(v.begin(), v.end()) + 1u);
  CHECK(anycl::bincount(m).to_host() == want);
  auto neg = anycl::array<std::int16_t>::from_host(e.queue, {3, -2, 5});
  REQUIRE_THROWS_WHAT(anycl::bincount(neg), std::invalid_argument,
                      Contains("anycl::bincount: the value -2 is negative"));
}

TEST_CASE("histogram: unique gives the sorted distinct values, NaN once", "[histogram]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<float> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>((i * 7919) % 1013) * 0.25f;
    if (n > 100) h[17] = h[42] = NAN;
    auto a = anycl::array<float>::from_host(e.queue, h);
    std::set<float> distinct;
    bool nan = false;
    for (float x : h) {
      if (std::isnan(x))
        nan = true;
      else
        distinct.insert(x);
    }
    const auto u = anycl::unique(a).to_host();
    REQUIRE(u.size() == distinct.size() + (nan ? 1 : 0));
    CHECK(std::vector<float>(u.begin(), u.begin() + distinct.size()) ==
          std::vector<float>(distinct.begin(), distinct.end()));
    if (nan) CHECK(std::isnan(u.back()));
  }
  // Of a (3, 4) integer matrix's transposed view: flattened.
  auto m = anycl::array<std::int64_t>::from_host(e.queue, {5, -1, 5, 2, 2, 9, -1, 0, 0, 5, 7, 7},
                                                 {3, 4});
  CHECK(anycl::unique(m.transpose()).to_host() == std::vector<std::int64_t>{-1, 0, 2, 5, 7, 9});
}

TEST_CASE("histogram: reduce_by_key sums, minima and maxima of runs of equal keys", "[histogram]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    // Runs of 1 to 13 equal keys, ascending, and values with both signs.
    std::vector<std::int32_t> hk(n);
    std::vector<float> hv(n);
    std::int32_t key = -5;
    for (std::size_t i = 0, left = 0; i < n; ++i) {
      if (left == 0) left = 1 + (i * 7) % 13, key += 2;
      --left;
      hk[i] = key;
      hv[i] = static_cast<float>((i * 37) % 101) - 50.0f;
    }
    auto k = anycl::array<std::int32_t>::from_host(e.queue, hk);
    auto v = anycl::array<float>::from_host(e.queue, hv);
    std::vector<std::int32_t> keys;
    std::vector<float> sums, lows;
    std::vector<std::int64_t> imax;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || hk[i] != hk[i - 1]) {
        keys.push_back(hk[i]);
        sums.push_back(0.0f);
        lows.push_back(hv[i]);
        imax.push_back(hk[i] * 3);
      }
      sums.back() += hv[i];  // small integers: exact in any order
      lows.back() = std::min(lows.back(), hv[i]);
      imax.back() =
          std::max<std::int64_t>(imax.back(), hk[i] * 3 + static_cast<std::int64_t>(i % 5));
    }
    const auto s = anycl::reduce_by_key(k, v);
    CHECK(s.first.to_host() == keys);
    CHECK(s.second.to_host() == sums);
    CHECK(anycl::reduce_by_key(k, v, anycl::key_reduction::min).second.to_host() == lows);
    // Integer values from an expression's copy give 64-bit results.
    std::vector<std::int32_t> hw(n);
    for (std::size_t i = 0; i < n; ++i) hw[i] = hk[i] * 3 + static_cast<std::int32_t>(i % 5);
    auto w = anycl::array<std::int32_t>::from_host(e.queue, hw);
    const auto mx = anycl::reduce_by_key(k, w, anycl::key_reduction::max);
    CHECK(mx.second.to_host() == imax);
  }
  // Runs of 1 to 300 keys (long enough on average for the GPU shape's work-group a run), with a
  // NaN in some runs (min and max skip it) and one run of NaNs only.
  for (std::size_t n : {std::size_t{7919}, (std::size_t{1} << 20) + 3}) {
    INFO("long runs, n = " << n);
    std::vector<std::uint16_t> hk(n);
    std::vector<float> hv(n);
    std::vector<std::int32_t> hw(n);
    std::uint16_t key = 0;
    for (std::size_t i = 0, left = 0; i < n; ++i) {
      if (left == 0) left = 1 + (i * 7919) % 300, ++key;
      --left;
      hk[i] = key;
      hv[i] = i % 977 == 5 ? NAN : static_cast<float>((i * 37) % 101) - 50.0f;
      hw[i] = static_cast<std::int32_t>((i * 7) % 1000) - 500;
    }
    for (std::size_t i = 100; i < 103; ++i) hv[i] = NAN;
    for (std::size_t i = 100; i < 103; ++i) hk[i] = 0xFFFF;  // a run of its own, NaNs only
    auto k = anycl::array<std::uint16_t>::from_host(e.queue, hk);
    auto v = anycl::array<float>::from_host(e.queue, hv);
    auto w = anycl::array<std::int32_t>::from_host(e.queue, hw);
    std::vector<std::int64_t> sums, highs;
    std::vector<float> lows;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0 || hk[i] != hk[i - 1]) {
        sums.push_back(0);
        highs.push_back(hw[i]);
        lows.push_back(NAN);
      }
      sums.back() += hw[i];
      highs.back() = std::max<std::int64_t>(highs.back(), hw[i]);
      if (!std::isnan(hv[i]))
        lows.back() = std::isnan(lows.back()) ? hv[i] : std::min(lows.back(), hv[i]);
    }
    CHECK(anycl::reduce_by_key(k, w).second.to_host() == sums);
    // The same values as floats: sums of small integers, exact in any order.
    std::vector<float> hf(hw.begin(), hw.end()), fsums(sums.begin(), sums.end());
    CHECK(anycl::reduce_by_key(k, anycl::array<float>::from_host(e.queue, hf)).second.to_host() ==
          fsums);
    CHECK(anycl::reduce_by_key(k, w, anycl::key_reduction::max).second.to_host() == highs);
    const auto got = anycl::reduce_by_key(k, v, anycl::key_reduction::min).second.to_host();
    REQUIRE(got.size() == lows.size());
    std::size_t differ = 0;
    for (std::size_t j = 0; j < got.size(); ++j)
      differ +=
          (std::isnan(got[j]) != std::isnan(lows[j]) || (!std::isnan(got[j]) && got[j] != lows[j]))
              ? 1
              : 0;
    CHECK(differ == 0);
  }
  // Grouped but not sorted keys: a key coming back starts a new run; strided views work.
  auto k = anycl::array<std::int64_t>::from_host(e.queue, {7, 0, 7, 0, 3, 0, 3, 0, 7, 0})
               .slice(0, 0, 10, 2);
  auto v = anycl::array<double>::from_host(e.queue, {1.5, 2.5, 4.0, 8.0, 16.0});
  const auto r = anycl::reduce_by_key(k, v);
  CHECK(r.first.to_host() == std::vector<std::int64_t>{7, 3, 7});
  CHECK(r.second.to_host() == std::vector<double>{4.0, 12.0, 16.0});
  REQUIRE_THROWS_WHAT(anycl::reduce_by_key(k, anycl::array<double>::zeros(e.queue, 4)),
                      std::invalid_argument,
                      Contains("anycl::reduce_by_key: keys of shape (5) and values of shape (4) "
                               "(1-D, of one size)"));
  anycl::test::env other{anycl::test::fresh_context};
  REQUIRE_THROWS_WHAT(anycl::reduce_by_key(k, anycl::array<double>::zeros(other.queue, 5)),
                      std::invalid_argument, Contains("the values belong to another context"));
}
