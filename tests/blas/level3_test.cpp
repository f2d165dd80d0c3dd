// SPDX-License-Identifier: Apache-2.0
// BLAS level 3 against naive host loops: wait lists, batched gemm, symm, syrk, trmm, trsm, and
// the array forms (transpose() views, slices, 3-D batches). gemm itself is in gemm_test.cpp.
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

TEST_CASE("blas: gemm waits for its wait list and orders after it", "[level3]") {
  anycl::test::env e;
  ref::placed<float> a(e.ctx, 3, 3, layout::row_major, 0, 0, 1);
  ref::placed<float> b(e.ctx, 3, 3, layout::row_major, 0, 0, 2);
  ref::placed<float> c(e.ctx, 3, 3, layout::row_major, 0, 0, 3);
  anycl::user_event gate(e.ctx);
  // The fill of A waits on the gate; gemm must see the filled A.
  anycl::event fill = e.queue.fill(anycl::buffer_view<float>(a.buf), 2.0f, {gate});
  anycl::event g = blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, a.view(), b.view(),
                              0.0f, c.view(), {fill});
  gate.set_complete();
  g.wait();
  std::vector<float> twos(a.host.size(), 2.0f), want = c.host;
  ref::gemm(transpose::none, transpose::none, 3, 3, 3, 1.0f, twos, 0, layout::row_major, 3, b.host,
            0, layout::row_major, 3, 0.0f, want, 0, layout::row_major, 3);
  CHECK(ref::max_error(c.read(e.queue), want) < 1e-5);
}

TEST_CASE("blas: gemm_batched against a host loop per matrix", "[level3]") {
  anycl::test::env e;
  const std::size_t batch = 3, m = 4, n = 5, k = 3, sa = m * k + 2, sb = k * n + 1, sc = m * n + 3;
  const std::uint32_t seed = 31;
  INFO("seed " << seed);
  auto ha = ref::random<float>(batch * sa, seed), hb = ref::random<float>(batch * sb, seed + 1),
       hc = ref::random<float>(batch * sc, seed + 2);
  auto ba = anycl::buffer::from(e.ctx, ha), bb = anycl::buffer::from(e.ctx, hb),
       bc = anycl::buffer::from(e.ctx, hc);
  // A is column-major (k x m stored, read transposed), B and C row-major.
  blas::matrix_view<float> a(anycl::buffer_view<float>(ba), k, m, 0, layout::col_major);
  blas::matrix_view<float> b(anycl::buffer_view<float>(bb), k, n);
  blas::matrix_view<float> c(anycl::buffer_view<float>(bc), m, n);
  blas::gemm_batched(e.queue, transpose::trans, transpose::none, 2.0f, a, sa, b, sb, 0.5f, c, sc,
                     batch)
      .wait();
  std::vector<float> want = hc;
  for (std::size_t i = 0; i < batch; ++i)
    ref::gemm(transpose::trans, transpose::none, m, n, k, 2.0f, ha, i * sa, layout::col_major, k,
              hb, i * sb, layout::row_major, n, 0.5f, want, i * sc, layout::row_major, n);
  CHECK(ref::max_error(e.queue.read(anycl::buffer_view<float>(bc)), want) < 1e-4);
}

namespace {

// The full matrix a symmetric/triangular routine sees, from the stored triangle.
std::vector<float> dense_of(const ref::placed<float>& a, blas::triangle tri, bool symmetric,
                            bool unit) {
  const std::size_t n = a.rows;
  std::vector<float> d(n * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const bool in = tri == blas::triangle::upper ? j >= i : j <= i;
      const float v = in ? a.host[a.off + ref::pos(a.lay, a.ld, i, j)]
                         : a.host[a.off + ref::pos(a.lay, a.ld, j, i)];
      if (symmetric)
        d[i * n + j] = v;
      else
        d[i * n + j] = !in ? 0.0f : (i == j && unit) ? 1.0f : v;
    }
  return d;
}

}  // namespace

