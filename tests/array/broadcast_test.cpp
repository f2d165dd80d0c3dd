// SPDX-License-Identifier: Apache-2.0
// Broadcasting by numpy's rule: broadcast_shapes, the views broadcast_to, expand_dims and squeeze,
// element-wise expressions and assignments whose operands stretch (contiguous, strided and
// transposed views, sizes 0, 1, a prime and 2^20 + 3), read-only broadcast views, and arrays of
// up to 8 dimensions through copies, fills, reductions and expressions. Host loops are the
// reference.
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using anycl::test::host_gather;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::size_t> sizes = {0, 1, 7919, (std::size_t{1} << 20) + 3};

std::vector<float> host_values(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(i % 1013) - 7.0f;
  return v;
}

// out[r][c] = f(a(r, c), b(r, c)) where a and b are read through their broadcast views.
template <class F>
std::vector<float> host_binary(const std::vector<float>& ha, const anycl::array<float>& a,
                               const std::vector<float>& hb, const anycl::array<float>& b,
                               const anycl::shape& s, F f) {
  const auto va = host_gather(ha, anycl::broadcast_to(a, s));
  const auto vb = host_gather(hb, anycl::broadcast_to(b, s));
  std::vector<float> out(va.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = f(va[i], vb[i]);
  return out;
}

}  // namespace

TEST_CASE("broadcast: broadcast_shapes follows numpy's rule and names the axis it refuses",
          "[broadcast]") {
  CHECK(anycl::broadcast_shapes({3, 1}, {4}) == anycl::shape{3, 4});
  CHECK(anycl::broadcast_shapes({1}, {5, 1, 7}) == anycl::shape{5, 1, 7});
  CHECK(anycl::broadcast_shapes({2, 1, 4}, {3, 1}) == anycl::shape{2, 3, 4});
  CHECK(anycl::broadcast_shapes({0, 1}, {1, 5}) == anycl::shape{0, 5});
  CHECK(anycl::broadcast_shapes({6}, {6}) == anycl::shape{6});
  REQUIRE_THROWS_WHAT(anycl::broadcast_shapes({2, 3}, {3, 3}), std::invalid_argument,
                      Contains("anycl::broadcast_shapes: shapes (2, 3) and (3, 3) do not "
                               "broadcast (axis 0 of the result: extents 2 and 3)"));
  REQUIRE_THROWS_WHAT(anycl::broadcast_shapes({4}, {2, 5}), std::invalid_argument,
                      Contains("(4) and (2, 5)") && Contains("axis 1"));
}

TEST_CASE("broadcast: broadcast_to, expand_dims and squeeze are views of the same elements",
          "[broadcast]") {
  anycl::test::env e;
  const std::vector<float> h = host_values(12, 0.5f);
  auto a = anycl::array<float>::from_host(e.queue, h, {3, 1, 4});

  auto b = anycl::broadcast_to(a, {2, 3, 5, 4});
  CHECK(b.shape() == anycl::shape{2, 3, 5, 4});
  CHECK(b.strides()[0] == 0);
  CHECK(b.strides()[2] == 0);
  CHECK(b.buffer().get() == a.buffer().get());
  CHECK(b.to_host() == host_gather(h, b));
  REQUIRE_THROWS_WHAT(anycl::broadcast_to(a, {3, 2, 5}), std::invalid_argument,
                      Contains("anycl::broadcast_to: an array of shape (3, 1, 4) does not "
                               "broadcast to (3, 2, 5)"));
  REQUIRE_THROWS_WHAT(anycl::broadcast_to(a, {1, 4}), std::invalid_argument,
                      Contains("(3, 1, 4) does not broadcast to (1, 4)"));

  auto x = anycl::expand_dims(a, 3);
  CHECK(x.shape() == anycl::shape{3, 1, 4, 1});
  CHECK(x.to_host() == h);
  CHECK(anycl::expand_dims(a, 0).shape() == anycl::shape{1, 3, 1, 4});
  REQUIRE_THROWS_WHAT(anycl::expand_dims(a, 4), std::invalid_argument,
                      Contains("axis 4 for an array of 3 dimensions (the new axis goes at 0..3)"));
  auto eight = anycl::array<float>::zeros(e.queue, {1, 1, 1, 1, 1, 1, 1, 2});
  REQUIRE_THROWS_WHAT(anycl::expand_dims(eight, 0), std::invalid_argument,
                      Contains("already has 8 dimensions"));

  auto sq = anycl::squeeze(a);
  CHECK(sq.shape() == anycl::shape{3, 4});
  CHECK(sq.to_host() == h);
  CHECK(anycl::squeeze(a, 1).shape() == anycl::shape{3, 4});
  CHECK(anycl::squeeze(anycl::array<float>::zeros(e.queue, {1, 1})).shape() == anycl::shape{1});
  // A transposed view keeps its strides through expand_dims and squeeze.
  auto t = sq.transpose();
  auto t3 = anycl::expand_dims(t, 1);
  CHECK(t3.to_host() == host_gather(h, t));
  CHECK(anycl::squeeze(t3, 1).to_host() == host_gather(h, t));
  REQUIRE_THROWS_WHAT(anycl::squeeze(a, 2), std::invalid_argument,
                      Contains("axis 2 of (3, 1, 4) has extent 4, not 1"));
  REQUIRE_THROWS_WHAT(anycl::squeeze(a, 3), std::invalid_argument,
                      Contains("axis 3 of an array with 3 dimensions"));
  REQUIRE_THROWS_WHAT(anycl::squeeze(anycl::array<float>::zeros(e.queue, 1), 0),
                      std::invalid_argument, Contains("has one axis"));
  REQUIRE_THROWS_WHAT(anycl::squeeze(anycl::array<float>()), std::invalid_argument,
                      Contains("anycl::squeeze: the array is empty"));
}

