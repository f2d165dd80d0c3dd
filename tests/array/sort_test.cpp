// SPDX-License-Identifier: Apache-2.0
// sort / sort_by_key / argsort against std::sort and std::stable_sort: every key type, negative
// numbers, duplicates, signed zeros, infinities and NaNs, sorted and reversed input, small-range
// keys, stability, views, errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>

#include "anycl/sort.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr std::size_t big = (std::size_t{1} << 20) + 3;

// Keys over T's whole range (bit patterns for integers, finite values of both signs and every
// magnitude for floats) with duplicates.
template <class T>
std::vector<T> random_keys(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      std::uniform_real_distribution<double> mant(-1.0, 1.0);
      std::uniform_int_distribution<int> ex(-60, 60);
      v[i] = static_cast<T>(std::ldexp(mant(rng), ex(rng)));
    } else {
      v[i] = static_cast<T>(rng());
    }
    if (i >= 8 && rng() % 4 == 0) v[i] = v[rng() % i];  // duplicates
  }
  return v;
}

template <class T>
bool skip_double(const anycl::test::env& e) {
  if (std::is_same_v<T, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return true;
  }
  return false;
}

template <class T>
std::vector<T> host_sorted(std::vector<T> v, anycl::sort_order order) {
  if (order == anycl::sort_order::ascending)
    std::sort(v.begin(), v.end());
  else
    std::sort(v.begin(), v.end(), [](T a, T b) { return b < a; });
  return v;
}

// The stable host permutation, as argsort should return it.
template <class T>
std::vector<std::uint32_t> host_argsort(const std::vector<T>& keys, anycl::sort_order order) {
  std::vector<std::uint32_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0u);
  if (order == anycl::sort_order::ascending)
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  else
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return keys[b] < keys[a]; });
  return idx;
}

template <class T>
std::vector<T> gather(const std::vector<T>& v, const std::vector<std::uint32_t>& idx) {
  std::vector<T> out;
  for (auto i : idx) out.push_back(v[i]);
  return out;
}

template <class T>
void check_all(const anycl::test::env& e, const std::vector<T>& host) {
  for (auto order : {anycl::sort_order::ascending, anycl::sort_order::descending}) {
    INFO("n = " << host.size() << ", descending " << (order == anycl::sort_order::descending));
    auto keys = anycl::array<T>::from_host(e.queue, host);
    anycl::sort(keys, order);
    CHECK(keys.to_host() == host_sorted(host, order));

    keys.set(host);
    auto idx = anycl::argsort(keys, order);
    CHECK(idx.size() == host.size());
    CHECK(idx.to_host() == host_argsort(host, order));
    CHECK(keys.to_host() == host);

    // Values: the original positions, as uint64 (stability shows in their order).
    std::vector<std::uint64_t> pos(host.size());
    std::iota(pos.begin(), pos.end(), std::uint64_t{0});
    auto vals = anycl::array<std::uint64_t>::from_host(e.queue, pos);
    anycl::sort_by_key(keys, vals, order);
    const auto perm = host_argsort(host, order);
    CHECK(keys.to_host() == gather(host, perm));
    CHECK(vals.to_host() == std::vector<std::uint64_t>(perm.begin(), perm.end()));
  }
}

}  // namespace

TEMPLATE_TEST_CASE("sort: sort, argsort, sort_by_key for every key type and size",
                   "[sort][sort_types]", std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                   std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  const std::uint32_t seed = 2024;
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{97}, big})
    check_all(e, random_keys<TestType>(n, seed));
}

TEMPLATE_TEST_CASE("sort: sorted, reversed, constant and small-range keys", "[sort]", std::int8_t,
                   std::int32_t, std::uint16_t, std::int64_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  auto keys = random_keys<TestType>(10007, 3);
  std::sort(keys.begin(), keys.end());
  check_all(e, keys);
  std::reverse(keys.begin(), keys.end());
  check_all(e, keys);
  check_all(e, std::vector<TestType>(5000, TestType(7)));
  // Keys in [-3, 12] (or [0, 15]): most digits are the same for every key, so most passes are
  // skipped; stability over many equal keys.
  std::mt19937 rng(11);
  std::vector<TestType> small(big);
  const int lo = std::is_signed_v<TestType> ? -3 : 0;
  for (auto& k : small) k = static_cast<TestType>(lo + static_cast<int>(rng() % 16));
  check_all(e, small);
}

