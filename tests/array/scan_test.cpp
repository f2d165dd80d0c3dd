// SPDX-License-Identifier: Apache-2.0
// inclusive_scan / exclusive_scan against std::inclusive_scan / std::exclusive_scan: every element
// type, built-in and custom operators, in place, strided and overlapping views, errors.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "anycl/scan.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr std::size_t big = (std::size_t{1} << 20) + 3;

// Small values (integer-valued for floats: every partial sum below 2^24 is exact in any order,
// so float results are compared exactly); signed types get negative ones too.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const int lo = std::is_signed_v<T> ? -2 : 0;
  std::uniform_int_distribution<int> d(lo, 3);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

template <class T>
T host_op(anycl::scan_operator op, T a, T b) {
  switch (op) {
    case anycl::scan_operator::plus:
      return static_cast<T>(a + b);
    case anycl::scan_operator::multiplies:
      return static_cast<T>(a * b);
    case anycl::scan_operator::min:
      return std::min(a, b);
    case anycl::scan_operator::max:
      return std::max(a, b);
  }
  return a;
}

template <class T>
std::vector<T> host_inclusive(const std::vector<T>& v, anycl::scan_operator op) {
  std::vector<T> out(v.size());
  std::inclusive_scan(v.begin(), v.end(), out.begin(),
                      [op](T a, T b) { return host_op(op, a, b); });
  return out;
}

template <class T>
std::vector<T> host_exclusive(const std::vector<T>& v, T init, anycl::scan_operator op) {
  std::vector<T> out(v.size());
  std::exclusive_scan(v.begin(), v.end(), out.begin(), init,
                      [op](T a, T b) { return host_op(op, a, b); });
  return out;
}

template <class T>
bool skip_double(const anycl::test::env& e) {
  if (std::is_same_v<T, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return true;
  }
  return false;
}

// The OpenCL C spelling of T's lowest value, as a custom identity.
template <class T>
std::string cl_lowest() {
  if constexpr (std::is_floating_point_v<T>)
    return "-INFINITY";
  else if constexpr (std::is_unsigned_v<T>)
    return "0";
  else
    return "(" + std::to_string(std::numeric_limits<T>::min() + 1) + " - 1)";
}

}  // namespace

TEMPLATE_TEST_CASE("scan: plus, inclusive and exclusive, every element type and size",
                   "[scan][scan_plus]", std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                   std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  const std::uint32_t seed = 1234;
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{97}, big}) {
    INFO("n = " << n);
    const auto host = random_values<TestType>(n, seed);
    auto in = anycl::array<TestType>::from_host(e.queue, host);
    auto out = anycl::array<TestType>::zeros(e.queue, n);
    anycl::event ev = anycl::inclusive_scan(in, out);
    CHECK(static_cast<bool>(ev) == (n != 0));
    if (n) CHECK(out.last_event().get() == ev.get());
    CHECK(out.to_host() == host_inclusive(host, anycl::scan_operator::plus));
    anycl::exclusive_scan(in, out, TestType(3));
    CHECK(out.to_host() == host_exclusive(host, TestType(3), anycl::scan_operator::plus));
    CHECK(in.to_host() == host);
  }
}

TEMPLATE_TEST_CASE("scan: min, max and multiplies for every element type", "[scan][scan_ops]",
                   std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  for (std::size_t n : {std::size_t{1}, std::size_t{97}, big}) {
    INFO("n = " << n);
    auto host = random_values<TestType>(n, 77);
    // A walk that crosses the start value both ways, so min and max change all along.
    for (std::size_t i = 0; i < n; ++i)
      host[i] = static_cast<TestType>(host[i] + static_cast<TestType>((i * 7919) % 101));
    auto in = anycl::array<TestType>::from_host(e.queue, host);
    auto out = anycl::array<TestType>(e.queue, n);
    for (auto op : {anycl::scan_operator::min, anycl::scan_operator::max}) {
      INFO("operator " << static_cast<int>(op));
      anycl::inclusive_scan(in, out, op);
      CHECK(out.to_host() == host_inclusive(host, op));
      anycl::exclusive_scan(in, out, TestType(50), op);
      CHECK(out.to_host() == host_exclusive(host, TestType(50), op));
    }
  }
  // Products of ones with a few twos (and minus ones for signed types) stay exact.
  std::vector<TestType> ones(1009, TestType(1));
  for (std::size_t i : {3, 200, 201, 640, 1000}) ones[i] = TestType(2);
  if (std::is_signed_v<TestType>)
    for (std::size_t i : {5, 17, 999}) ones[i] = static_cast<TestType>(-1);
  auto in = anycl::array<TestType>::from_host(e.queue, ones);
  auto out = anycl::array<TestType>(e.queue, ones.size());
  anycl::inclusive_scan(in, out, anycl::scan_operator::multiplies);
  CHECK(out.to_host() == host_inclusive(ones, anycl::scan_operator::multiplies));
  anycl::exclusive_scan(in, out, TestType(3), anycl::scan_operator::multiplies);
  CHECK(out.to_host() == host_exclusive(ones, TestType(3), anycl::scan_operator::multiplies));
}

