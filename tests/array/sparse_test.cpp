// SPDX-License-Identifier: Apache-2.0
// csr_matrix and spmv: assembly from triplets and CSR arrays, products against a host reference
// for random matrices of many shapes and every element type, views, the CPU row partition, errors.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "anycl/sparse.hpp"
#include "arrays/launch_plan.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;
using u32 = std::uint32_t;

namespace {

template <class T>
struct triplets {
  std::size_t rows = 0, cols = 0;
  std::vector<u32> r, c;
  std::vector<T> v;
};

template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>)
    return std::uniform_real_distribution<T>(-1, 1)(rng);
  else if constexpr (std::is_signed_v<T>)
    return static_cast<T>(std::uniform_int_distribution<int>(-100, 100)(rng));
  else
    return static_cast<T>(std::uniform_int_distribution<unsigned>(0, 100)(rng));
}

// A random matrix: each row empty with probability `empty`, else about `per_row` entries at
// random columns (repeats included), plus optionally one row with `heavy` entries.
template <class T>
triplets<T> random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols, double per_row,
                          double empty, std::size_t heavy = 0) {
  triplets<T> m;
  m.rows = rows;
  m.cols = cols;
  if (cols == 0) return m;
  std::uniform_int_distribution<std::size_t> col(0, cols - 1);
  std::poisson_distribution<int> count(per_row);
  std::bernoulli_distribution is_empty(empty);
  for (std::size_t r = 0; r < rows; ++r) {
    if (is_empty(rng)) continue;
    const int k = count(rng);
    for (int i = 0; i < k; ++i) {
      m.r.push_back(static_cast<u32>(r));
      m.c.push_back(static_cast<u32>(col(rng)));
      m.v.push_back(random_value<T>(rng));
    }
  }
  if (heavy && rows) {
    const std::size_t r = rows / 2;
    for (std::size_t i = 0; i < heavy; ++i) {
      m.r.push_back(static_cast<u32>(r));
      m.c.push_back(static_cast<u32>(col(rng)));
      m.v.push_back(random_value<T>(rng));
    }
  }
  // Shuffle so that from_triplets has to sort.
  std::vector<std::size_t> p(m.v.size());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = i;
  std::shuffle(p.begin(), p.end(), rng);
  triplets<T> s = m;
  for (std::size_t i = 0; i < p.size(); ++i) {
    s.r[i] = m.r[p[i]];
    s.c[i] = m.c[p[i]];
    s.v[i] = m.v[p[i]];
  }
  return s;
}

// The CSR form of the triplets, built independently: one stable sort by (row, column), then
// equal neighbours summed in input order.
template <class T>
void host_csr(const triplets<T>& m, std::vector<u32>& row_ptr, std::vector<u32>& col_idx,
              std::vector<T>& values) {
  std::vector<std::size_t> p(m.v.size());
  for (std::size_t i = 0; i < p.size(); ++i) p[i] = i;
  std::stable_sort(p.begin(), p.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(m.r[a], m.c[a]) < std::make_pair(m.r[b], m.c[b]);
  });
  row_ptr.assign(m.rows + 1, 0);
  col_idx.clear();
  values.clear();
  for (std::size_t k = 0; k < p.size(); ++k) {
    const std::size_t i = p[k];
    if (k > 0 && m.r[i] == m.r[p[k - 1]] && m.c[i] == m.c[p[k - 1]]) {
      values.back() += m.v[i];
      continue;
    }
    ++row_ptr[m.r[i] + 1];
    col_idx.push_back(m.c[i]);
    values.push_back(m.v[i]);
  }
  for (std::size_t r = 0; r < m.rows; ++r) row_ptr[r + 1] += row_ptr[r];
}