TEMPLATE_TEST_CASE("sort: signed zeros, infinities and NaNs", "[sort]", float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  using lim = std::numeric_limits<TestType>;
  const TestType nan = lim::quiet_NaN();
  std::vector<TestType> host = {TestType(1),       TestType(-0.0),     lim::infinity(),
                                TestType(0),       -lim::infinity(),   TestType(-2),
                                TestType(-0.0),    lim::lowest(),      lim::max(),
                                lim::denorm_min(), -lim::denorm_min(), TestType(0)};
  // Without NaNs: the order of std::sort, and every -0.0 before every +0.0.
  auto keys = anycl::array<TestType>::from_host(e.queue, host);
  anycl::sort(keys);
  const auto got = keys.to_host();
  CHECK(got == host_sorted(host, anycl::sort_order::ascending));
  // -inf, lowest, -2, -denorm_min, -0, -0, +0, +0, denorm_min, 1, max, inf
  CHECK(std::signbit(got[4]));
  CHECK(std::signbit(got[5]));
  CHECK_FALSE(std::signbit(got[6]));
  CHECK_FALSE(std::signbit(got[7]));
  CHECK(got[4] == 0);
  CHECK(got[7] == 0);
  keys.set(host);
  anycl::sort(keys, anycl::sort_order::descending);
  auto down = keys.to_host();
  CHECK(down == host_sorted(host, anycl::sort_order::descending));
  CHECK_FALSE(std::signbit(down[4]));
  CHECK_FALSE(std::signbit(down[5]));
  CHECK(std::signbit(down[6]));
  CHECK(std::signbit(down[7]));

  // NaNs: with the sign bit set before -inf, the others after +inf; reversed when descending.
  std::vector<TestType> with_nan = host;
  with_nan.push_back(nan);
  with_nan.push_back(-nan);
  with_nan.push_back(TestType(3));
  keys = anycl::array<TestType>::from_host(e.queue, with_nan);
  anycl::sort(keys);
  auto s = keys.to_host();
  REQUIRE(s.size() == with_nan.size());
  CHECK(std::isnan(s.front()));
  CHECK(std::signbit(s.front()));
  CHECK(std::isnan(s.back()));
  CHECK_FALSE(std::signbit(s.back()));
  std::vector<TestType> middle(s.begin() + 1, s.end() - 1), finite;
  for (auto x : with_nan)
    if (!std::isnan(x)) finite.push_back(x);
  CHECK(middle == host_sorted(finite, anycl::sort_order::ascending));
  keys.set(with_nan);
  anycl::sort(keys, anycl::sort_order::descending);
  s = keys.to_host();
  CHECK(std::isnan(s.front()));
  CHECK_FALSE(std::signbit(s.front()));
  CHECK(std::isnan(s.back()));
  CHECK(std::signbit(s.back()));
}

TEST_CASE("sort: sort_by_key moves values of every type; stable with many equal keys", "[sort]") {
  anycl::test::env e;
  std::mt19937 rng(5);
  std::vector<std::int32_t> keys(big);
  for (auto& k : keys) k = static_cast<std::int32_t>(rng() % 1000) - 500;
  const auto perm = host_argsort(keys, anycl::sort_order::ascending);
  auto check_values = [&](auto tag) {
    using V = decltype(tag);
    std::vector<V> vals(big);
    for (std::size_t i = 0; i < big; ++i) vals[i] = static_cast<V>(i * 37 + 1);
    auto k = anycl::array<std::int32_t>::from_host(e.queue, keys);
    auto v = anycl::array<V>::from_host(e.queue, vals);
    anycl::event ev = anycl::sort_by_key(k, v);
    CHECK(v.last_event().get() == ev.get());
    CHECK(k.to_host() == gather(keys, perm));
    CHECK(v.to_host() == gather(vals, perm));
  };
  check_values(std::int8_t{});
  check_values(std::uint16_t{});
  check_values(std::uint32_t{});
  check_values(float{});
  if (e.dev.fp64()) check_values(double{});
}

