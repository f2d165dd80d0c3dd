// SPDX-License-Identifier: Apache-2.0
// BLAS operands from views and arrays: a 2-D array is a row-major matrix when its last axis is
// dense, a column-major one when its first is, and refused when strided in both.
#include "blas/operands.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "blas/routine.hpp"

namespace anycl::detail {

namespace {

void check_count(const blas_call& c, std::size_t given) {
  if (given != std::strlen(c.desc->roles))
    throw std::logic_error(std::string(c.desc->name) + ": " + std::to_string(given) +
                           " operands for roles '" + c.desc->roles + "'");
}

std::string role_text(const blas_call& c, char role) {
  return std::string(c.desc->name) + ": " + role;
}

void require_array(const blas_call& c, const array_core& a, char role, unsigned dims) {
  if (!a.valid())
    throw std::invalid_argument(role_text(c, role) + " is empty (default-constructed)");
  if (a.layout().extents.dims() != dims)
    throw std::invalid_argument(role_text(c, role) + " must be a " + std::to_string(dims) +
                                "-D array, not " + a.layout().extents.str());
  if (a.layout().repeats())
    throw std::invalid_argument(role_text(c, role) + " " + a.layout().extents.str() +
                                " is a broadcast view (stride 0 along an axis); copy() it");
}

// The matrix of axes `first` and `first + 1` of `a`.
blas_matrix matrix_of(const blas_call& c, const array_core& a, unsigned first, char role) {
  const array_layout& l = a.layout();
  blas_matrix m;
  m.buf = &a.buffer();
  m.offset = l.offset;
  m.size = a.buffer().size() / size_of(a.type()) - m.offset;
  m.rows = l.extents[first];
  m.cols = l.extents[first + 1];
  const std::size_t s0 = l.strides[first], s1 = l.strides[first + 1];
  if (m.rows == 0 || m.cols == 0) {
    m.ld = std::max<std::size_t>(1, m.cols);
  } else if ((s1 == 1 || m.cols == 1) && (m.rows == 1 || s0 >= m.cols)) {
    m.lay = blas::layout::row_major;
    m.ld = m.rows == 1 ? m.cols : s0;
  } else if ((s0 == 1 || m.rows == 1) && (m.cols == 1 || s1 >= m.rows)) {
    m.lay = blas::layout::col_major;
    m.ld = m.cols == 1 ? m.rows : s1;
  } else {
    throw std::invalid_argument(role_text(c, role) + " " + l.extents.str() +
                                " is strided in both axes (strides " + std::to_string(s0) + ", " +
                                std::to_string(s1) + "); copy() it");
  }
  return m;
}

blas_vector vector_of(const blas_call& c, const array_core& a, char role) {
  require_array(c, a, role, 1);
  blas_vector v;
  v.buf = &a.buffer();
  v.offset = a.layout().offset;
  v.size = a.buffer().size() / size_of(a.type()) - v.offset;
  v.n = a.layout().extents[0];
  v.inc = v.n <= 1 ? 1 : a.layout().strides[0];
  return v;
}

// A 3-D array (batch, rows, cols) as the first matrix of a batch, its batch stride and count.
blas_matrix batch_of(const blas_call& c, const array_core& a, char role, std::size_t& stride,
                     std::size_t& batch) {
  require_array(c, a, role, 3);
  batch = a.layout().extents[0];
  stride = a.layout().strides[0];
  return matrix_of(c, a, 1, role);
}

void place_batch(blas_call& c, std::initializer_list<blas_operand> operands) {
  std::array<std::size_t, 3> batch{};
  const blas_operand* o = operands.begin();
  c.a = batch_of(c, *o[0].core, 'A', c.stride_a, batch[0]);
  c.b = batch_of(c, *o[1].core, 'B', c.stride_b, batch[1]);
  c.c = batch_of(c, *o[2].core, 'C', c.stride_c, batch[2]);
  if (batch[0] != batch[2] || batch[1] != batch[2])
    throw std::invalid_argument(std::string(c.desc->name) + ": batches of " +
                                std::to_string(batch[0]) + " (A), " + std::to_string(batch[1]) +
                                " (B) and " + std::to_string(batch[2]) + " (C) differ");
  c.batch = batch[2];
}

blas_matrix& matrix_member(blas_call& c, char role) {
  return role == 'A' ? c.a : role == 'B' ? c.b : c.c;
}
blas_vector& vector_member(blas_call& c, char role) {
  return role == 'x' ? c.x : role == 'y' ? c.y : c.result;
}
bool is_matrix(char role) { return role == 'A' || role == 'B' || role == 'C'; }

}  // namespace

void place_views(blas_call& c, std::initializer_list<blas_operand> operands) {
  check_count(c, operands.size());
  const char* role = c.desc->roles;
  for (const blas_operand& o : operands) {
    if (is_matrix(*role))
      matrix_member(c, *role) = {o.buf, o.offset, o.size, o.rows, o.cols, o.ld, o.lay};
    else
      vector_member(c, *role) = {o.buf, o.offset, o.size, o.rows, o.ld};
    ++role;
  }
}

void place_arrays(blas_call& c, std::initializer_list<blas_operand> operands) {
  check_count(c, operands.size() + (c.desc->has_result() ? 1 : 0));
  if (c.desc->batched) return place_batch(c, operands);
  const char* role = c.desc->roles;
  for (const blas_operand& o : operands) {
    if (is_matrix(*role)) {
      require_array(c, *o.core, *role, 2);
      matrix_member(c, *role) = matrix_of(c, *o.core, 0, *role);
    } else {
      vector_member(c, *role) = vector_of(c, *o.core, *role);
    }
    ++role;
  }
}

void place_result(blas_call& c, const array_core& result) {
  c.result = {&result.buffer(), result.layout().offset, 1, 1, 1};
}

}  // namespace anycl::detail