// Checks y against alpha * A x + beta * y0 computed from the triplets (long double for floats,
// wrapping integer arithmetic otherwise). Floats: within the recursive-summation bound
// (row length + 4) * eps * (|alpha| sum |a x| + |beta y0|).
template <class T>
void check_spmv(const triplets<T>& m, const std::vector<T>& x, const std::vector<T>& y0, T alpha,
                T beta, const std::vector<T>& y) {
  REQUIRE(y.size() == m.rows);
  if constexpr (std::is_floating_point_v<T>) {
    std::vector<long double> ref(m.rows, 0), mag(m.rows, 0);
    std::vector<std::size_t> len(m.rows, 0);
    for (std::size_t i = 0; i < m.v.size(); ++i) {
      ref[m.r[i]] += static_cast<long double>(m.v[i]) * x[m.c[i]];
      mag[m.r[i]] += std::fabs(static_cast<long double>(m.v[i]) * x[m.c[i]]);
      ++len[m.r[i]];
    }
    std::size_t bad = 0, first = 0;
    for (std::size_t r = 0; r < m.rows; ++r) {
      const long double b = beta == 0 ? 0.0L : static_cast<long double>(beta) * y0[r];
      const long double want = alpha * ref[r] + b;
      const long double tol = (len[r] + 4) * std::numeric_limits<T>::epsilon() *
                                  (std::fabs(alpha) * mag[r] + std::fabs(b)) +
                              std::numeric_limits<T>::min();
      if (!(std::fabs(y[r] - want) <= tol) && bad++ == 0) first = r;
    }
    INFO("first bad row " << first << " of " << bad);
    CHECK(bad == 0);
  } else {
    std::vector<T> ref(m.rows, T(0));
    for (std::size_t i = 0; i < m.v.size(); ++i)
      ref[m.r[i]] = static_cast<T>(ref[m.r[i]] + m.v[i] * x[m.c[i]]);
    for (std::size_t r = 0; r < m.rows; ++r)
      ref[r] = static_cast<T>(alpha * ref[r] + (beta == 0 ? T(0) : static_cast<T>(beta * y0[r])));
    CHECK((y == ref));  // parenthesised: no million-element printout
  }
}

struct case_ {
  std::size_t rows, cols;
  double per_row, empty;
  std::size_t heavy;
};

}  // namespace

TEMPLATE_TEST_CASE("sparse: spmv equals a host reference on random matrices", "[sparse]", float,
                   double, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t) {
  using T = TestType;
  anycl::test::env e;
  if (std::is_same_v<T, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: csr_matrix<double> not tested");
    return;
  }
  const std::uint64_t seed = 0x5eed0000 + sizeof(T) * 2 + std::is_signed_v<T>;
  std::mt19937_64 rng(seed);
  INFO("seed " << seed);
  std::vector<case_> cases = {
      {0, 0, 0, 0, 0},           {1, 1, 1, 0, 0},
      {1, 1, 0, 1, 0},           {3, 0, 0, 0, 0},
      {0, 5, 0, 0, 0},           {97, 89, 3, 0.3, 0},
      {97, 1, 2, 0.2, 0},        {1, 4001, 50, 0, 0},
      {4099, 3001, 10, 0.25, 0}, {3001, 4099, 10, 0.1, 20000},
  };
  if (std::is_same_v<T, float>) cases.push_back({(std::size_t{1} << 20) + 3, 1 << 20, 3, 0.1, 0});
  for (const case_& c : cases) {
    INFO("rows " << c.rows << " cols " << c.cols << " nnz/row " << c.per_row << " heavy "
                 << c.heavy);
    const triplets<T> m = random_matrix<T>(rng, c.rows, c.cols, c.per_row, c.empty, c.heavy);
    auto A = anycl::csr_matrix<T>::from_triplets(e.queue, m.rows, m.cols, m.r, m.c, m.v);
    std::vector<u32> rp, ci;
    std::vector<T> vals;
    host_csr(m, rp, ci, vals);
    CHECK(A.rows() == m.rows);
    CHECK(A.cols() == m.cols);
    CHECK(A.nnz() == vals.size());
    CHECK((A.row_ptr().to_host() == rp));
    CHECK((A.col_idx().to_host() == ci));
    CHECK((A.values().to_host() == vals));

    std::vector<T> x(m.cols), y0(m.rows);
    for (T& v : x) v = random_value<T>(rng);
    for (T& v : y0) v = random_value<T>(rng);
    auto dx = anycl::array<T>::from_host(e.queue, x);
    auto dy = anycl::array<T>::from_host(e.queue, y0);
    anycl::spmv(A, dx, dy);
    check_spmv<T>(m, x, y0, T(1), T(0), dy.to_host());

    // alpha and beta, through a matrix built from the CSR arrays directly.
    auto B = anycl::csr_matrix<T>::from_csr(e.queue, m.rows, m.cols, rp, ci, vals);
    dy.set(y0);
    const T alpha = T(3), beta = std::is_signed_v<T> ? T(-2) : T(2);
    anycl::spmv(alpha, B, dx, beta, dy);
    check_spmv<T>(m, x, y0, alpha, beta, dy.to_host());
  }
}

