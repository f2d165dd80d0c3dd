// SPDX-License-Identifier: Apache-2.0
// partitioned_array on two devices ([multi]) and on sub-devices ([multi_sub]): scatter and gather,
// element-wise work on every part, sum/min/max combined on the host, against the host and against
// one array on one device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "anycl/elementwise.hpp"
#include "anycl/partitioned_array.hpp"
#include "anycl/reduce.hpp"
#include "anycl/scan.hpp"
#include "anycl/sort.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

std::uint64_t seed_for(const char* what) {
  const std::uint64_t seed = std::random_device{}();
  UNSCOPED_INFO(what << ": seed " << seed);
  return seed;
}

// Random elements over the whole range of an integer type; [-1, 1) for floats.
template <class T>
std::vector<T> host_random(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(T(-1), T(1));
    for (auto& x : v) x = d(g);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    std::uniform_int_distribution<W> d(std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max());
    for (auto& x : v) x = static_cast<T>(d(g));
  }
  return v;
}

anycl::device_group two_devices() {
  auto g = anycl::device_group::from_spec("all");
  REQUIRE(g.size() >= 2);  // POCL_DEVICES="pthread pthread"
  return g;
}

// Scatter, gather, sum, min and max of random T on `g` (equal and weighted shares) against the
// host and against one array on the group's first queue: exact for integers, within 1e-5
// relative (of the sum of magnitudes) for float sums.
template <class T>
void check_reductions(const anycl::device_group& g, std::size_t n) {
  INFO("T of " << sizeof(T) << " bytes, n " << n);
  const auto host = host_random<T>(n, seed_for("reductions"));
  std::vector<double> weights(g.size(), 1.0);
  weights.front() = 2.5;
  for (bool weighted : {false, true}) {
    const auto a = weighted ? anycl::scatter(g, host, weights) : anycl::scatter(g, host);
    REQUIRE(a.size() == n);
    CHECK(anycl::gather(a) == host);
    const auto one = anycl::array<T>::from_host(g.queue(0), host);
    if constexpr (std::is_floating_point_v<T>) {
      long double exact = 0, magnitude = 0;
      for (T x : host) {
        exact += x;
        magnitude += std::fabs(x);
      }
      const double tol = 1e-5 * static_cast<double>(magnitude) + 1e-30;
      CHECK(std::fabs(static_cast<double>(anycl::sum(a)) - static_cast<double>(exact)) <= tol);
      CHECK(std::fabs(static_cast<double>(anycl::sum(a) - anycl::sum(one))) <= tol);
    } else {
      std::uint64_t s = 0;
      for (T x : host) s += static_cast<std::uint64_t>(static_cast<anycl::sum_type_t<T>>(x));
      CHECK(anycl::sum(a) == static_cast<anycl::sum_type_t<T>>(s));
      CHECK(anycl::sum(a) == anycl::sum(one));
    }
    if (n != 0) {
      CHECK(anycl::min(a) == *std::min_element(host.begin(), host.end()));
      CHECK(anycl::max(a) == *std::max_element(host.begin(), host.end()));
      CHECK(anycl::min(a) == anycl::min(one));
      CHECK(anycl::max(a) == anycl::max(one));
    }
  }
}

}  // namespace

