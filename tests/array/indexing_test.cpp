// SPDX-License-Identifier: Apache-2.0
// take, put, searchsorted, flip, concatenate and stack against host loops, at sizes 0, 1, a
// prime and 2^20 + 3, on contiguous, strided and transposed views, with every index mode and the
// errors that name the index, axis and shapes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "anycl/indexing.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

// Indices into n elements from a fixed sequence, some negative (from the end).
std::vector<std::int64_t> indices(std::size_t count, std::size_t n, unsigned seed) {
  std::vector<std::int64_t> v(count);
  std::uint64_t s = 0x9E3779B97F4A7C15ull * (seed + 1);
  for (std::int64_t& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const auto i = static_cast<std::int64_t>((s >> 33) % n);
    x = (s >> 20) % 4 == 0 ? i - static_cast<std::int64_t>(n) : i;
  }
  return v;
}

std::size_t wrap(std::int64_t i, std::size_t n) {
  const auto m = static_cast<std::int64_t>(n);
  return static_cast<std::size_t>(((i % m) + m) % m);
}

}  // namespace

TEST_CASE("indexing: take gathers by flat index and along an axis, in every mode", "[indexing]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<float> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<float>(i) * 0.5f;
    auto a = anycl::array<float>::from_host(e.queue, h);
    if (n == 0) {
      auto none = anycl::array<std::int64_t>::zeros(e.queue, 0);
      CHECK(anycl::take(a, none).size() == 0);
      REQUIRE_THROWS_WHAT(anycl::take(a, anycl::array<std::int64_t>::zeros(e.queue, 2)),
                          std::out_of_range,
                          Contains("anycl::take: 2 elements taken from an array of 0 elements"));
      continue;
    }
    const auto hi = indices(n + 5, n, 1);
    auto idx = anycl::array<std::int64_t>::from_host(e.queue, hi);
    std::vector<float> want(hi.size());
    for (std::size_t k = 0; k < hi.size(); ++k) want[k] = h[wrap(hi[k], n)];
    CHECK(anycl::take(a, idx).to_host() == want);
    // 32-bit unsigned indices, and indices past the end wrapped or clipped.
    std::vector<std::uint32_t> hu = {0, static_cast<std::uint32_t>(n - 1),
                                     static_cast<std::uint32_t>(n),
                                     3u * static_cast<std::uint32_t>(n) + 1};
    auto iu = anycl::array<std::uint32_t>::from_host(e.queue, hu);
    std::vector<float> wrapped, clipped;
    for (std::uint32_t i : hu) {
      wrapped.push_back(h[i % n]);
      clipped.push_back(h[std::min<std::size_t>(i, n - 1)]);
    }
    CHECK(anycl::take(a, iu, anycl::index_mode::wrap).to_host() == wrapped);
    CHECK(anycl::take(a, iu, anycl::index_mode::clip).to_host() == clipped);
    REQUIRE_THROWS_WHAT(anycl::take(a, iu), std::out_of_range,
                        Contains("anycl::take: index " + std::to_string(n) +
                                 " (at position 2 of the indices) is out of range for an array "
                                 "of " +
                                 std::to_string(n) + " elements"));
  }
}

TEST_CASE("indexing: take along an axis of strided and transposed views", "[indexing]") {
  anycl::test::env e;
  const std::size_t rows = 5, cols = 7919;
  std::vector<std::int32_t> h(rows * cols);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::int32_t>(i * 3 % 1000003);
  auto m = anycl::array<std::int32_t>::from_host(e.queue, h, {rows, cols});
  const std::vector<std::int64_t> pick = {4, -1, 0, 2, 2};
  auto idx = anycl::array<std::int64_t>::from_host(e.queue, pick, {5, 1});
  // Along axis 0: rows 4, 4, 0, 2, 2 in a (5, 1, cols) result.
  auto r0 = anycl::take(m, idx, anycl::axis{0});
  REQUIRE(r0.shape() == anycl::shape{5, 1, cols});
  std::vector<std::int32_t> want;
  for (std::int64_t p : pick)
    for (std::size_t c = 0; c < cols; ++c) want.push_back(h[wrap(p, rows) * cols + c]);
  CHECK(r0.to_host() == want);
  // Along axis 1 of the transposed view (cols, rows) and of a strided view: through their
  // elements as the host sees them.
  auto t = m.transpose();
  const auto vt = host_gather(h, t);
  auto r1 = anycl::take(t, idx, anycl::axis{1});
  REQUIRE(r1.shape() == anycl::shape{cols, 5, 1});
  want.clear();
  for (std::size_t c = 0; c < cols; ++c)
    for (std::int64_t p : pick) want.push_back(vt[c * rows + wrap(p, rows)]);
  CHECK(r1.to_host() == want);
  auto s = m.slice(1, 1, cols, 3);  // every third column from 1
  const auto vs = host_gather(h, s);
  const std::size_t sc = s.shape()[1];
  auto cidx =
      anycl::array<std::int64_t>::from_host(e.queue, {0, static_cast<std::int64_t>(sc) - 1});
  want.clear();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c : {std::size_t{0}, sc - 1}) want.push_back(vs[r * sc + c]);
  CHECK(anycl::take(s, cidx, anycl::axis{1}).to_host() == want);
  // Errors name the axis and shape.
  REQUIRE_THROWS_WHAT(anycl::take(m, idx, anycl::axis{2}), std::invalid_argument,
                      Contains("anycl::take: axis 2 of an operand of shape (5, 7919)"));
  auto bad = anycl::array<std::int64_t>::from_host(e.queue, {1, -6});
  REQUIRE_THROWS_WHAT(anycl::take(m, bad, anycl::axis{0}), std::out_of_range,
                      Contains("index -6 (at position 1 of the indices) is out of range for axis "
                               "0 of extent 5 of shape (5, 7919)"));
  auto big = anycl::array<std::int64_t>::zeros(e.queue, {1, 1, 1, 1, 1, 1, 1, 1});
  REQUIRE_THROWS_WHAT(anycl::take(m, big, anycl::axis{1}), std::invalid_argument,
                      Contains("along axis 1 of shape (5, 7919) give 9 dimensions (at most 8)"));
}