TEMPLATE_TEST_CASE("scan: custom operators (max, product) as OpenCL expressions", "[scan]",
                   std::int8_t, std::int32_t, std::uint16_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (skip_double<TestType>(e)) return;
  const anycl::scan_op custom_max("max(a, b)", cl_lowest<TestType>());
  for (std::size_t n : {std::size_t{1}, std::size_t{97}, big}) {
    INFO("n = " << n);
    auto host = random_values<TestType>(n, 5);
    for (std::size_t i = 0; i < n; ++i)
      host[i] = static_cast<TestType>(host[i] + static_cast<TestType>((i * 31) % 53));
    auto in = anycl::array<TestType>::from_host(e.queue, host);
    auto out = anycl::array<TestType>(e.queue, n);
    anycl::inclusive_scan(in, out, custom_max);
    CHECK(out.to_host() == host_inclusive(host, anycl::scan_operator::max));
    anycl::exclusive_scan(in, out, TestType(7), custom_max);
    CHECK(out.to_host() == host_exclusive(host, TestType(7), anycl::scan_operator::max));
  }
  std::vector<TestType> small(40, TestType(1));
  for (std::size_t i : {0, 9, 10, 33}) small[i] = TestType(2);
  if (std::is_signed_v<TestType>) small[20] = static_cast<TestType>(-1);
  auto in = anycl::array<TestType>::from_host(e.queue, small);
  auto out = anycl::array<TestType>(e.queue, small.size());
  anycl::inclusive_scan(in, out, anycl::scan_op("a * b", "1"));
  CHECK(out.to_host() == host_inclusive(small, anycl::scan_operator::multiplies));
}

TEST_CASE("scan: a non-commutative operator keeps the order of the sequence", "[scan]") {
  anycl::test::env e;
  // Affine maps x -> m * x + c modulo 2^16, packed as (m << 16) | c, composed left to right:
  // associative, not commutative, identity (1, 0).
  auto compose = [](std::uint32_t a, std::uint32_t b) {
    const std::uint32_t m = ((a >> 16) * (b >> 16)) & 0xFFFFu;
    const std::uint32_t c = ((b >> 16) * (a & 0xFFFFu) + (b & 0xFFFFu)) & 0xFFFFu;
    return (m << 16) | c;
  };
  const anycl::scan_op op(
      "((((a >> 16) * (b >> 16)) & 0xFFFFu) << 16) | "
      "(((b >> 16) * (a & 0xFFFFu) + (b & 0xFFFFu)) & 0xFFFFu)",
      "0x10000u");
  std::mt19937 rng(42);
  INFO("seed 42");
  for (std::size_t n : {std::size_t{97}, big}) {
    std::vector<std::uint32_t> host(n);
    for (auto& x : host) x = rng();
    auto in = anycl::array<std::uint32_t>::from_host(e.queue, host);
    auto out = anycl::array<std::uint32_t>(e.queue, n);
    anycl::inclusive_scan(in, out, op);
    std::vector<std::uint32_t> want(n);
    std::inclusive_scan(host.begin(), host.end(), want.begin(), compose);
    CHECK(out.to_host() == want);
    anycl::exclusive_scan(in, out, 0x30005u, op);
    std::exclusive_scan(host.begin(), host.end(), want.begin(), 0x30005u, compose);
    CHECK(out.to_host() == want);
  }
}