TEST_CASE("sparse: beta 0 never reads y; views, offsets and aliasing", "[sparse]") {
  anycl::test::env e;
  std::mt19937_64 rng(11);
  const triplets<float> m = random_matrix<float>(rng, 300, 300, 6, 0.1);
  auto A = anycl::csr_matrix<float>::from_triplets(e.queue, 300, 300, m.r, m.c, m.v);
  std::vector<float> x(300), y0(300);
  for (float& v : x) v = random_value<float>(rng);
  for (float& v : y0) v = random_value<float>(rng);
  auto dx = anycl::array<float>::from_host(e.queue, x);

  // NaN in y stays out of the result when beta is 0.
  auto nan = anycl::array<float>::full(e.queue, 300, std::numeric_limits<float>::quiet_NaN());
  anycl::spmv(2.0f, A, dx, 0.0f, nan);
  check_spmv<float>(m, x, y0, 2.0f, 0.0f, nan.to_host());

  // x a slice with an element offset, y every other element of a longer array.
  std::vector<float> xbig(400, 0.0f);
  std::copy(x.begin(), x.end(), xbig.begin() + 57);
  auto dxbig = anycl::array<float>::from_host(e.queue, xbig);
  std::vector<float> ybig(600, -9.0f);
  for (std::size_t i = 0; i < 300; ++i) ybig[2 * i] = y0[i];
  auto dybig = anycl::array<float>::from_host(e.queue, ybig);
  auto yv = dybig.slice(0, 0, 600, 2);
  anycl::spmv(1.5f, A, dxbig.slice(57, 357), -0.5f, yv);
  check_spmv<float>(m, x, y0, 1.5f, -0.5f, yv.to_host());
  auto all = dybig.to_host();
  for (std::size_t i = 1; i < 600; i += 2) REQUIRE(all[i] == -9.0f);
  anycl::spmv(A, dxbig.slice(57, 357), yv);
  check_spmv<float>(m, x, y0, 1.0f, 0.0f, yv.to_host());

  // y = A y: x is y itself, read before it is written.
  auto d = anycl::array<float>::from_host(e.queue, x);
  anycl::spmv(A, d, d);
  check_spmv<float>(m, x, y0, 1.0f, 0.0f, d.to_host());
}

TEST_CASE("sparse: the CPU row partition is contiguous, covers every row and balances entries",
          "[sparse]") {
  anycl::test::env e;
  std::mt19937_64 rng(5);
  const triplets<float> m = random_matrix<float>(rng, 20000, 20000, 8, 0.2, 40000);
  auto A = anycl::csr_matrix<float>::from_triplets(e.queue, m.rows, m.cols, m.r, m.c, m.v);
  if (!anycl::detail::profile(e.queue).cpu) {
    CHECK(A.row_partition().empty());
    return;
  }
  auto part = A.row_partition().to_host();
  auto rp = A.row_ptr().to_host();
  REQUIRE(part.size() >= 2);
  CHECK(part.front() == 0);
  CHECK(part.back() == m.rows);
  CHECK(std::is_sorted(part.begin(), part.end()));
  const std::size_t parts = part.size() - 1, work = A.nnz() + m.rows;
  std::size_t heaviest_row = 0;
  for (std::size_t r = 0; r < m.rows; ++r)
    heaviest_row = std::max<std::size_t>(heaviest_row, rp[r + 1] - rp[r] + 1);
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t w = rp[part[p + 1]] - rp[part[p]] + (part[p + 1] - part[p]);
    INFO("part " << p << " of " << parts << ": work " << w << " of " << work);
    CHECK(w <= work / parts + heaviest_row + 1);
  }
}