TEST_CASE("blas: symm and syrk against host loops", "[level3]") {
  anycl::test::env e;
  std::uint32_t seed = 41;
  for (layout la : {layout::row_major, layout::col_major})
    for (blas::triangle tri : {blas::triangle::upper, blas::triangle::lower})
      for (blas::side sd : {blas::side::left, blas::side::right}) {
        INFO("symm layout " << int(la) << " tri " << int(tri) << " side " << int(sd) << " seed "
                            << seed);
        const std::size_t m = 4, n = 3, na = sd == blas::side::left ? m : n;
        ref::placed<float> a(e.ctx, na, na, la, 1, 2, seed++);
        ref::placed<float> b(e.ctx, m, n, layout::row_major, 2, 1, seed++);
        ref::placed<float> c(e.ctx, m, n, layout::row_major, 0, 3, seed++);
        blas::symm(e.queue, sd, tri, 1.0f, a.view(), b.view(), 2.0f, c.view()).wait();
        const auto full = dense_of(a, tri, true, false);
        std::vector<float> want = c.host;
        if (sd == blas::side::left)
          ref::gemm(transpose::none, transpose::none, m, n, m, 1.0f, full, 0, layout::row_major, na,
                    b.host, b.off, b.lay, b.ld, 2.0f, want, c.off, c.lay, c.ld);
        else
          ref::gemm(transpose::none, transpose::none, m, n, n, 1.0f, b.host, b.off, b.lay, b.ld,
                    full, 0, layout::row_major, na, 2.0f, want, c.off, c.lay, c.ld);
        CHECK(ref::max_error(c.read(e.queue), want) < 1e-4);
      }
  for (layout la : {layout::row_major, layout::col_major})
    for (transpose ta : {transpose::none, transpose::trans})
      for (blas::triangle tri : {blas::triangle::upper, blas::triangle::lower}) {
        INFO("syrk layout " << int(la) << " ta " << int(ta) << " tri " << int(tri) << " seed "
                            << seed);
        const std::size_t n = 5, k = 3;
        ref::placed<float> a(e.ctx, ta == transpose::none ? n : k, ta == transpose::none ? k : n,
                             la, 1, 1, seed++);
        ref::placed<float> c(e.ctx, n, n, layout::col_major, 2, 0, seed++);
        blas::syrk(e.queue, tri, ta, 0.5f, a.view(), 1.0f, c.view()).wait();
        const transpose tb = ta == transpose::none ? transpose::trans : transpose::none;
        std::vector<float> full = c.host;
        ref::gemm(ta, tb, n, n, k, 0.5f, a.host, a.off, a.lay, a.ld, a.host, a.off, a.lay, a.ld,
                  1.0f, full, c.off, c.lay, c.ld);
        // Only the `tri` triangle of C is written.
        std::vector<float> want = c.host;
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j)
            if (tri == blas::triangle::upper ? j >= i : j <= i)
              want[c.off + ref::pos(c.lay, c.ld, i, j)] = full[c.off + ref::pos(c.lay, c.ld, i, j)];
        CHECK(ref::max_error(c.read(e.queue), want) < 1e-4);
      }
}

TEST_CASE("blas: trmm and trsm against host loops (trsm undoes trmm)", "[level3]") {
  anycl::test::env e;
  std::uint32_t seed = 61;
  for (layout la : {layout::row_major, layout::col_major})
    for (blas::side sd : {blas::side::left, blas::side::right})
      for (blas::triangle tri : {blas::triangle::upper, blas::triangle::lower})
        for (int variant = 0; variant < 2; ++variant) {
          // Each transpose and diagonal kind in every layout, side and triangle.
          const transpose ta = variant == 0 ? transpose::none : transpose::trans;
          const blas::diagonal dg =
              (variant + int(tri)) % 2 == 0 ? blas::diagonal::non_unit : blas::diagonal::unit;
          INFO("layout " << int(la) << " side " << int(sd) << " tri " << int(tri) << " ta "
                         << int(ta) << " diag " << int(dg) << " seed " << seed);
          const std::size_t m = 5, n = 3, na = sd == blas::side::left ? m : n;
          ref::placed<float> a(e.ctx, na, na, la, 1, 1, seed++);
          // A well-conditioned triangle: a dominant diagonal.
          for (std::size_t i = 0; i < na; ++i) a.host[a.off + ref::pos(la, a.ld, i, i)] += 4.0f;
          a.buf = anycl::buffer::from(e.ctx, a.host);
          ref::placed<float> b(e.ctx, m, n, layout::row_major, 1, 2, seed++);
          const auto t = dense_of(a, tri, false, dg == blas::diagonal::unit);
          std::vector<float> want = b.host;
          std::vector<float> zero(b.host.size(), 0.0f);
          if (sd == blas::side::left)
            ref::gemm(ta, transpose::none, m, n, m, 2.0f, t, 0, layout::row_major, na, b.host,
                      b.off, b.lay, b.ld, 0.0f, want, b.off, b.lay, b.ld);
          else
            ref::gemm(transpose::none, ta, m, n, n, 2.0f, b.host, b.off, b.lay, b.ld, t, 0,
                      layout::row_major, na, 0.0f, want, b.off, b.lay, b.ld);
          blas::trmm(e.queue, sd, tri, ta, dg, 2.0f, a.view(), b.view()).wait();
          CHECK(ref::max_error(b.read(e.queue), want) < 1e-4);
          blas::trsm(e.queue, sd, tri, ta, dg, 0.5f, a.view(), b.view()).wait();
          CHECK(ref::max_error(b.read(e.queue), b.host) < 1e-4);
        }
}

