// SPDX-License-Identifier: Apache-2.0
// The shape rules of the BLAS routines: sizes that must agree, dimensions CLBlast refuses, empty
// outputs, and operands brought into the output's layout.
#include "blas/prepare.hpp"

#include <string>

#include "blas/checks.hpp"
#include "blas/routine.hpp"

namespace anycl::detail {

namespace {

const char* square_side(blas::side sd) {
  return sd == blas::side::left ? "m x m (side left)" : "n x n (side right)";
}

// The C matrices of a batch must not overlap.
void check_batch_overlap(const blas_call& c) {
  const bool row = c.c.lay == blas::layout::row_major;
  const std::size_t span = ((row ? c.c.rows : c.c.cols) - 1) * c.c.ld + (row ? c.c.cols : c.c.rows);
  if (c.stride_c < span)
    fail_invalid(c, "stride_c " + std::to_string(c.stride_c) +
                        " makes the C matrices overlap (each spans " + std::to_string(span) +
                        " elements)");
}

}  // namespace

blas_plan prepare(const blas_call& c) {
  blas_plan p;
  p.a = c.a;
  p.b = c.b;
  p.c = c.c;
  p.tri = c.tri;
  if (c.desc->has('x')) check_vector(c, "x", c.x);
  if (c.desc->has('y')) check_vector(c, "y", c.y);
  if (c.desc->has_result()) check_result(c);
  c.desc->prepare(c, p);
  return p;
}

void prepare_vectors(const blas_call& c, blas_plan& p) {
  if (c.desc->has('y')) same_size(c);
  p.n = c.x.n;
  (c.desc->has_result() ? p.zero_out : p.nothing) = p.n == 0;
}

void prepare_gemv(const blas_call& c, blas_plan& p) {
  p.ta = real_aware(c.ta, c.type);
  const auto [r, cols] = op_dims(c.a, p.ta);
  if (r != c.y.n || cols != c.x.n)
    fail_invalid(c, "op(A) is " + dims(r, cols) + " but x has " + std::to_string(c.x.n) +
                        " and y " + std::to_string(c.y.n) + " elements");
  check_matrix(c, "A", c.a);
  p.lay = c.a.lay;
  p.m = c.a.rows;
  p.n = c.a.cols;
  p.nothing = r == 0;
  if (!p.nothing && cols == 0)
    fail_invalid(c, "op(A) has 0 columns (CLBlast needs every dimension >= 1)");
}

void prepare_ger(const blas_call& c, blas_plan& p) {
  if (c.a.rows != c.x.n || c.a.cols != c.y.n)
    fail_invalid(c, "A is " + dims(c.a.rows, c.a.cols) + " but x has " + std::to_string(c.x.n) +
                        " and y " + std::to_string(c.y.n) + " elements");
  check_matrix(c, "A", c.a);
  p.lay = c.a.lay;
  p.m = c.a.rows;
  p.n = c.a.cols;
  p.nothing = p.m == 0 || p.n == 0;
}

void prepare_trsv(const blas_call& c, blas_plan& p) {
  p.ta = real_aware(c.ta, c.type);
  if (c.a.rows != c.a.cols || c.a.rows != c.x.n)
    fail_invalid(c, "A must be square with as many rows as x has elements");
  check_matrix(c, "A", c.a);
  p.lay = c.a.lay;
  p.n = c.x.n;
  p.nothing = p.n == 0;
}

// gemm is a batch of one: its strides are 0.
void prepare_gemm(const blas_call& c, blas_plan& p) {
  p.ta = real_aware(c.ta, c.type);
  p.tb = real_aware(c.tb, c.type);
  const auto [am, ak] = op_dims(c.a, p.ta);
  const auto [bk, bn] = op_dims(c.b, p.tb);
  if (am != c.c.rows || bn != c.c.cols || ak != bk)
    fail_invalid(c, "op(A) is " + dims(am, ak) + ", op(B) " + dims(bk, bn) + " and C " +
                        dims(c.c.rows, c.c.cols) + "; need op(A) m x k, op(B) k x n and C m x n");
  p.m = c.c.rows;
  p.n = c.c.cols;
  p.k = ak;
  p.nothing = p.m == 0 || p.n == 0 || c.batch == 0;
  if (p.nothing) return;
  if (p.k == 0) fail_invalid(c, "k is 0 (CLBlast needs every dimension >= 1)");
  check_matrix(c, "A", c.a, c.batch, c.stride_a);
  check_matrix(c, "B", c.b, c.batch, c.stride_b);
  check_matrix(c, "C", c.c, c.batch, c.stride_c);
  if (c.batch > 1) check_batch_overlap(c);
  p.lay = c.c.lay;
  to_layout(c, "A", p.a, p.ta, p.lay);
  to_layout(c, "B", p.b, p.tb, p.lay);
}

void prepare_symm(const blas_call& c, blas_plan& p) {
  p.m = c.c.rows;
  p.n = c.c.cols;
  const std::size_t na = c.sd == blas::side::left ? p.m : p.n;
  if (c.a.rows != na || c.a.cols != na || c.b.rows != p.m || c.b.cols != p.n)
    fail_invalid(c, "A is " + dims(c.a.rows, c.a.cols) + ", B " + dims(c.b.rows, c.b.cols) +
                        " and C " + dims(p.m, p.n) + "; need B and C m x n and A " +
                        square_side(c.sd));
  p.nothing = p.m == 0 || p.n == 0;
  if (p.nothing) return;
  check_matrix(c, "A", c.a);
  check_matrix(c, "B", c.b);
  check_matrix(c, "C", c.c);
  if (c.b.lay != c.c.lay) fail_invalid(c, "B must have C's layout (symm has no op(B))");
  p.lay = c.c.lay;
  if (p.a.lay != p.lay) {  // a symmetric matrix read in the other layout: the other triangle
    p.a.lay = p.lay;
    p.tri = flip(p.tri);
  }
}

void prepare_syrk(const blas_call& c, blas_plan& p) {
  p.ta = real_aware(c.ta, c.type);
  if (p.ta == blas::transpose::conj_trans)
    fail_invalid(c, "syrk takes transpose none or trans (A^H is herk's)");
  const auto [an, ak] = op_dims(c.a, p.ta);
  if (c.c.rows != c.c.cols || an != c.c.rows)
    fail_invalid(c, "op(A) is " + dims(an, ak) + " and C " + dims(c.c.rows, c.c.cols) +
                        "; need C n x n and op(A) n x k");
  p.n = an;
  p.k = ak;
  p.nothing = p.n == 0;
  if (p.nothing) return;
  if (p.k == 0) fail_invalid(c, "k is 0 (CLBlast needs every dimension >= 1)");
  check_matrix(c, "A", c.a);
  check_matrix(c, "C", c.c);
  p.lay = c.c.lay;
  to_layout(c, "A", p.a, p.ta, p.lay);
}

void prepare_triangular(const blas_call& c, blas_plan& p) {
  p.ta = real_aware(c.ta, c.type);
  p.m = c.b.rows;
  p.n = c.b.cols;
  const std::size_t na = c.sd == blas::side::left ? p.m : p.n;
  if (c.a.rows != na || c.a.cols != na)
    fail_invalid(c, "A is " + dims(c.a.rows, c.a.cols) + " and B " + dims(p.m, p.n) + "; need A " +
                        square_side(c.sd));
  p.nothing = p.m == 0 || p.n == 0;
  if (p.nothing) return;
  check_matrix(c, "A", c.a);
  check_matrix(c, "B", c.b);
  p.lay = c.b.lay;
  if (p.a.lay != p.lay) {
    to_layout(c, "A", p.a, p.ta, p.lay);
    p.tri = flip(p.tri);
  }
}

}  // namespace anycl::detail