TEST_CASE("sort: views, N-D arrays and strided keys", "[sort]") {
  anycl::test::env e;
  auto host = random_keys<std::int32_t>(big, 8);
  // A slice with an offset: only its elements move.
  auto all = anycl::array<std::int32_t>::from_host(e.queue, host);
  anycl::sort(all.slice(100, big - 50));
  auto want = host;
  std::sort(want.begin() + 100, want.end() - 50);
  CHECK(all.to_host() == want);
  // Every other element (strided): sorted through a temporary, the others untouched.
  all.set(host);
  anycl::sort(all.slice(0, 0, big, 2));
  want = host;
  std::vector<std::int32_t> even;
  for (std::size_t i = 0; i < big; i += 2) even.push_back(host[i]);
  std::sort(even.begin(), even.end());
  for (std::size_t i = 0; i < even.size(); ++i) want[2 * i] = even[i];
  CHECK(all.to_host() == want);
  // argsort of a strided view.
  auto strided_idx = anycl::argsort(all.slice(0, 1, big, 2));
  std::vector<std::int32_t> odd;
  for (std::size_t i = 1; i < big; i += 2) odd.push_back(host[i]);
  CHECK(strided_idx.to_host() == host_argsort(odd, anycl::sort_order::ascending));
  // Strided values move with dense keys.
  auto keys97 = random_keys<std::uint16_t>(97, 4);
  auto k97 = anycl::array<std::uint16_t>::from_host(e.queue, keys97);
  auto wide = anycl::array<float>::arange(e.queue, 2 * 97);
  anycl::sort_by_key(k97, wide.slice(0, 0, 2 * 97, 2));
  const auto perm97 = host_argsort(keys97, anycl::sort_order::ascending);
  const auto wide_host = wide.to_host();
  for (std::size_t i = 0; i < 97; ++i) {
    CHECK(wide_host[2 * i] == static_cast<float>(2 * perm97[i]));
    CHECK(wide_host[2 * i + 1] == static_cast<float>(2 * i + 1));
  }
  // A 2-D array sorts as its row-major sequence.
  std::vector<float> m = {5, 3, 9, 1, 0, -2};
  auto mat = anycl::array<float>::from_host(e.queue, m, {2, 3});
  anycl::sort(mat);
  CHECK(mat.to_host() == std::vector<float>{-2, 0, 1, 3, 5, 9});
  CHECK(mat.shape() == anycl::shape{2, 3});
}

TEST_CASE("sort: errors", "[sort]") {
  anycl::test::env e;
  auto k = anycl::array<float>::zeros(e.queue, 10);
  auto v = anycl::array<std::int32_t>::zeros(e.queue, 11);
  REQUIRE_THROWS_WHAT(
      anycl::sort_by_key(k, v), std::invalid_argument,
      Contains("sort_by_key") && Contains("10 elements") && Contains("11 elements"));
  REQUIRE_THROWS_WHAT(anycl::sort(anycl::array<float>()), std::invalid_argument,
                      Contains("sort: the key array is empty"));
  REQUIRE_THROWS_WHAT(anycl::argsort(anycl::array<std::int8_t>()), std::invalid_argument,
                      Contains("argsort: the key array is empty"));
  REQUIRE_THROWS_WHAT(anycl::sort_by_key(k, anycl::array<float>()), std::invalid_argument,
                      Contains("value array is empty"));
  auto both = anycl::array<std::int32_t>::zeros(e.queue, 20);
  REQUIRE_THROWS_WHAT(anycl::sort_by_key(both.slice(0, 10), both.slice(5, 15)),
                      std::invalid_argument, Contains("share elements"));
  // The untyped entry refuses values with positions (argsort moves no values).
  anycl::detail::array_core positions;
  REQUIRE_THROWS_WHAT(
      anycl::detail::sort(k.core(), &v.core(), anycl::sort_order::ascending, "argsort", &positions),
      std::invalid_argument, Contains("argsort: positions take no values"));
  // Trivial sizes: nothing moves, no command.
  auto one = anycl::array<float>::full(e.queue, 1, 4.0f);
  CHECK_FALSE(static_cast<bool>(anycl::sort(one)));
  CHECK(anycl::argsort(one).to_host() == std::vector<std::uint32_t>{0});
  CHECK(anycl::argsort(anycl::array<float>(e.queue, 0)).size() == 0);
}
