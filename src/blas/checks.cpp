// SPDX-License-Identifier: Apache-2.0
// The BLAS argument checks and their messages.
#include "blas/checks.hpp"

#include <sstream>
#include <stdexcept>
#include <string>

#include "blas/routine.hpp"
#include "core/size_math.hpp"

namespace anycl::detail {

namespace {

const char* layout_name(blas::layout l) {
  return l == blas::layout::row_major ? "row-major" : "column-major";
}

std::string describe(const char* role, const blas_matrix& m) {
  std::ostringstream s;
  s << role << " " << m.rows << "x" << m.cols << " " << layout_name(m.lay) << " ld " << m.ld
    << " (view of " << m.size << " at element " << m.offset << ")";
  return s.str();
}

std::string describe(const char* role, const blas_vector& v) {
  std::ostringstream s;
  s << role << " n " << v.n << " inc " << v.inc << " (view of " << v.size << " at element "
    << v.offset << ")";
  return s.str();
}

}  // namespace

std::string shapes(const blas_call& c) {
  const blas_routine& r = *c.desc;
  std::string s;
  auto add = [&](const std::string& part) {
    if (!s.empty()) s += ", ";
    s += part;
  };
  if (r.has('A')) add(describe("A", c.a));
  if (r.has('B')) add(describe("B", c.b));
  if (r.has('C')) add(describe("C", c.c));
  if (r.has('x')) add(describe("x", c.x));
  if (r.has('y')) add(describe("y", c.y));
  if (r.has_result()) add(describe("result", c.result));
  if (r.batched)
    add("batch " + std::to_string(c.batch) + ", strides " + std::to_string(c.stride_a) + "/" +
        std::to_string(c.stride_b) + "/" + std::to_string(c.stride_c));
  return "(" + s + ")";
}

void fail_invalid(const blas_call& c, const std::string& what) {
  throw std::invalid_argument(std::string(c.desc->name) + ": " + what + " " + shapes(c));
}
void fail_range(const blas_call& c, const std::string& what) {
  throw std::out_of_range(std::string(c.desc->name) + ": " + what + " " + shapes(c));
}

std::string dims(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

void check_matrix(const blas_call& c, const char* role, const blas_matrix& m, std::size_t count,
                  std::size_t stride) {
  if (m.rows == 0 || m.cols == 0) return;
  const bool row = m.lay == blas::layout::row_major;
  const std::size_t minor = row ? m.cols : m.rows, major = row ? m.rows : m.cols;
  if (m.ld < minor)
    fail_invalid(c, std::string("leading dimension of ") + role + " (" + std::to_string(m.ld) +
                        ") is below its " + std::to_string(minor) + (row ? " columns" : " rows") +
                        " (" + layout_name(m.lay) + ")");
  std::size_t span = 0, total = 0;
  if (!mul_add(major - 1, m.ld, minor, span) || !mul_add(count - 1, stride, span, total))
    fail_range(c, std::string(role) + "'s extent overflows size_t");
  if (total > m.size)
    fail_range(c, std::string(role) + " needs " + std::to_string(total) +
                      " elements from its first, its view has " + std::to_string(m.size));
}

void check_vector(const blas_call& c, const char* role, const blas_vector& v) {
  if (v.n == 0) return;
  if (v.inc == 0) fail_invalid(c, std::string("increment of ") + role + " is 0");
  std::size_t span = 0;
  if (!mul_add(v.n - 1, v.inc, 1, span))
    fail_range(c, std::string(role) + "'s extent overflows size_t");
  if (span > v.size)
    fail_range(c, std::string(role) + " needs " + std::to_string(span) +
                      " elements from its first, its view has " + std::to_string(v.size));
}

void check_result(const blas_call& c) {
  if (c.result.size < 1) fail_range(c, "the result view is empty (needs 1 element)");
}

void same_size(const blas_call& c) {
  if (c.x.n != c.y.n)
    fail_invalid(c, "x has " + std::to_string(c.x.n) + " elements, y " + std::to_string(c.y.n));
}

blas::transpose real_aware(blas::transpose t, scalar_type type) {
  if (t == blas::transpose::conj_trans && !is_complex(type)) return blas::transpose::trans;
  return t;
}

std::pair<std::size_t, std::size_t> op_dims(const blas_matrix& m, blas::transpose t) {
  if (t == blas::transpose::none) return {m.rows, m.cols};
  return {m.cols, m.rows};
}

void to_layout(const blas_call& c, const char* role, blas_matrix& m, blas::transpose& t,
               blas::layout target) {
  if (m.lay == target) return;
  if (t == blas::transpose::conj_trans)
    fail_invalid(c, std::string(role) + "^H of another layout than the output's is not " +
                        "supported by CLBlast (no conjugate without transpose); copy() " + role +
                        " into the output's layout");
  std::swap(m.rows, m.cols);
  m.lay = target;
  t = t == blas::transpose::none ? blas::transpose::trans : blas::transpose::none;
}

blas::triangle flip(blas::triangle t) {
  return t == blas::triangle::upper ? blas::triangle::lower : blas::triangle::upper;
}

}  // namespace anycl::detail