TEST_CASE("partitioned_array: parts on each device, ranges by weight", "[multi]") {
  auto g = two_devices();
  auto a = anycl::partitioned_array<float>::empty(g, 1000);
  REQUIRE(a.parts().size() == g.size());
  CHECK(a.ranges() == anycl::split_range(1000, std::vector<double>(g.size(), 1.0)));
  for (std::size_t i = 0; i < g.size(); ++i) {
    CHECK(a.part(i).queue().get() == g.queue(i).get());
    CHECK(a.part(i).size() == a.range(i).size());
  }
  std::vector<double> w(g.size(), 1.0);
  w[0] = 3.0;
  auto b = anycl::partitioned_array<std::int32_t>::empty(g, 1000, w);
  CHECK(b.ranges() == anycl::split_range(1000, w));
  CHECK_FALSE(b.aligned_with(a));
  auto c = anycl::partitioned_array<double>::like(b);
  CHECK(c.aligned_with(b));
  c.fill(1.5);
  CHECK(c.gather() == std::vector<double>(1000, 1.5));
  // Fewer elements than devices: the empty parts exist and stay out of the way.
  auto tiny = anycl::scatter(g, std::vector<std::int64_t>{42});
  CHECK(tiny.part(1).size() == 0);
  CHECK(anycl::gather(tiny) == std::vector<std::int64_t>{42});
  CHECK(anycl::sum(tiny) == 42);
  CHECK(anycl::min(tiny) == 42);
  auto none = anycl::partitioned_array<std::uint8_t>::empty(g, 0);
  CHECK(none.gather().empty());
  CHECK(anycl::sum(none) == 0);
}

TEST_CASE("partitioned_array: sum, min and max equal the host and one array", "[multi]") {
  auto g = two_devices();
  const std::size_t n = (std::size_t{1} << 20) + 7;
  check_reductions<std::int32_t>(g, n);
  check_reductions<std::uint64_t>(g, n);  // sums wrap modulo 2^64, as one array's do
  check_reductions<std::int8_t>(g, 1001);
  check_reductions<float>(g, n);
  check_reductions<double>(g, 5);
}

TEST_CASE("partitioned_array: element-wise expressions run on every part", "[multi]") {
  auto g = two_devices();
  const std::size_t n = (std::size_t{1} << 18) + 3;
  const auto xs = host_random<std::int32_t>(n, seed_for("for_each_part"));
  std::vector<std::int32_t> small(n);
  for (std::size_t k = 0; k < n; ++k) small[k] = xs[k] % 100000;  // no overflow in 3 * x + 7
  std::vector<double> w(g.size(), 1.0);
  w.back() = 2.0;
  const auto x = anycl::scatter(g, small, w);
  const auto y = anycl::partitioned_array<std::int32_t>::like(x);
  anycl::for_each_part([](auto& yp, const auto& xp) { yp = 3 * xp + 7; }, y, x);
  std::vector<std::int32_t> want(n);
  for (std::size_t k = 0; k < n; ++k) want[k] = 3 * small[k] + 7;
  CHECK(y.gather() == want);
  const auto one = anycl::array<std::int32_t>::from_host(g.queue(0), small);
  anycl::array<std::int32_t> y1 = 3 * one + 7;
  CHECK(y.gather() == y1.to_host());
  CHECK(anycl::sum(y) == anycl::sum(y1));

  // Arrays laid out differently are refused before any device runs.
  const auto other = anycl::scatter(g, small);
  bool called = false;
  REQUIRE_THROWS_WHAT(
      anycl::for_each_part([&](const auto&, const auto&) { called = true; }, y, other),
      std::invalid_argument, Contains("not aligned") && Contains("like()"));
  CHECK_FALSE(called);
  // An error in one part is rethrown after every part finished.
  REQUIRE_THROWS_WHAT(anycl::for_each_part(
                          [&](const auto& p) {
                            if (p.queue().get() == g.queue(1).get())
                              throw std::runtime_error("part 1 failed");
                            p.fill(0);
                          },
                          y),
                      std::runtime_error, Contains("part 1 failed"));
  CHECK(y.part(0).to_host() == std::vector<std::int32_t>(y.range(0).size(), 0));
}

