// SPDX-License-Identifier: Apache-2.0
// A BLAS call once its operands are in place: the untyped matrices and vectors, the call the
// checks read, and the plan that CLBlast is called with. Private to src/blas.
#pragma once

#include <cstddef>
#include <cstring>

#include "anycl/blas.hpp"

namespace anycl::detail {

struct blas_routine;

/// An untyped matrix operand: the buffer, the view's window (elements) and the shape.
struct blas_matrix {
  const anycl::buffer* buf = nullptr;
  std::size_t offset = 0, size = 0;  ///< the view: first element and element count
  std::size_t rows = 0, cols = 0, ld = 0;
  blas::layout lay = blas::layout::row_major;
};
/// An untyped vector operand (also a 1-element result).
struct blas_vector {
  const anycl::buffer* buf = nullptr;
  std::size_t offset = 0, size = 0;
  std::size_t n = 0, inc = 1;
};

/// The arguments of a call with its routine's descriptor and its operands, each in its role's
/// member; the members of roles the routine does not have stay default.
struct blas_call : blas_args {
  explicit blas_call(const blas_args& args, const blas_routine& r) : blas_args(args), desc(&r) {}
  const blas_routine* desc;
  blas_matrix a, b, c;
  blas_vector x, y, result;
};

/// What CLBlast is called with once the checks passed and the layouts agree.
struct blas_plan {
  blas::layout lay = blas::layout::row_major;
  blas::transpose ta = blas::transpose::none, tb = blas::transpose::none;
  blas::triangle tri = blas::triangle::upper;
  std::size_t m = 0, n = 0, k = 0;
  bool nothing = false;   ///< an empty output: no command
  bool zero_out = false;  ///< a reduction of no elements: result = 0
  blas_matrix a, b, c;
};

}  // namespace anycl::detail
