// SPDX-License-Identifier: Apache-2.0
// BLAS level 2 against host loops: gemv (every transpose and layout, padded ld, offsets), ger /
// geru / gerc, trsv, and the array forms.
#include <complex>
#include <cstdint>
#include <vector>

#include "anycl/blas.hpp"
#include "blas/blas_reference.hpp"
#include "support/device_fixture.hpp"

namespace blas = anycl::blas;
namespace ref = anycl::test::blas_ref;
using blas::layout;
using blas::transpose;

namespace {

template <class T>
anycl::buffer upload(const anycl::context& ctx, const std::vector<T>& v) {
  return anycl::buffer::from(ctx, v);
}

template <class T>
void check_gemv(const anycl::test::env& e, std::size_t rows, std::size_t cols, transpose ta,
                layout lay, std::uint32_t seed) {
  INFO("A " << rows << "x" << cols << " ta " << int(ta) << " layout " << int(lay) << " seed "
            << seed);
  const std::size_t ld = (lay == layout::row_major ? cols : rows) + 3, off = 2;
  const std::size_t major = lay == layout::row_major ? rows : cols;
  auto ha = ref::random<T>(off + major * ld, seed);
  const std::size_t nx = ta == transpose::none ? cols : rows;
  const std::size_t ny = ta == transpose::none ? rows : cols;
  auto hx = ref::random<T>(2 * nx + 1, seed + 1), hy = ref::random<T>(ny + 1, seed + 2);
  auto ba = upload(e.ctx, ha), bx = upload(e.ctx, hx), by = upload(e.ctx, hy);
  const T alpha = T(2.0f), beta = T(0.5f);
  blas::gemv(
      e.queue, ta, alpha,
      blas::matrix_view<T>(anycl::buffer_view<T>(ba, off, ha.size() - off), rows, cols, ld, lay),
      blas::vector_view<T>(anycl::buffer_view<T>(bx), nx, 2), beta,
      blas::vector_view<T>(anycl::buffer_view<T>(by, 1, ny)))
      .wait();
  std::vector<T> want = hy;
  for (std::size_t i = 0; i < ny; ++i) {
    T s = T(0);
    for (std::size_t j = 0; j < nx; ++j) s += ref::op_at(ha, off, lay, ld, ta, i, j) * hx[2 * j];
    want[1 + i] = alpha * s + beta * hy[1 + i];
  }
  CHECK(ref::max_error(e.queue.read(anycl::buffer_view<T>(by)), want) < ref::tolerance<T>());
}

}  // namespace

TEMPLATE_TEST_CASE("blas: gemv against a host loop, every transpose and layout", "[level2]", float,
                   std::complex<float>) {
  anycl::test::env e;
  std::uint32_t seed = 3;
  std::vector<transpose> ts{transpose::none, transpose::trans};
  if (blas::is_complex_v<TestType>) ts.push_back(transpose::conj_trans);
  for (transpose ta : ts)
    for (layout lay : {layout::row_major, layout::col_major}) {
      check_gemv<TestType>(e, 5, 3, ta, lay, seed++);
      check_gemv<TestType>(e, 1, 1, ta, lay, seed++);
    }
}