namespace {

// The type the host reference adds in: long double for floats, unsigned T (wrapping) for integers.
template <class T, bool = std::is_floating_point_v<T>>
struct host_arith {
  using type = long double;
};
template <class T>
struct host_arith<T, false> {
  using type = std::make_unsigned_t<T>;
};

// Inclusive and exclusive prefix sums of random T on `g` (equal and weighted shares, out of place
// and in place) against the host (integers in unsigned arithmetic: wrapping) and one array's scan:
// exact for integers; floats within 1e-5 of the running sum of magnitudes.
template <class T>
void check_scans(const anycl::device_group& g, std::size_t n) {
  INFO("T of " << sizeof(T) << " bytes, n " << n);
  const auto host = host_random<T>(n, seed_for("scans"));
  const T init = T(5);
  using W = typename host_arith<T>::type;
  std::vector<T> incl(n), excl(n);
  std::vector<double> magnitude(n);
  W acc = W(init), acc0 = W(0);
  double mag = std::fabs(static_cast<double>(init));
  for (std::size_t k = 0; k < n; ++k) {
    excl[k] = static_cast<T>(acc);
    acc = static_cast<W>(acc + static_cast<W>(host[k]));
    acc0 = static_cast<W>(acc0 + static_cast<W>(host[k]));
    incl[k] = static_cast<T>(acc0);
    mag += std::fabs(static_cast<double>(host[k]));
    magnitude[k] = mag;
  }
  auto close = [&](const std::vector<T>& got, const std::vector<T>& want) {
    REQUIRE(got.size() == want.size());
    std::size_t bad = 0;
    for (std::size_t k = 0; k < got.size(); ++k) {
      if constexpr (std::is_floating_point_v<T>) {
        if (std::fabs(static_cast<double>(got[k]) - static_cast<double>(want[k])) >
            1e-5 * magnitude[k])
          ++bad;
      } else if (got[k] != want[k]) {
        ++bad;
      }
    }
    return bad;
  };
  const auto one = anycl::array<T>::from_host(g.queue(0), host);
  const auto one_out = anycl::array<T>::empty(g.queue(0), n);
  std::vector<double> weights(g.size(), 1.0);
  weights.back() = 1.7;
  for (bool weighted : {false, true}) {
    INFO("weighted " << weighted);
    const auto a = weighted ? anycl::scatter(g, host, weights) : anycl::scatter(g, host);
    const auto out = anycl::partitioned_array<T>::like(a);
    anycl::inclusive_scan(a, out);
    CHECK(close(out.gather(), incl) == 0);
    if (n != 0) {
      anycl::inclusive_scan(one, one_out);
      CHECK(close(out.gather(), one_out.to_host()) == 0);
    }
    anycl::exclusive_scan(a, out, init);
    CHECK(close(out.gather(), excl) == 0);
    CHECK(anycl::gather(a) == host);  // the input is unchanged
    anycl::inclusive_scan(a, a);      // in place
    CHECK(close(a.gather(), incl) == 0);
  }
}

}  // namespace

TEST_CASE("partitioned_array: prefix sums equal the host and one array", "[multi]") {
  auto g = two_devices();
  check_scans<std::int32_t>(g, (std::size_t{1} << 20) + 9);  // wraps: the full int32 range
  check_scans<std::uint8_t>(g, 3001);
  check_scans<std::int64_t>(g, 3);
  check_scans<float>(g, (std::size_t{1} << 18) + 1);
  // Arrays not aligned are refused.
  const auto a = anycl::scatter(g, std::vector<float>(10, 1.0f));
  const auto b =
      anycl::scatter(g, std::vector<float>(10, 1.0f), std::vector<double>(g.size(), 2.0));
  CHECK(a.aligned_with(b));  // the same split: weights only matter relative to each other
  const auto c = anycl::scatter(g, std::vector<float>(11, 1.0f));
  REQUIRE_THROWS_WHAT(anycl::inclusive_scan(a, c), std::invalid_argument,
                      Contains("inclusive_scan") && Contains("not aligned"));
}