TEST_CASE("indexing: put scatters, the last of duplicate indices winning", "[indexing]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    if (n == 0) {
      auto a = anycl::array<float>::zeros(e.queue, 0);
      anycl::put(a, anycl::array<std::int64_t>::zeros(e.queue, 0), a);
      REQUIRE_THROWS_WHAT(anycl::put(a, anycl::array<std::int64_t>::zeros(e.queue, 1),
                                     anycl::array<float>::zeros(e.queue, 1)),
                          std::out_of_range, Contains("1 indices into an array of 0 elements"));
      continue;
    }
    std::vector<float> h(n, -1.0f);
    auto a = anycl::array<float>::from_host(e.queue, h);
    // Twice as many indices as elements: duplicates are certain.
    const auto hi = indices(2 * n, n, 2);
    std::vector<float> hv(hi.size());
    for (std::size_t k = 0; k < hv.size(); ++k) hv[k] = static_cast<float>(k);
    auto idx = anycl::array<std::int64_t>::from_host(e.queue, hi);
    anycl::put(a, idx, anycl::array<float>::from_host(e.queue, hv));
    for (std::size_t k = 0; k < hi.size(); ++k) h[wrap(hi[k], n)] = hv[k];  // the last one wins
    CHECK(a.to_host() == h);
    // Fewer values than indices repeat; an index out of range writes nothing.
    auto two = anycl::array<float>::from_host(e.queue, {7.0f, 8.0f});
    auto four = anycl::array<std::int64_t>::from_host(
        e.queue, {0, static_cast<std::int64_t>(n) - 1, 0, static_cast<std::int64_t>(n) - 1});
    anycl::put(a, four, two);
    h[0] = 7.0f;
    h[n - 1] = 8.0f;
    CHECK(a.to_host() == h);
    auto past = anycl::array<std::int64_t>::from_host(e.queue, {0, static_cast<std::int64_t>(n)});
    REQUIRE_THROWS_WHAT(anycl::put(a, past, two), std::out_of_range,
                        Contains("anycl::put: index " + std::to_string(n) + " (at position 1"));
    CHECK(a.to_host() == h);
    anycl::put(a, past, two, anycl::index_mode::wrap);
    h[0] = 8.0f;  // index n wraps to 0 and comes last
    CHECK(a.to_host() == h);
  }
}

TEST_CASE("indexing: put into a strided view, and put's errors", "[indexing]") {
  anycl::test::env e;
  std::vector<double> h(12, 0.0);
  auto m = anycl::array<double>::from_host(e.queue, h, {3, 4});
  auto col = m.slice(1, 1, 2);  // column 1, shape (3, 1)
  anycl::put(col, anycl::array<std::int32_t>::from_host(e.queue, {2, -3}),
             anycl::array<double>::from_host(e.queue, {5.0, 6.0}));
  h[2 * 4 + 1] = 5.0;
  h[0 * 4 + 1] = 6.0;
  CHECK(m.to_host() == h);
  auto row = anycl::broadcast_to(anycl::array<double>::zeros(e.queue, {1, 4}), {3, 4});
  auto i1 = anycl::array<std::int32_t>::zeros(e.queue, 1);
  REQUIRE_THROWS_WHAT(anycl::put(row, i1, m), std::invalid_argument,
                      Contains("anycl::put") && Contains("broadcast view"));
  REQUIRE_THROWS_WHAT(anycl::put(m, i1, anycl::array<double>::zeros(e.queue, 0)),
                      std::invalid_argument, Contains("anycl::put: no values for 1 indices"));
  REQUIRE_THROWS_WHAT(anycl::put(m, anycl::array<std::int32_t>(), m), std::invalid_argument,
                      Contains("anycl::put: the index array is empty"));
}

