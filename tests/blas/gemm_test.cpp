// SPDX-License-Identifier: Apache-2.0
// gemm against a naive host loop for every type, transpose and layout combination, with offsets
// and padded leading dimensions (its own CTest entry: four precisions to compile).
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
void check_gemm(const anycl::test::env& e, std::size_t m, std::size_t n, std::size_t k,
                transpose ta, transpose tb, layout la, layout lb, layout lc, std::size_t pad,
                std::size_t off, std::uint32_t seed) {
  INFO("m " << m << " n " << n << " k " << k << " ta " << int(ta) << " tb " << int(tb)
            << " layouts " << int(la) << int(lb) << int(lc) << " pad " << pad << " off " << off
            << " seed " << seed);
  const bool at = ta != transpose::none, bt = tb != transpose::none;
  ref::placed<T> a(e.ctx, at ? k : m, at ? m : k, la, pad, off, seed);
  ref::placed<T> b(e.ctx, bt ? n : k, bt ? k : n, lb, pad + 1, off + 2, seed + 1);
  ref::placed<T> c(e.ctx, m, n, lc, pad, off + 1, seed + 2);
  const T alpha = T(1.5f), beta = T(-0.5f);
  blas::gemm(e.queue, ta, tb, alpha, a.view(), b.view(), beta, c.view()).wait();
  std::vector<T> want = c.host;
  ref::gemm(ta, tb, m, n, k, alpha, a.host, a.off, la, a.ld, b.host, b.off, lb, b.ld, beta, want,
            c.off, lc, c.ld);
  CHECK(ref::max_error(c.read(e.queue), want) < ref::tolerance<T>());
}

}  // namespace

TEMPLATE_TEST_CASE("blas: gemm against a host loop, every transpose and layout", "[gemm]", float,
                   double, std::complex<float>, std::complex<double>) {
  anycl::test::env e;
  if (ref::skip_double<TestType>(e)) return;
  std::uint32_t seed = 11;
  const bool cplx = blas::is_complex_v<TestType>;
  std::vector<transpose> ts{transpose::none, transpose::trans};
  if (cplx) ts.push_back(transpose::conj_trans);
  for (transpose ta : ts)
    for (transpose tb : ts)
      for (layout l : {layout::row_major, layout::col_major})
        check_gemm<TestType>(e, 5, 3, 7, ta, tb, l, l, l, 2, 3, seed++);
  // Mixed layouts (a transposed read of A or B), sizes 1 and odd, no padding.
  for (layout la : {layout::row_major, layout::col_major})
    for (layout lb : {layout::row_major, layout::col_major})
      for (layout lc : {layout::row_major, layout::col_major}) {
        check_gemm<TestType>(e, 4, 6, 3, transpose::none, transpose::trans, la, lb, lc, 0, 0,
                             seed++);
        check_gemm<TestType>(e, 1, 1, 1, transpose::trans, transpose::none, la, lb, lc, 1, 1,
                             seed++);
      }
  check_gemm<TestType>(e, 17, 1, 9, transpose::none, transpose::none, layout::row_major,
                       layout::col_major, layout::row_major, 0, 5, seed++);
}

TEST_CASE("blas: the README's example, checked against host loops", "[gemm]") {
  anycl::test::env e;
  auto& q = e.queue;
  const std::vector<float> host_a = ref::random<float>(512 * 256, 101);
  const std::vector<float> host_b = ref::random<float>(256 * 128, 102);
  // From the README:
  auto a = anycl::array<float>::from_host(q, host_a, {512, 256});  // row-major 512x256
  auto b = anycl::array<float>::from_host(q, host_b, {256, 128});
  auto c = anycl::blas::matmul(a, b);  // 512x128, C = A B
  const std::vector<float> ab = c.to_host();
  anycl::blas::gemm(anycl::blas::transpose::none, anycl::blas::transpose::none, 2.0f, a, b, 1.0f,
                    c);                             // C = 2 A B + C
  auto at = anycl::blas::matmul(a.transpose(), c);  // a view: A^T C, no copy
  anycl::blas::matrix_view<float> mv(a.view(), 512, 256, 256, anycl::blas::layout::row_major);

  std::vector<float> want_ab(512 * 128, 0.0f);
  ref::gemm(transpose::none, transpose::none, 512, 128, 256, 1.0f, host_a, 0, layout::row_major,
            256, host_b, 0, layout::row_major, 128, 0.0f, want_ab, 0, layout::row_major, 128);
  CHECK(c.shape() == anycl::shape{512, 128});
  CHECK(ref::max_error(ab, want_ab) < 1e-3);
  std::vector<float> want_c = want_ab;
  for (auto& v : want_c) v *= 3.0f;  // 2 A B + A B
  CHECK(ref::max_error(c.to_host(), want_c) < 1e-3);
  std::vector<float> want_at(256 * 128, 0.0f);
  ref::gemm(transpose::trans, transpose::none, 256, 128, 512, 1.0f, host_a, 0, layout::row_major,
            256, want_c, 0, layout::row_major, 128, 0.0f, want_at, 0, layout::row_major, 128);
  CHECK(at.shape() == anycl::shape{256, 128});
  CHECK(ref::max_error(at.to_host(), want_at) < 1e-2);
  CHECK(mv.rows() == 512);
  CHECK(mv.ld() == 256);
}