TEST_CASE("scan: in place, strided and overlapping views, N-D arrays", "[scan]") {
  anycl::test::env e;
  const auto host = random_values<std::int32_t>(big, 9);
  const auto want = host_inclusive(host, anycl::scan_operator::plus);

  auto a = anycl::array<std::int32_t>::from_host(e.queue, host);
  anycl::inclusive_scan(a, a);
  CHECK(a.to_host() == want);
  a.set(host);
  anycl::exclusive_scan(a, a, 5);
  CHECK(a.to_host() == host_exclusive(host, 5, anycl::scan_operator::plus));

  // Every other element in, into every third element of a larger array.
  auto src = anycl::array<std::int32_t>::from_host(e.queue, host);
  auto even = src.slice(0, 0, big, 2);
  std::vector<std::int32_t> even_host;
  for (std::size_t i = 0; i < big; i += 2) even_host.push_back(host[i]);
  auto dst = anycl::array<std::int32_t>::zeros(e.queue, 3 * even.size());
  auto every_third = dst.slice(0, 0, dst.size(), 3);
  anycl::inclusive_scan(even, every_third);
  const auto got = dst.to_host();
  const auto even_want = host_inclusive(even_host, anycl::scan_operator::plus);
  std::vector<std::int32_t> got_third, zeros_between;
  for (std::size_t i = 0; i < got.size(); ++i)
    (i % 3 == 0 ? got_third : zeros_between).push_back(got[i]);
  CHECK(got_third == even_want);
  CHECK(zeros_between == std::vector<std::int32_t>(zeros_between.size(), 0));

  // Output shifted by one element over the input: goes through a temporary.
  auto both = anycl::array<std::int32_t>::from_host(e.queue, host);
  anycl::inclusive_scan(both.slice(0, big - 1), both.slice(1, big));
  auto shifted = both.to_host();
  CHECK(shifted[0] == host[0]);
  CHECK(std::vector<std::int32_t>(shifted.begin() + 1, shifted.end()) ==
        std::vector<std::int32_t>(want.begin(), want.end() - 1));

  // A 2-D array scanned as its row-major sequence, into a 1-D array; and a transposed view.
  std::vector<float> m(12);
  std::iota(m.begin(), m.end(), 1.0f);
  auto mat = anycl::array<float>::from_host(e.queue, m, {3, 4});
  auto flat = anycl::array<float>(e.queue, 12);
  anycl::inclusive_scan(mat, flat);
  CHECK(flat.to_host() == host_inclusive(m, anycl::scan_operator::plus));
  auto tr = mat.transpose();
  std::vector<float> tr_host;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) tr_host.push_back(m[r * 4 + c]);
  auto tr_out = anycl::array<float>(e.queue, {4, 3});
  anycl::inclusive_scan(tr, tr_out);
  CHECK(tr_out.to_host() == host_inclusive(tr_host, anycl::scan_operator::plus));

  // A view with an offset (kernel arguments carry it).
  auto tail = src.slice(10, big);
  auto tail_out = anycl::array<std::int32_t>(e.queue, big - 10);
  anycl::inclusive_scan(tail, tail_out);
  CHECK(tail_out.to_host() ==
        host_inclusive(std::vector<std::int32_t>(host.begin() + 10, host.end()),
                       anycl::scan_operator::plus));
}

TEST_CASE("scan: errors name both arrays and bad operators", "[scan]") {
  anycl::test::env e;
  auto a = anycl::array<float>::zeros(e.queue, 10);
  auto b = anycl::array<float>::zeros(e.queue, 11);
  REQUIRE_THROWS_WHAT(
      anycl::inclusive_scan(a, b), std::invalid_argument,
      Contains("inclusive_scan") && Contains("10 elements") && Contains("11 elements"));
  REQUIRE_THROWS_WHAT(anycl::exclusive_scan(b, a, 0.0f), std::invalid_argument,
                      Contains("exclusive_scan") && Contains("(11)") && Contains("(10)"));
  auto c = anycl::array<std::int32_t>::zeros(e.queue, 10);
  REQUIRE_THROWS_WHAT(anycl::detail::scan(a.core(), c.core(), {}, nullptr, "inclusive_scan"),
                      std::invalid_argument, Contains("float") && Contains("int"));
  REQUIRE_THROWS_WHAT(anycl::inclusive_scan(anycl::array<float>(), a), std::invalid_argument,
                      Contains("input array is empty"));
  REQUIRE_THROWS_WHAT(anycl::inclusive_scan(a, anycl::array<float>()), std::invalid_argument,
                      Contains("output array is empty"));
  REQUIRE_THROWS_WHAT(anycl::scan_op("", "0"), std::invalid_argument,
                      Contains("expression is empty"));
  REQUIRE_THROWS_WHAT(anycl::scan_op("a + b", " "), std::invalid_argument,
                      Contains("identity is empty"));
  REQUIRE_THROWS_WHAT(anycl::scan_op("a +\nb", "0"), std::invalid_argument, Contains("line break"));
  REQUIRE_THROWS_AS(anycl::inclusive_scan(a, a, anycl::scan_op("a +* b", "0")), anycl::build_error);
  REQUIRE_THROWS_AS(anycl::inclusive_scan(a, a, anycl::scan_op("a + c", "0")), anycl::build_error);
}