TEST_CASE("indexing: searchsorted against std::lower_bound and std::upper_bound", "[indexing]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<float> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = std::floor(static_cast<float>(i) / 3.0f);
    if (n > 2) h[n - 1] = NAN;  // NaN sorts last
    auto a = anycl::array<float>::from_host(e.queue, h);
    std::vector<float> hv = {-1.0f, 0.0f, 0.5f, 1.0f, static_cast<float>(n / 6), 1e9f, NAN};
    auto v = anycl::array<float>::from_host(e.queue, hv, {7, 1});
    const auto before = [](float x, float y) { return x < y || (std::isnan(y) && !std::isnan(x)); };
    std::vector<std::uint64_t> left, right;
    for (float x : hv) {
      left.push_back(std::lower_bound(h.begin(), h.end(), x, before) - h.begin());
      right.push_back(std::upper_bound(h.begin(), h.end(), x, before) - h.begin());
    }
    auto l = anycl::searchsorted(a, v);
    CHECK(l.shape() == anycl::shape{7, 1});
    CHECK(l.to_host() == left);
    CHECK(anycl::searchsorted(a, v, anycl::side::right).to_host() == right);
  }
  auto m = anycl::array<float>::zeros(e.queue, {2, 2});
  REQUIRE_THROWS_WHAT(anycl::searchsorted(m, m), std::invalid_argument,
                      Contains("anycl::searchsorted: the sorted array has shape (2, 2) (it must "
                               "be 1-D)"));
}

TEST_CASE("indexing: flip, concatenate and stack against the host", "[indexing]") {
  anycl::test::env e;
  std::vector<std::int16_t> h(2 * 3 * 5);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<std::int16_t>(i);
  auto a = anycl::array<std::int16_t>::from_host(e.queue, h, {2, 3, 5});
  // flip along axis 1: element (i, j, k) from (i, 2 - j, k); flip of all axes reverses.
  std::vector<std::int16_t> want;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 5; ++k) want.push_back(h[(i * 3 + (2 - j)) * 5 + k]);
  CHECK(anycl::flip(a, 1).to_host() == want);
  CHECK(anycl::flip(a).to_host() == std::vector<std::int16_t>(h.rbegin(), h.rend()));
  CHECK(anycl::flip(a.transpose()).shape() == anycl::shape{5, 3, 2});
  REQUIRE_THROWS_WHAT(anycl::flip(a, 3), std::invalid_argument, Contains("anycl::flip: axis 3"));
  // concatenate along axis 2 with a strided view of another shape there, and stack.
  auto b = a.slice(2, 0, 5, 2);  // (2, 3, 3): columns 0, 2, 4
  const auto vb = host_gather(h, b);
  auto c = anycl::concatenate<std::int16_t>({a, b}, 2);
  REQUIRE(c.shape() == anycl::shape{2, 3, 8});
  want.clear();
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t k = 0; k < 5; ++k) want.push_back(h[r * 5 + k]);
    for (std::size_t k = 0; k < 3; ++k) want.push_back(vb[r * 3 + k]);
  }
  CHECK(c.to_host() == want);
  auto s = anycl::stack<std::int16_t>({a, a}, 3);
  REQUIRE(s.shape() == anycl::shape{2, 3, 5, 2});
  want.clear();
  for (std::int16_t x : h) want.insert(want.end(), {x, x});
  CHECK(s.to_host() == want);
  CHECK(anycl::concatenate<std::int16_t>({a, a}).shape() == anycl::shape{4, 3, 5});
  REQUIRE_THROWS_WHAT(anycl::concatenate<std::int16_t>({a, b}, 1), std::invalid_argument,
                      Contains("anycl::concatenate: array 1 has shape (2, 3, 3), array 0 (2, 3, "
                               "5) (they may differ only along axis 1)"));
  REQUIRE_THROWS_WHAT(
      anycl::stack<std::int16_t>({a, b}), std::invalid_argument,
      Contains("anycl::stack: array 1 has shape (2, 3, 3)") && Contains("(they must be equal)"));
  REQUIRE_THROWS_WHAT(anycl::concatenate<std::int16_t>({}), std::invalid_argument,
                      Contains("anycl::concatenate: no arrays to join"));
  REQUIRE_THROWS_WHAT(anycl::concatenate<std::int16_t>({a}, 3), std::invalid_argument,
                      Contains("anycl::concatenate: axis 3 of arrays of shape (2, 3, 5)"));
  // Operands of another context are refused by every operation.
  anycl::test::env other{anycl::test::fresh_context};
  auto elsewhere = anycl::array<std::int16_t>::zeros(other.queue, {2, 3, 5});
  REQUIRE_THROWS_WHAT(anycl::concatenate<std::int16_t>({a, elsewhere}), std::invalid_argument,
                      Contains("array 1 belongs to another context than array 0"));
  auto idx = anycl::array<std::int32_t>::zeros(other.queue, 1);
  REQUIRE_THROWS_WHAT(anycl::take(a, idx), std::invalid_argument,
                      Contains("anycl::take: the indices belong to another context"));
  REQUIRE_THROWS_WHAT(anycl::put(a, anycl::array<std::int32_t>::zeros(e.queue, 1), elsewhere),
                      std::invalid_argument,
                      Contains("anycl::put: the values belong to another context"));
  REQUIRE_THROWS_WHAT(anycl::searchsorted(a.reshape(anycl::shape(30)), elsewhere),
                      std::invalid_argument,
                      Contains("anycl::searchsorted: the values belong to another context"));
  auto fi = anycl::array<float>::zeros(e.queue, 1);
  anycl::detail::index_request r(anycl::detail::index_op::take, a.core(), "test");
  r.indices = &fi.core();  // the templates refuse float indices at compile time
  REQUIRE_THROWS_WHAT(anycl::detail::index_builtin(r), std::invalid_argument,
                      Contains("test: indices of type float (an integer type is needed)"));
}