TEST_CASE("broadcast: a matrix minus a row, a column and an outer product, against the host",
          "[broadcast]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    const std::size_t rows = n > 10000 ? 2 : 3;
    INFO("rows = " << rows << ", n = " << n);
    const auto hm = host_values(rows * n, 0.25f);
    const auto hr = host_values(n, 1.5f);
    const auto hc = host_values(rows, 3.0f);
    auto m = anycl::array<float>::from_host(e.queue, hm, {rows, n});
    auto row2 = anycl::array<float>::from_host(e.queue, hr, {1, n});
    auto row1 = anycl::array<float>::from_host(e.queue, hr);
    auto col = anycl::array<float>::from_host(e.queue, hc, {rows, 1});
    const anycl::shape s{rows, n};
    auto minus = [](float x, float y) { return x - y; };

    anycl::array<float> d2 = m - row2;
    CHECK(d2.shape() == s);
    CHECK(d2.to_host() == host_binary(hm, m, hr, row2, s, minus));
    anycl::array<float> d1 = m - row1;  // a missing leading axis
    CHECK(d1.to_host() == host_binary(hm, m, hr, row1, s, minus));
    anycl::array<float> dc = m - col;
    CHECK(dc.to_host() == host_binary(hm, m, hc, col, s, minus));
    // No operand has the result's shape: (rows, 1) * (n) is (rows, n).
    anycl::array<float> outer = col * row1;
    CHECK(outer.shape() == s);
    CHECK(outer.to_host() ==
          host_binary(hc, col, hr, row1, s, [](float x, float y) { return x * y; }));

    // Strided and transposed operands: every other element of a row twice as long, and the
    // matrix given as the transposed view of its (n, rows) transpose.
    const auto hr_long = host_values(2 * n, 1.5f);
    auto row_strided = anycl::array<float>::from_host(e.queue, hr_long).slice(0, 0, 2 * n, 2);
    auto mt = anycl::array<float>::from_host(e.queue, hm, {n, rows}).transpose();
    anycl::array<float> ds = mt + row_strided;
    CHECK(ds.to_host() ==
          host_binary(hm, mt, hr_long, row_strided, s, [](float x, float y) { return x + y; }));
  }
}

TEST_CASE("broadcast: assignments broadcast the value to the destination, never the reverse",
          "[broadcast]") {
  anycl::test::env e;
  const std::size_t rows = 4, n = 7919;
  const auto hr = host_values(n, 2.0f);
  auto row = anycl::array<float>::from_host(e.queue, hr);
  auto m = anycl::array<float>::zeros(e.queue, {rows, n});
  std::vector<float> want;
  for (std::size_t r = 0; r < rows; ++r) want.insert(want.end(), hr.begin(), hr.end());

  m.assign(row);  // a copy with broadcasting, no kernel of its own
  CHECK(m.to_host() == want);
  m.fill(0.0f);
  m = row * 2.0f;  // an expression of shape (n) into a (rows, n) array
  std::vector<float> twice(want);
  for (float& v : twice) v *= 2.0f;
  CHECK(m.to_host() == twice);
  // Into a transposed view: the value still broadcasts along the view's own axes.
  auto mt = anycl::array<float>::zeros(e.queue, {n, rows});
  auto view = mt.transpose();
  view = row + 0.0f;
  CHECK(view.to_host() == want);

  // Row 0 of m broadcast over m itself: the kernel reads what it writes, so it goes through a
  // temporary.
  m = m - m.slice(0, 0, 1);
  CHECK(m.to_host() == std::vector<float>(rows * n, 0.0f));

  auto col = anycl::array<float>::zeros(e.queue, {rows, 1});
  REQUIRE_THROWS_WHAT(col = m + 1.0f, std::invalid_argument,
                      Contains("anycl expression: assigning an expression of shape (4, 7919) to "
                               "an array of shape (4, 1)"));
  REQUIRE_THROWS_WHAT(col.assign(m), std::invalid_argument,
                      Contains("array::assign: an array of shape (4, 7919) does not broadcast to "
                               "(4, 1)"));
  auto other = anycl::array<float>::zeros(e.queue, {3, n});
  REQUIRE_THROWS_WHAT(anycl::eval(m + other), std::invalid_argument,
                      Contains("shapes (4, 7919) and (3, 7919) do not broadcast (axis 0 of the "
                               "result: extents 4 and 3)"));
}