TEST_CASE("sparse: construction and spmv errors", "[sparse]") {
  anycl::test::env e;
  using M = anycl::csr_matrix<float>;
  const std::vector<u32> rp = {0, 2, 2, 3}, ci = {0, 2, 1};
  const std::vector<float> v = {1, 2, 3};
  // from_csr
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 4, 3, rp, ci, v), std::invalid_argument,
                      Contains("csr_matrix::from_csr: row_ptr has 4 entries; a 4 x 3 matrix "
                               "needs rows + 1 = 5"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 3, 3, {1, 2, 2, 3}, ci, v), std::invalid_argument,
                      Contains("row_ptr[0] is 1, not 0"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 3, 3, {0, 2, 1, 3}, ci, v), std::invalid_argument,
                      Contains("row_ptr decreases at row 1 (2 then 1)"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 3, 3, {0, 2, 2, 2}, ci, v), std::invalid_argument,
                      Contains("row_ptr ends at 2 but there are 3 entries"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 3, 3, rp, {0, 2}, v), std::invalid_argument,
                      Contains("2 column indices but 3 values"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, 3, 2, rp, ci, v), std::out_of_range,
                      Contains("entry 1 (row 0) has column 2, outside the 3 x 2 matrix"));
  REQUIRE_THROWS_WHAT(M::from_csr(anycl::command_queue{}, 3, 3, rp, ci, v), std::invalid_argument,
                      Contains("the queue is empty"));
  REQUIRE_THROWS_WHAT(M::from_csr(e.queue, std::size_t{1} << 32, 3, rp, ci, v),
                      std::invalid_argument, Contains("does not fit 32-bit indices"));
  // from_triplets
  REQUIRE_THROWS_WHAT(M::from_triplets(e.queue, 3, 3, {0, 1}, {0, 1, 2}, v), std::invalid_argument,
                      Contains("2 rows, 3 columns and 3 values"));
  REQUIRE_THROWS_WHAT(M::from_triplets(e.queue, 3, 3, {0, 3, 1}, {0, 1, 2}, v), std::out_of_range,
                      Contains("entry 1 (row 3, column 1) is outside the 3 x 3 matrix"));
  REQUIRE_THROWS_WHAT(M::from_triplets(e.queue, 3, 3, {0, 1, 2}, {0, 1, 7}, v), std::out_of_range,
                      Contains("entry 2 (row 2, column 7)"));
  REQUIRE_THROWS_WHAT(M::from_triplets(e.queue, 2, std::size_t{1} << 33, {0}, {0}, {1.0f}),
                      std::invalid_argument, Contains("2 x 8589934592 matrix does not fit"));
  // spmv
  auto A = M::from_csr(e.queue, 3, 3, rp, ci, v);
  auto x3 = anycl::array<float>::zeros(e.queue, 3), x4 = anycl::array<float>::zeros(e.queue, 4);
  REQUIRE_THROWS_WHAT(anycl::spmv(A, x4, x3), std::invalid_argument,
                      Contains("spmv: x has 4 elements for a 3 x 3 matrix (needs cols = 3)"));
  REQUIRE_THROWS_WHAT(anycl::spmv(A, x3, x4), std::invalid_argument,
                      Contains("spmv: y has 4 elements for a 3 x 3 matrix (needs rows = 3)"));
  auto m2 = anycl::array<float>::zeros(e.queue, {3, 1});
  REQUIRE_THROWS_WHAT(anycl::spmv(A, m2, x3), std::invalid_argument,
                      Contains("x and y must be 1-D, got shapes (3, 1) and (3)"));
  REQUIRE_THROWS_WHAT(anycl::spmv(A, anycl::array<float>{}, x3), std::invalid_argument,
                      Contains("spmv: x is empty"));
  REQUIRE_THROWS_WHAT(anycl::spmv(M{}, x3, x3), std::invalid_argument,
                      Contains("spmv: the matrix is empty"));
  anycl::context other(e.dev);
  anycl::command_queue oq(other, e.dev);
  auto xo = anycl::array<float>::zeros(oq, 3);
  REQUIRE_THROWS_WHAT(anycl::spmv(A, xo, x3), std::invalid_argument,
                      Contains("x and y must be in the matrix's context"));

  // A matrix without entries gives beta * y (or zeros), and a 0 x 0 one does nothing.
  auto Z = M::from_triplets(e.queue, 3, 3, {}, {}, {});
  CHECK(Z.nnz() == 0);
  auto y = anycl::array<float>::from_host(e.queue, std::vector<float>{1, 2, 3});
  anycl::spmv(2.0f, Z, x3, 3.0f, y);
  CHECK(y.to_host() == std::vector<float>{3, 6, 9});
  anycl::spmv(Z, x3, y);
  CHECK(y.to_host() == std::vector<float>{0, 0, 0});
  auto E = M::from_csr(e.queue, 0, 0, {0}, {}, {});
  auto empty = anycl::array<float>::empty(e.queue, 0);
  anycl::spmv(E, empty, empty);
  CHECK(E.row_ptr().to_host() == std::vector<u32>{0});
}