TEST_CASE("blas: gemm and matmul on arrays, transpose() views and slices", "[level3]") {
  anycl::test::env e;
  const std::uint32_t seed = 71;
  INFO("seed " << seed);
  const std::size_t m = 6, n = 4, k = 5;
  auto ha = ref::random<float>(m * k, seed), hb = ref::random<float>(k * n, seed + 1);
  auto a = anycl::array<float>::from_host(e.queue, ha, {m, k});
  auto b = anycl::array<float>::from_host(e.queue, hb, {k, n});
  std::vector<float> want(m * n, 0.0f);
  ref::gemm(transpose::none, transpose::none, m, n, k, 1.0f, ha, 0, layout::row_major, k, hb, 0,
            layout::row_major, n, 0.0f, want, 0, layout::row_major, n);
  CHECK(ref::max_error(blas::matmul(a, b).to_host(), want) < 1e-4);

  // C^T = B^T A^T written through a transpose() view of C: a column-major output.
  auto c = anycl::array<float>::zeros(e.queue, {m, n});
  blas::gemm(transpose::none, transpose::none, 1.0f, b.transpose(), a.transpose(), 0.0f,
             c.transpose());
  CHECK(ref::max_error(c.to_host(), want) < 1e-4);

  // Row slices of A and C (an element offset) and a transposed operand flag.
  auto big = anycl::array<float>::zeros(e.queue, {m + 3, n});
  auto at = a.transpose().copy();  // k x m, row-major
  blas::gemm(transpose::trans, transpose::none, 1.0f, at, b, 0.0f, big.slice(2, 2 + m));
  auto got = big.to_host();
  CHECK(ref::max_error(std::vector<float>(got.begin() + 2 * n, got.begin() + (2 + m) * n), want) <
        1e-4);
  CHECK(got[0] == 0.0f);
  CHECK(got.back() == 0.0f);

  // Batched on 3-D arrays.
  auto a3 =
      anycl::array<float>::from_host(e.queue, ref::random<float>(2 * m * k, seed + 2), {2, m, k});
  auto b3 =
      anycl::array<float>::from_host(e.queue, ref::random<float>(2 * k * n, seed + 3), {2, k, n});
  auto c3 = anycl::array<float>::zeros(e.queue, {2, m, n});
  blas::gemm_batched(transpose::none, transpose::none, 1.0f, a3, b3, 0.0f, c3);
  const auto ha3 = a3.to_host(), hb3 = b3.to_host();
  std::vector<float> want3(2 * m * n, 0.0f);
  for (std::size_t i = 0; i < 2; ++i)
    ref::gemm(transpose::none, transpose::none, m, n, k, 1.0f, ha3, i * m * k, layout::row_major, k,
              hb3, i * k * n, layout::row_major, n, 0.0f, want3, i * m * n, layout::row_major, n);
  CHECK(ref::max_error(c3.to_host(), want3) < 1e-4);
}

TEST_CASE("blas: gemm and dotc on complex arrays", "[level3]") {
  anycl::test::env e;
  using cf = std::complex<float>;
  const std::uint32_t seed = 81;
  INFO("seed " << seed);
  const std::size_t m = 3, n = 2, k = 4;
  auto ha = ref::random<cf>(k * m, seed), hb = ref::random<cf>(k * n, seed + 1);
  auto a = anycl::array<cf>::from_host(e.queue, ha, {k, m});
  auto b = anycl::array<cf>::from_host(e.queue, hb, {k, n});
  auto c = anycl::array<cf>::zeros(e.queue, {m, n});
  // C = A^H B with A stored k x m: conj_trans on a row-major array.
  blas::gemm(transpose::conj_trans, transpose::none, cf(1), a, b, cf(0), c);
  std::vector<cf> want(m * n, cf(0));
  ref::gemm(transpose::conj_trans, transpose::none, m, n, k, cf(1), ha, 0, layout::row_major, m, hb,
            0, layout::row_major, n, cf(0), want, 0, layout::row_major, n);
  CHECK(ref::max_error(c.to_host(), want) < 1e-4);
  // The same product through a transpose() view (column-major) of A and transpose::none.
  auto at = a.transpose().copy();  // m x k, row-major: at^T = A
  auto c2 = anycl::array<cf>::zeros(e.queue, {m, n});
  blas::gemm(transpose::none, transpose::none, cf(1), at.transpose().transpose(), b.slice(0, k),
             cf(0), c2);
  std::vector<cf> want2(m * n, cf(0));
  ref::gemm(transpose::trans, transpose::none, m, n, k, cf(1), ha, 0, layout::row_major, m, hb, 0,
            layout::row_major, n, cf(0), want2, 0, layout::row_major, n);
  CHECK(ref::max_error(c2.to_host(), want2) < 1e-4);
  // dotc of 1-D complex arrays, one of them a strided slice.
  auto hx = ref::random<cf>(2 * k, seed + 2), hy = ref::random<cf>(k, seed + 3);
  auto x = anycl::array<cf>::from_host(e.queue, hx);
  auto y = anycl::array<cf>::from_host(e.queue, hy);
  cf dot(0);
  for (std::size_t i = 0; i < k; ++i) dot += std::conj(hx[2 * i]) * hy[i];
  CHECK(std::abs(blas::dotc(x.slice(0, 0, 2 * k, 2), y).to_host()[0] - dot) < 1e-4);
}