TEST_CASE("broadcast: a broadcast view is read-only", "[broadcast]") {
  anycl::test::env e;
  auto row = anycl::array<float>::from_host(e.queue, host_values(5, 1.0f));
  auto b = anycl::broadcast_to(row, {3, 5});
  const std::string repeat = "the destination (3, 5) is a broadcast view (stride 0 along axis 0)";
  REQUIRE_THROWS_WHAT(b.fill(1.0f), std::invalid_argument, Contains("array::fill: " + repeat));
  REQUIRE_THROWS_WHAT(b = row + 1.0f, std::invalid_argument,
                      Contains("anycl expression: " + repeat));
  REQUIRE_THROWS_WHAT(b.assign(row), std::invalid_argument, Contains("array::assign: " + repeat));
  REQUIRE_THROWS_WHAT(b.set(std::vector<float>(15)), std::invalid_argument,
                      Contains("array::set: " + repeat));
  CHECK(row.to_host() == host_values(5, 1.0f));  // nothing was written
  // Reading it is fine: a dense copy, and a reduction over the repeated elements.
  CHECK(b.copy().strides()[0] == 5);
  CHECK(anycl::sum(b) == 3.0f * anycl::sum(row));  // integers: exact in float
}

TEST_CASE("broadcast: arrays of up to 8 dimensions copy, fill, reduce and compute", "[broadcast]") {
  anycl::test::env e;
  // Six axes of extent above 1 with their order reversed: no two of them merge, so the copies and
  // fills go in blocks of 4 axes and the reductions from a dense copy.
  const anycl::shape s{2, 3, 1, 2, 3, 2, 1, 5};
  std::vector<float> h(s.size());
  std::iota(h.begin(), h.end(), 1.0f);
  auto a = anycl::array<float>::from_host(e.queue, h, s);
  auto t = a.transpose();
  CHECK(t.dims() == 8);
  const std::vector<float> ht = host_gather(h, t);
  CHECK(t.to_host() == ht);
  CHECK(t.copy().to_host() == ht);
  // Integers under 2^24 throughout: exact in float.
  CHECK(anycl::sum(t) == std::accumulate(h.begin(), h.end(), 0.0f));
  CHECK(anycl::max(t) == static_cast<float>(s.size()));
  CHECK(anycl::dot(t, t) == std::inner_product(h.begin(), h.end(), h.begin(), 0.0f));

  // Along axis 3 of the transpose (extent 3): the other 7 axes, 5 of them above extent 1, do not
  // collapse under 5, so this one reduces a dense copy.
  auto r = anycl::sum(t, anycl::axis{3});
  CHECK(r.shape() == anycl::shape{5, 1, 2, 2, 1, 3, 2});
  std::vector<float> want(r.size());
  const auto& ts = t.shape();
  for (std::size_t k = 0; k < ht.size(); ++k) {
    std::size_t rest = k, out = 0, stride = 1;
    for (unsigned d = 8; d-- > 0;) {
      const std::size_t i = rest % ts[d];
      rest /= ts[d];
      if (d == 3) continue;
      out += i * stride;
      stride *= ts[d];
    }
    want[out] += ht[k];
  }
  CHECK(r.to_host() == want);

  // An 8-D expression: strided and broadcast operands through the 8-lane index.
  auto col = anycl::array<float>::from_host(e.queue, std::vector<float>{10, 20, 30, 40, 50},
                                            {5, 1, 1, 1, 1, 1, 1, 1});
  anycl::array<float> sum8 = t * 2.0f + col;
  CHECK(sum8.shape() == t.shape());
  std::vector<float> hsum(ht.size());
  const auto hcol = host_gather(col.to_host(), anycl::broadcast_to(col, t.shape()));
  for (std::size_t k = 0; k < ht.size(); ++k) hsum[k] = ht[k] * 2.0f + hcol[k];
  CHECK(sum8.to_host() == hsum);
  t = t - t;  // into the transposed view of a itself, in place
  CHECK(a.to_host() == std::vector<float>(s.size(), 0.0f));
  t.fill(4.0f);
  CHECK(a.to_host() == std::vector<float>(s.size(), 4.0f));
}