TEMPLATE_TEST_CASE("blas: ger (geru) and gerc against a host loop", "[level2]", float,
                   std::complex<float>) {
  anycl::test::env e;
  const std::uint32_t seed = 13;
  INFO("seed " << seed);
  for (layout lay : {layout::row_major, layout::col_major})
    for (bool conj : {false, true}) {
      if (conj && !blas::is_complex_v<TestType>) continue;
      const std::size_t m = 4, n = 3, ld = (lay == layout::row_major ? n : m) + 1;
      auto ha = ref::random<TestType>(ld * (lay == layout::row_major ? m : n), seed);
      auto hx = ref::random<TestType>(m, seed + 1), hy = ref::random<TestType>(n, seed + 2);
      auto ba = upload(e.ctx, ha), bx = upload(e.ctx, hx), by = upload(e.ctx, hy);
      blas::matrix_view<TestType> a(anycl::buffer_view<TestType>(ba), m, n, ld, lay);
      const TestType alpha = TestType(1.5f);
      if constexpr (blas::is_complex_v<TestType>) {
        if (conj)
          blas::gerc(e.queue, alpha, anycl::buffer_view<TestType>(bx),
                     anycl::buffer_view<TestType>(by), a)
              .wait();
        else
          blas::geru(e.queue, alpha, anycl::buffer_view<TestType>(bx),
                     anycl::buffer_view<TestType>(by), a)
              .wait();
      } else {
        blas::ger(e.queue, alpha, anycl::buffer_view<TestType>(bx),
                  anycl::buffer_view<TestType>(by), a)
            .wait();
      }
      std::vector<TestType> want = ha;
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < n; ++j)
          want[ref::pos(lay, ld, i, j)] += alpha * hx[i] * ref::conj_if(hy[j], conj);
      CHECK(ref::max_error(e.queue.read(anycl::buffer_view<TestType>(ba)), want) < 1e-4);
    }
}

TEST_CASE("blas: trsv solves what a host triangular product made", "[level2]") {
  anycl::test::env e;
  const std::uint32_t seed = 17;
  INFO("seed " << seed);
  const std::size_t n = 6;
  for (layout lay : {layout::row_major, layout::col_major})
    for (blas::triangle tri : {blas::triangle::upper, blas::triangle::lower})
      for (transpose ta : {transpose::none, transpose::trans}) {
        INFO("layout " << int(lay) << " tri " << int(tri) << " ta " << int(ta));
        auto ha = ref::random<float>(n * n, seed);
        for (std::size_t i = 0; i < n; ++i) ha[ref::pos(lay, n, i, i)] += 4.0f;
        auto sol = ref::random<float>(n, seed + 1);
        // b = op(T) sol on the host, with T the `tri` triangle of A.
        std::vector<float> b(n, 0.0f);
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j) {
            const std::size_t r = ta == transpose::none ? i : j, c = ta == transpose::none ? j : i;
            const bool in = tri == blas::triangle::upper ? c >= r : c <= r;
            if (in) b[i] += ha[ref::pos(lay, n, r, c)] * sol[j];
          }
        auto ba = upload(e.ctx, ha), bx = upload(e.ctx, b);
        blas::trsv(e.queue, tri, ta, blas::diagonal::non_unit,
                   blas::matrix_view<float>(anycl::buffer_view<float>(ba), n, n, 0, lay),
                   anycl::buffer_view<float>(bx))
            .wait();
        CHECK(ref::max_error(e.queue.read(anycl::buffer_view<float>(bx)), sol) < 1e-4);
      }
}

TEST_CASE("blas: gemv and ger on arrays, a transpose() view as A", "[level2]") {
  anycl::test::env e;
  const std::uint32_t seed = 19;
  INFO("seed " << seed);
  auto ha = ref::random<float>(12, seed), hx = ref::random<float>(3, seed + 1);
  auto a = anycl::array<float>::from_host(e.queue, ha, {4, 3});
  auto x = anycl::array<float>::from_host(e.queue, hx);
  auto y = anycl::array<float>::zeros(e.queue, 4);
  // op(A^T view) with trans = A: y = A x.
  blas::gemv(transpose::trans, 1.0f, a.transpose(), x, 0.0f, y);
  std::vector<float> want(4, 0.0f);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) want[i] += ha[i * 3 + j] * hx[j];
  CHECK(ref::max_error(y.to_host(), want) < 1e-5);
  blas::ger(1.0f, y, x, a);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) ha[i * 3 + j] += want[i] * hx[j];
  CHECK(ref::max_error(a.to_host(), ha) < 1e-5);
}