TEST_CASE("indexing: compress, flatnonzero and nonzero keep the order of the selection",
          "[indexing]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<float> h(n);
    std::uint32_t st = 12345;
    for (float& x : h) {
      st = st * 1664525u + 1013904223u;
      x = static_cast<float>(st >> 8) * (1.0f / 16777216.0f);
    }
    auto x = anycl::array<float>::from_host(e.queue, h);
    std::vector<float> want;
    std::vector<std::uint64_t> where;
    for (std::size_t k = 0; k < n; ++k)
      if (h[k] > 0.7f) {
        want.push_back(h[k]);
        where.push_back(k);
      }
    CHECK(anycl::compress(x > 0.7f, x).to_host() == want);
    CHECK(anycl::flatnonzero(x > 0.7f).to_host() == where);
    // An array as the mask, and a mask that selects nothing or everything.
    const anycl::array<std::int32_t> m = x > 0.7f;
    CHECK(anycl::compress(m, x).to_host() == want);
    CHECK(anycl::compress(x > 2.0f, x).size() == 0);
    CHECK(anycl::compress(x < 2.0f, x).to_host() == h);
  }
  // Of a transposed matrix, in the view's order; nonzero's per-axis indices.
  const std::size_t rows = 37, cols = 101;
  std::vector<std::int32_t> h(rows * cols);
  for (std::size_t i = 0; i < h.size(); ++i)
    h[i] = (i * 7) % 5 == 0 ? static_cast<std::int32_t>(i) : 0;
  auto m = anycl::array<std::int32_t>::from_host(e.queue, h, {rows, cols});
  auto t = m.transpose();  // (cols, rows)
  const auto vt = host_gather(h, t);
  std::vector<std::int32_t> want;
  std::vector<std::uint64_t> r, c;
  for (std::size_t k = 0; k < vt.size(); ++k)
    if (vt[k] != 0) {
      want.push_back(vt[k]);
      r.push_back(k / rows);
      c.push_back(k % rows);
    }
  CHECK(anycl::compress(t, t).to_host() == want);
  const auto nz = anycl::nonzero(t);
  REQUIRE(nz.size() == 2);
  CHECK(nz[0].to_host() == r);
  CHECK(nz[1].to_host() == c);
  CHECK(anycl::nonzero(t > 1000000)[1].size() == 0);
  REQUIRE_THROWS_WHAT(anycl::compress(m > 0, anycl::array<std::int32_t>::zeros(e.queue, 5)),
                      std::invalid_argument,
                      Contains("anycl::compress: a mask of shape (37, 101) for an array of shape "
                               "(5) (they need as many elements)"));
  anycl::test::env other{anycl::test::fresh_context};
  REQUIRE_THROWS_WHAT(
      anycl::compress(m > 0, anycl::array<std::int32_t>::zeros(other.queue, h.size())),
      std::invalid_argument,
      Contains("anycl::compress: the array belongs to another context than the "
               "mask"));
}