TEST_CASE("partitioned_array: dot equals the host and one array", "[multi]") {
  auto g = two_devices();
  const std::size_t n = (std::size_t{1} << 19) + 5;
  const auto x = host_random<std::int32_t>(n, seed_for("dot x"));
  const auto y = host_random<std::int32_t>(n, seed_for("dot y"));
  std::uint64_t want = 0;
  for (std::size_t k = 0; k < n; ++k)
    want += static_cast<std::uint64_t>(static_cast<std::int64_t>(x[k]) * y[k]);
  const auto a = anycl::scatter(g, x);
  const auto b = anycl::partitioned_array<std::int32_t>::like(a);
  b.scatter(y);
  CHECK(anycl::dot(a, b) == static_cast<std::int64_t>(want));
  const auto one_x = anycl::array<std::int32_t>::from_host(g.queue(0), x);
  const auto one_y = anycl::array<std::int32_t>::from_host(g.queue(0), y);
  CHECK(anycl::dot(a, b) == anycl::dot(one_x, one_y));
  std::vector<double> w(g.size(), 1.0);
  w[0] = 4.0;
  REQUIRE_THROWS_WHAT(anycl::dot(a, anycl::scatter(g, y, w)), std::invalid_argument,
                      Contains("anycl::dot") && Contains("not aligned"));
}

TEST_CASE("partitioned_array: count_if, any and all equal the host and one array", "[multi]") {
  auto g = two_devices();
  const std::size_t n = (std::size_t{1} << 18) + 3;
  auto host = host_random<float>(n, seed_for("count_if"));
  std::uint64_t want = 0;
  for (float v : host) want += v > 0.25f ? 1 : 0;
  const auto a = anycl::scatter(g, host);
  CHECK(anycl::count_if(a, "x > 0.25f") == want);
  CHECK(anycl::count_if(a, "x > 0.25f") ==
        anycl::count_if(anycl::array<float>::from_host(g.queue(0), host), "x > 0.25f"));
  // any/all: a single non-zero (or zero) element in the last part decides.
  std::vector<std::int32_t> zeros(1001, 0);
  CHECK_FALSE(anycl::any(anycl::scatter(g, zeros)));
  zeros.back() = 7;
  CHECK(anycl::any(anycl::scatter(g, zeros)));
  std::vector<std::int32_t> ones(1001, 1);
  CHECK(anycl::all(anycl::scatter(g, ones)));
  ones.back() = 0;
  CHECK_FALSE(anycl::all(anycl::scatter(g, ones)));
  // Empty: as one empty array (parts with no elements are skipped).
  const auto none = anycl::partitioned_array<std::int32_t>::empty(g, 0);
  CHECK(anycl::count_if(none, "x > 0") == 0);
  CHECK_FALSE(anycl::any(none));
  CHECK(anycl::all(none));
  // One element: the second device's part is empty.
  const auto one = anycl::scatter(g, std::vector<std::int32_t>{5});
  CHECK(anycl::count_if(one, "x == 5") == 1);
  CHECK(anycl::all(one));
  REQUIRE_THROWS_WHAT(anycl::count_if(a, ""), std::invalid_argument,
                      Contains("predicate is empty"));
  REQUIRE_THROWS_AS(anycl::count_if(a, "x >>> 1"), anycl::build_error);
}

namespace {
// sort of a partitioned array against std::stable_sort on the host (by the same key order) and
// against anycl::sort of one array, bit for bit, with equal and uneven shares.
template <class K>
void check_sort(const anycl::device_group& g, std::vector<K> host, anycl::sort_order order) {
  INFO("K of " << sizeof(K) << " bytes, n " << host.size() << ", descending "
               << (order == anycl::sort_order::descending));
  std::vector<double> w(g.size(), 1.0);
  w[0] = 3.0;
  for (const auto& weights : {std::vector<double>(g.size(), 1.0), w}) {
    const auto a = anycl::scatter(g, host, weights);
    anycl::sort(a, order);
    const std::vector<K> got = a.gather();
    std::vector<K> want = host;
    std::stable_sort(want.begin(), want.end(), [order](K x, K y) {
      return order == anycl::sort_order::ascending
                 ? anycl::detail::sort_bits(x) < anycl::detail::sort_bits(y)
                 : anycl::detail::sort_bits(y) < anycl::detail::sort_bits(x);
    });
    REQUIRE(got.size() == want.size());
    CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(K)) == 0);
    auto one = anycl::array<K>::from_host(g.queue(0), host);
    anycl::sort(one, order);
    const std::vector<K> one_sorted = one.to_host();
    CHECK(std::memcmp(got.data(), one_sorted.data(), got.size() * sizeof(K)) == 0);
    CHECK(a.ranges() == anycl::scatter(g, host, weights).ranges());  // layout kept
  }
}
}  // namespace

TEST_CASE("partitioned_array: sort equals std::stable_sort and one array's sort", "[multi]") {
  auto g = two_devices();
  check_sort(g, host_random<std::int32_t>((std::size_t{1} << 18) + 11, seed_for("sort i32")),
             anycl::sort_order::ascending);
  check_sort(g, host_random<std::uint64_t>(5003, seed_for("sort u64")),
             anycl::sort_order::descending);
  // Many equal keys across the parts, and floats with both zeros, infinities and NaNs of either
  // sign, whose order is fixed by their bits.
  auto few = host_random<std::uint8_t>(20000, seed_for("sort u8"));
  check_sort(g, few, anycl::sort_order::ascending);
  std::vector<float> f = host_random<float>(4099, seed_for("sort float"));
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            -std::numeric_limits<float>::quiet_NaN()};
  for (std::size_t k = 0; k < std::size(specials); ++k) f[k * 601] = specials[k];
  check_sort(g, f, anycl::sort_order::ascending);
  check_sort(g, f, anycl::sort_order::descending);
  check_sort(g, std::vector<double>{2.5}, anycl::sort_order::ascending);  // one part empty
  auto none = anycl::partitioned_array<float>::empty(g, 0);
  anycl::sort(none);
  CHECK(none.gather().empty());
}

TEST_CASE("measure_weights: one finite weight > 0 per device that split_range accepts", "[multi]") {
  auto g = two_devices();
  const auto w = anycl::measure_weights(g, std::size_t{1} << 16);
  REQUIRE(w.size() == g.size());
  for (double x : w) CHECK((std::isfinite(x) && x > 0));
  // The weights are usable as they are: a split by them covers every element once.
  const std::size_t n = 100003;
  const auto host = host_random<std::int32_t>(n, seed_for("measured"));
  const auto a = anycl::scatter(g, host, w);
  CHECK(a.ranges() == anycl::split_range(n, w));
  CHECK(a.gather() == host);
  REQUIRE_THROWS_WHAT(anycl::measure_weights(g, 0), std::invalid_argument,
                      Contains("measure_weights") && Contains("n is 0"));
}

TEST_CASE("partitioned_array: wrong sizes, weights and empty reductions are refused", "[multi]") {
  auto g = two_devices();
  auto a = anycl::partitioned_array<float>::empty(g, 10);
  REQUIRE_THROWS_WHAT(a.scatter(std::vector<float>(9)), std::invalid_argument,
                      Contains("9 host elements for a partitioned array of 10"));
  REQUIRE_THROWS_WHAT(anycl::partitioned_array<float>::empty(g, 10, {1.0}), std::invalid_argument,
                      Contains("1 weight(s) for a group of 2"));
  REQUIRE_THROWS_WHAT(anycl::scatter(g, std::vector<float>(4), {1.0, -1.0}), std::invalid_argument,
                      Contains("weight 1"));
  REQUIRE_THROWS_WHAT(a.part(g.size()), std::out_of_range, Contains("part 2 of 2"));
  auto none = anycl::partitioned_array<float>::empty(g, 0);
  REQUIRE_THROWS_WHAT(anycl::min(none), std::invalid_argument,
                      Contains("anycl::min") && Contains("empty"));
  REQUIRE_THROWS_WHAT(anycl::max(none), std::invalid_argument, Contains("anycl::max"));
}

TEST_CASE("partitioned_array: over the sub-devices of one device", "[multi_sub]") {
  anycl::device parent = anycl::select_device();
  if (parent.compute_units() < 2) {
    WARN("the device has one compute unit: no sub-devices to group");
    return;
  }
  auto g = anycl::device_group::from_sub_devices(parent, 1);
  check_reductions<std::int64_t>(g, (std::size_t{1} << 16) + 1);
  check_reductions<float>(g, 4097);
  g.finish();
}
