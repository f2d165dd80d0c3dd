// SPDX-License-Identifier: Apache-2.0
// BLAS levels 1-3 on buffer views and device arrays, through CLBlast (no CLBlast header here).
//
// Every routine comes in two forms:
//  - on buffer views: `blas::gemm(queue, ..., a, b, ..., c, wait)` with matrix_view / vector_view
//    operands; the queue comes first, a wait list last, and the routine returns the event of its
//    last command;
//  - on arrays: the same arguments without the queue. 2-D arrays are matrices (strides[1] == 1:
//    row-major with leading dimension strides[0]; strides[0] == 1, e.g. a transpose() view:
//    column-major with leading dimension strides[1]; anything else is refused), 1-D arrays are
//    vectors with increment strides[0]. The routine runs on the output array's queue after the
//    last command that touched any of its arrays, and its event is recorded on every one of them.
//
// Shapes, leading dimensions, increments, buffer extents (overflow-safe) and contexts are checked
// before CLBlast is called: argument errors throw std::invalid_argument / std::out_of_range naming
// the routine and the shapes; a status CLBlast still returns becomes blas_error. What CLBlast
// prints, its first-call cost and how its program cache is cleared per context:
// docs/6-blas-and-fft.md.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/error.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// CLBlast returned an error status. what() reads "anycl::blas::gemm failed: kInvalidLeadDimA
/// (-1016): <shapes>. Hint: <hint>".
class ANYCL_EXPORT blas_error : public error {
 public:
  blas_error(std::string routine, int status, std::string detail);
  /// The routine, e.g. "anycl::blas::gemm".
  const std::string& routine() const noexcept { return routine_; }
  /// CLBlast's StatusCode as an int (OpenCL codes, -1024...-1007, -2050...-2039).
  int status() const noexcept { return status_; }
  /// Its name, e.g. "kInvalidLeadDimA" (see blas::status_name).
  std::string_view status_name() const noexcept;
  /// The shapes and arguments of the call.
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string routine_;
  int status_;
  std::string detail_;
};

namespace blas {

/// How a matrix is stored: row-major (element (i, j) at i * ld + j) or column-major (j * ld + i).
enum class layout { row_major, col_major };
/// op(A): A, A^T or A^H.
enum class transpose { none, trans, conj_trans };
/// Which triangle of a symmetric or triangular matrix is used.
enum class triangle { upper, lower };
/// Whether a square matrix multiplies from the left or the right.
enum class side { left, right };
/// Whether a triangular matrix has ones on its diagonal (not read) or its own diagonal.
enum class diagonal { non_unit, unit };

/// The name of a CLBlast status code ("kInvalidLeadDimA", "kSuccess", "CL_INVALID_VALUE" style
/// names for the OpenCL ones); "unknown CLBlast status" otherwise.
ANYCL_EXPORT std::string_view status_name(int status) noexcept;

/// Empties CLBlast's process-wide cache of compiled programs for every context
/// (clblast::ClearCache); later calls compile again. AnyCL does this by itself once a context's
/// BLAS buffers are all released.
ANYCL_EXPORT void clear_cache();

/// The element types BLAS supports.
template <class T>
inline constexpr bool is_blas_element_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// T in a parameter that does not take part in deduction (so a buffer_view converts to a
/// vector_view there).
template <class T>
struct identity {
  using type = T;
};
template <class T>
using same_t = typename identity<T>::type;

template <class T>
inline constexpr bool is_complex_v =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// A rows x cols matrix in a buffer view: element (i, j) is data()[i * ld + j] (row-major) or
/// data()[j * ld + i] (column-major), counted from the view's first element. An ld of 0 means the
/// tightest one (cols for row-major, rows for column-major). Nothing is checked here: each
/// routine checks ld and the extent against the view, naming itself.
template <class T>
class matrix_view {
  static_assert(is_blas_element_v<T>,
                "AnyCL BLAS: elements are float, double, std::complex<float> or "
                "std::complex<double>");

 public:
  matrix_view(buffer_view<T> data, std::size_t rows, std::size_t cols, std::size_t ld = 0,
              blas::layout lay = blas::layout::row_major)
      : data_(std::move(data)), rows_(rows), cols_(cols), ld_(ld), layout_(lay) {
    if (ld_ == 0) ld_ = lay == blas::layout::row_major ? cols : rows;
  }
  const buffer_view<T>& data() const noexcept { return data_; }
  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  std::size_t ld() const noexcept { return ld_; }
  blas::layout layout() const noexcept { return layout_; }

 private:
  buffer_view<T> data_;
  std::size_t rows_, cols_, ld_;
  blas::layout layout_;
};

/// n elements of a buffer view, `inc` apart (inc >= 1), the first at the view's first element.
/// A whole view converts to a vector of all its elements with increment 1.
template <class T>
class vector_view {
  static_assert(is_blas_element_v<T>,
                "AnyCL BLAS: elements are float, double, std::complex<float> or "
                "std::complex<double>");

 public:
  vector_view(buffer_view<T> data)  // NOLINT: a view is a vector of its elements
      : data_(std::move(data)), n_(data_.size()), inc_(1) {}
  vector_view(buffer_view<T> data, std::size_t n, std::size_t inc = 1)
      : data_(std::move(data)), n_(n), inc_(inc) {}
  const buffer_view<T>& data() const noexcept { return data_; }
  std::size_t size() const noexcept { return n_; }
  std::size_t inc() const noexcept { return inc_; }

 private:
  buffer_view<T> data_;
  std::size_t n_, inc_;
};

}  // namespace blas

namespace detail {

/// The routines behind blas::*.
enum class blas_routine {
  axpy,
  scal,
  copy,
  swap,
  dot,
  dotu,
  dotc,
  nrm2,
  asum,
  amax,
  gemv,
  ger,
  geru,
  gerc,
  trsv,
  gemm,
  gemm_batched,
  symm,
  syrk,
  trmm,
  trsm
};

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

/// Everything one call needs; unused members stay default.
struct blas_call {
  blas_routine routine = blas_routine::gemm;
  scalar_type type = scalar_type::f32;  ///< f32, f64, c64 or c128
  blas::transpose ta = blas::transpose::none, tb = blas::transpose::none;
  blas::triangle tri = blas::triangle::upper;
  blas::side sd = blas::side::left;
  blas::diagonal diag = blas::diagonal::non_unit;
  const void* alpha = nullptr;  ///< points to a T
  const void* beta = nullptr;
  blas_matrix a, b, c;
  blas_vector x, y, result;
  std::size_t batch = 1, stride_a = 0, stride_b = 0, stride_c = 0;
};

/// Checks `call` and runs it on `queue` after `wait`; the engine of every blas:: routine.
ANYCL_EXPORT event blas_run(const command_queue& queue, const blas_call& call,
                            const std::vector<event>& wait);

/// The array forms: the operands of `arrays` (`out` among them) must share a context; runs on
/// out's queue after their last commands and `wait`, and records the event on each.
ANYCL_EXPORT event blas_run_arrays(const blas_call& call,
                                   std::initializer_list<const array_core*> arrays,
                                   const array_core& out, const std::vector<event>& wait);
/// A 2-D array as a matrix operand (see the file comment); `role` names it in messages.
ANYCL_EXPORT blas_matrix blas_matrix_of(const array_core& a, const char* routine, const char* role);
/// A 1-D array as a vector operand.
ANYCL_EXPORT blas_vector blas_vector_of(const array_core& a, const char* routine, const char* role);
/// A 3-D array (batch, rows, cols) as the first matrix of a batch and its batch stride.
ANYCL_EXPORT blas_matrix blas_batch_of(const array_core& a, const char* routine, const char* role,
                                       std::size_t& stride, std::size_t& batch);

template <class T>
blas_matrix to_blas(const blas::matrix_view<T>& m) {
  return {&m.data().buffer(), m.data().offset(), m.data().size(), m.rows(), m.cols(), m.ld(),
          m.layout()};
}
template <class T>
blas_vector to_blas(const blas::vector_view<T>& v) {
  return {&v.data().buffer(), v.data().offset(), v.data().size(), v.size(), v.inc()};
}
template <class T>
blas_vector to_blas_result(const buffer_view<T>& r) {
  return {&r.buffer(), r.offset(), r.size(), 1, 1};
}
template <class T>
blas_call make_call(blas_routine r) {
  blas_call c;
  c.routine = r;
  c.type = scalar_type_of<T>();
  return c;
}

}  // namespace detail

namespace blas {

// --- level 1 on buffer views ---

/// y = alpha * x + y (clblast::Axpy). x and y have the same size (std::invalid_argument
/// otherwise); extents past a view throw std::out_of_range; CLBlast failures throw blas_error.
template <class T>
event axpy(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::axpy);
  c.alpha = &alpha;
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  return detail::blas_run(q, c, wait);
}
/// x = alpha * x (clblast::Scal).
template <class T>
event scal(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::scal);
  c.alpha = &alpha;
  c.x = detail::to_blas(x);
  return detail::blas_run(q, c, wait);
}
/// y = x (clblast::Copy); same sizes.
template <class T>
event copy(const command_queue& q, const vector_view<T>& x, const vector_view<T>& y,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::copy);
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  return detail::blas_run(q, c, wait);
}
/// Exchanges x and y (clblast::Swap); same sizes.
template <class T>
event swap(const command_queue& q, const vector_view<T>& x, const vector_view<T>& y,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::swap);
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  return detail::blas_run(q, c, wait);
}

namespace detail_reduce {
template <class T>
event reduce(detail::blas_routine r, const command_queue& q, const vector_view<T>& x,
             const vector_view<T>* y, const buffer_view<T>& result,
             const std::vector<event>& wait) {
  auto c = detail::make_call<T>(r);
  c.x = detail::to_blas(x);
  if (y) c.y = detail::to_blas(*y);
  c.result = detail::to_blas_result(result);
  return detail::blas_run(q, c, wait);
}
}  // namespace detail_reduce

/// result[0] = x . y for float and double (clblast::Dot); `result` holds at least one element.
/// For complex vectors use dotu or dotc.
template <class T>
event dot(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
          const buffer_view<T>& result, const std::vector<event>& wait = {}) {
  static_assert(!is_complex_v<T>, "AnyCL BLAS: complex dot products are dotu and dotc");
  return detail_reduce::reduce<T>(detail::blas_routine::dot, q, x, &y, result, wait);
}
/// result[0] = sum x[i] * y[i] for complex vectors (clblast::Dotu).
template <class T>
event dotu(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
           const buffer_view<T>& result, const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotu is for complex vectors; use dot");
  return detail_reduce::reduce<T>(detail::blas_routine::dotu, q, x, &y, result, wait);
}
/// result[0] = sum conj(x[i]) * y[i] for complex vectors (clblast::Dotc).
template <class T>
event dotc(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
           const buffer_view<T>& result, const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotc is for complex vectors; use dot");
  return detail_reduce::reduce<T>(detail::blas_routine::dotc, q, x, &y, result, wait);
}
/// result[0] = ||x||_2 (clblast::Nrm2). For complex x the norm is the real part of result[0].
template <class T>
event nrm2(const command_queue& q, const vector_view<same_t<T>>& x, const buffer_view<T>& result,
           const std::vector<event>& wait = {}) {
  return detail_reduce::reduce<T>(detail::blas_routine::nrm2, q, x, nullptr, result, wait);
}
/// result[0] = sum |x[i]| (clblast::Asum); for complex, sum |re| + |im| in the real part.
template <class T>
event asum(const command_queue& q, const vector_view<same_t<T>>& x, const buffer_view<T>& result,
           const std::vector<event>& wait = {}) {
  return detail_reduce::reduce<T>(detail::blas_routine::asum, q, x, nullptr, result, wait);
}
/// result[0] = the 0-based index i of the first element of largest |x[i]|, as BLAS's iamax
/// (clblast::Amax). For complex x, CLBlast 1.5.3 compares |re(x[i])| only, not BLAS's
/// |re| + |im|. CLBlast returns the position in the buffer (offset + i * inc), so a vector with an
/// offset or an increment is first copied to a dense temporary (clblast::Copy).
template <class T>
event amax(const command_queue& q, const vector_view<T>& x, const buffer_view<cl_uint>& result,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::amax);
  c.x = detail::to_blas(x);
  c.result = detail::to_blas_result(result);
  return detail::blas_run(q, c, wait);
}

// --- level 2 on buffer views ---

/// y = alpha * op(A) * x + beta * y (clblast::Gemv): op(A) is y.size() x x.size().
template <class T>
event gemv(const command_queue& q, transpose ta, T alpha, const matrix_view<T>& a,
           const vector_view<same_t<T>>& x, T beta, const vector_view<same_t<T>>& y,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::gemv);
  c.ta = ta;
  c.alpha = &alpha;
  c.beta = &beta;
  c.a = detail::to_blas(a);
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  return detail::blas_run(q, c, wait);
}
/// A = alpha * x * y^T + A, A of x.size() x y.size(): clblast::Ger for float and double,
/// clblast::Geru for complex.
template <class T>
event ger(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
          const vector_view<same_t<T>>& y, const matrix_view<T>& a,
          const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(is_complex_v<T> ? detail::blas_routine::geru
                                                : detail::blas_routine::ger);
  c.alpha = &alpha;
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  c.a = detail::to_blas(a);
  return detail::blas_run(q, c, wait);
}
/// A = alpha * x * y^T + A for complex (clblast::Geru).
template <class T>
event geru(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const matrix_view<T>& a,
           const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: geru is for complex; use ger");
  return ger(q, alpha, x, y, a, wait);
}
/// A = alpha * x * y^H + A for complex (clblast::Gerc).
template <class T>
event gerc(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const matrix_view<T>& a,
           const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: gerc is for complex; use ger");
  auto c = detail::make_call<T>(detail::blas_routine::gerc);
  c.alpha = &alpha;
  c.x = detail::to_blas(x);
  c.y = detail::to_blas(y);
  c.a = detail::to_blas(a);
  return detail::blas_run(q, c, wait);
}
/// Solves op(A) * x' = x in place, A square and triangular (clblast::Trsv).
template <class T>
event trsv(const command_queue& q, triangle tri, transpose ta, diagonal diag,
           const matrix_view<T>& a, const vector_view<same_t<T>>& x,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::trsv);
  c.tri = tri;
  c.ta = ta;
  c.diag = diag;
  c.a = detail::to_blas(a);
  c.x = detail::to_blas(x);
  return detail::blas_run(q, c, wait);
}

// --- level 3 on buffer views ---

/// C = alpha * op(A) * op(B) + beta * C (clblast::Gemm): C is m x n, op(A) m x k, op(B) k x n.
/// Operands of another layout than C's are used through their transpose (A^H of another layout is
/// refused: CLBlast has no conjugate-without-transpose). k = 0 is refused; m or n = 0 does nothing.
template <class T>
event gemm(const command_queue& q, transpose ta, transpose tb, T alpha, const matrix_view<T>& a,
           const matrix_view<T>& b, T beta, const matrix_view<T>& c,
           const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::gemm);
  k.ta = ta;
  k.tb = tb;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail::to_blas(a);
  k.b = detail::to_blas(b);
  k.c = detail::to_blas(c);
  return detail::blas_run(q, k, wait);
}
/// `batch` gemms at once (clblast::GemmStridedBatched): matrix i of A starts stride_a elements
/// after matrix i - 1 (a, b, c give the first one and their views must hold all of them).
template <class T>
event gemm_batched(const command_queue& q, transpose ta, transpose tb, T alpha,
                   const matrix_view<T>& a, std::size_t stride_a, const matrix_view<T>& b,
                   std::size_t stride_b, T beta, const matrix_view<T>& c, std::size_t stride_c,
                   std::size_t batch, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::gemm_batched);
  k.ta = ta;
  k.tb = tb;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail::to_blas(a);
  k.b = detail::to_blas(b);
  k.c = detail::to_blas(c);
  k.stride_a = stride_a;
  k.stride_b = stride_b;
  k.stride_c = stride_c;
  k.batch = batch;
  return detail::blas_run(q, k, wait);
}
/// C = alpha * A * B + beta * C (side left) or alpha * B * A + beta * C (right), A symmetric of
/// which only the `tri` triangle is read (clblast::Symm).
template <class T>
event symm(const command_queue& q, side sd, triangle tri, T alpha, const matrix_view<T>& a,
           const matrix_view<T>& b, T beta, const matrix_view<T>& c,
           const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::symm);
  k.sd = sd;
  k.tri = tri;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail::to_blas(a);
  k.b = detail::to_blas(b);
  k.c = detail::to_blas(c);
  return detail::blas_run(q, k, wait);
}
/// C = alpha * op(A) * op(A)^T + beta * C, only the `tri` triangle of C written (clblast::Syrk);
/// ta is none (A is n x k) or trans (A is k x n).
template <class T>
event syrk(const command_queue& q, triangle tri, transpose ta, T alpha, const matrix_view<T>& a,
           T beta, const matrix_view<T>& c, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::syrk);
  k.tri = tri;
  k.ta = ta;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail::to_blas(a);
  k.c = detail::to_blas(c);
  return detail::blas_run(q, k, wait);
}
/// B = alpha * op(A) * B (left) or alpha * B * op(A) (right), A triangular (clblast::Trmm).
template <class T>
event trmm(const command_queue& q, side sd, triangle tri, transpose ta, diagonal diag, T alpha,
           const matrix_view<T>& a, const matrix_view<T>& b, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::trmm);
  k.sd = sd;
  k.tri = tri;
  k.ta = ta;
  k.diag = diag;
  k.alpha = &alpha;
  k.a = detail::to_blas(a);
  k.b = detail::to_blas(b);
  return detail::blas_run(q, k, wait);
}
/// Solves op(A) * X = alpha * B (left) or X * op(A) = alpha * B (right) for X, written over B
/// (clblast::Trsm).
template <class T>
event trsm(const command_queue& q, side sd, triangle tri, transpose ta, diagonal diag, T alpha,
           const matrix_view<T>& a, const matrix_view<T>& b, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::trsm);
  k.sd = sd;
  k.tri = tri;
  k.ta = ta;
  k.diag = diag;
  k.alpha = &alpha;
  k.a = detail::to_blas(a);
  k.b = detail::to_blas(b);
  return detail::blas_run(q, k, wait);
}

// --- on arrays: the same arguments without the queue ---

namespace detail_array {
template <class T>
detail::blas_matrix mat(const array<T>& a, const char* r, const char* role) {
  return detail::blas_matrix_of(a.core(), r, role);
}
template <class T>
detail::blas_vector vec(const array<T>& a, const char* r, const char* role) {
  return detail::blas_vector_of(a.core(), r, role);
}
}  // namespace detail_array

/// y = alpha * x + y on 1-D arrays.
template <class T>
event axpy(T alpha, const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::axpy);
  c.alpha = &alpha;
  c.x = detail_array::vec(x, "anycl::blas::axpy", "x");
  c.y = detail_array::vec(y, "anycl::blas::axpy", "y");
  return detail::blas_run_arrays(c, {&x.core(), &y.core()}, y.core(), wait);
}
/// x = alpha * x.
template <class T>
event scal(T alpha, const array<T>& x, const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::scal);
  c.alpha = &alpha;
  c.x = detail_array::vec(x, "anycl::blas::scal", "x");
  return detail::blas_run_arrays(c, {&x.core()}, x.core(), wait);
}
/// y = x.
template <class T>
event copy(const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::copy);
  c.x = detail_array::vec(x, "anycl::blas::copy", "x");
  c.y = detail_array::vec(y, "anycl::blas::copy", "y");
  return detail::blas_run_arrays(c, {&x.core(), &y.core()}, y.core(), wait);
}
/// Exchanges the elements of x and y.
template <class T>
event swap(const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::swap);
  c.x = detail_array::vec(x, "anycl::blas::swap", "x");
  c.y = detail_array::vec(y, "anycl::blas::swap", "y");
  return detail::blas_run_arrays(c, {&x.core(), &y.core()}, y.core(), wait);
}

namespace detail_array {
template <class R, class T>
array<R> reduce(detail::blas_routine r, const char* name, const array<T>& x, const array<T>* y,
                const std::vector<event>& wait) {
  auto c = detail::make_call<T>(r);
  c.x = vec(x, name, "x");
  if (y) c.y = vec(*y, name, "y");
  array<R> out(x.queue(), anycl::shape(1));
  c.result = {&out.buffer(), out.offset(), 1, 1, 1};
  if (y)
    detail::blas_run_arrays(c, {&x.core(), &y->core(), &out.core()}, out.core(), wait);
  else
    detail::blas_run_arrays(c, {&x.core(), &out.core()}, out.core(), wait);
  return out;
}
}  // namespace detail_array

/// x . y of 1-D float or double arrays, as a 1-element array on x's queue.
template <class T>
array<T> dot(const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  static_assert(!is_complex_v<T>, "AnyCL BLAS: complex dot products are dotu and dotc");
  return detail_array::reduce<T, T>(detail::blas_routine::dot, "anycl::blas::dot", x, &y, wait);
}
/// sum x[i] * y[i] of complex arrays, as a 1-element array.
template <class T>
array<T> dotu(const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotu is for complex vectors; use dot");
  return detail_array::reduce<T, T>(detail::blas_routine::dotu, "anycl::blas::dotu", x, &y, wait);
}
/// sum conj(x[i]) * y[i] of complex arrays, as a 1-element array.
template <class T>
array<T> dotc(const array<T>& x, const array<T>& y, const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotc is for complex vectors; use dot");
  return detail_array::reduce<T, T>(detail::blas_routine::dotc, "anycl::blas::dotc", x, &y, wait);
}
/// ||x||_2 as a 1-element array (the real part for complex).
template <class T>
array<T> nrm2(const array<T>& x, const std::vector<event>& wait = {}) {
  return detail_array::reduce<T, T>(detail::blas_routine::nrm2, "anycl::blas::nrm2", x, nullptr,
                                    wait);
}
/// sum |x[i]| as a 1-element array.
template <class T>
array<T> asum(const array<T>& x, const std::vector<event>& wait = {}) {
  return detail_array::reduce<T, T>(detail::blas_routine::asum, "anycl::blas::asum", x, nullptr,
                                    wait);
}
/// The index of the first largest |x[i]| as a 1-element array.
template <class T>
array<std::uint32_t> amax(const array<T>& x, const std::vector<event>& wait = {}) {
  return detail_array::reduce<std::uint32_t, T>(detail::blas_routine::amax, "anycl::blas::amax", x,
                                                nullptr, wait);
}

/// y = alpha * op(A) * x + beta * y; A a 2-D array, x and y 1-D.
template <class T>
event gemv(transpose ta, T alpha, const array<T>& a, const array<T>& x, T beta, const array<T>& y,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::gemv);
  c.ta = ta;
  c.alpha = &alpha;
  c.beta = &beta;
  c.a = detail_array::mat(a, "anycl::blas::gemv", "A");
  c.x = detail_array::vec(x, "anycl::blas::gemv", "x");
  c.y = detail_array::vec(y, "anycl::blas::gemv", "y");
  return detail::blas_run_arrays(c, {&a.core(), &x.core(), &y.core()}, y.core(), wait);
}
/// A = alpha * x * y^T + A (geru for complex).
template <class T>
event ger(T alpha, const array<T>& x, const array<T>& y, const array<T>& a,
          const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(is_complex_v<T> ? detail::blas_routine::geru
                                                : detail::blas_routine::ger);
  c.alpha = &alpha;
  c.x = detail_array::vec(x, "anycl::blas::ger", "x");
  c.y = detail_array::vec(y, "anycl::blas::ger", "y");
  c.a = detail_array::mat(a, "anycl::blas::ger", "A");
  return detail::blas_run_arrays(c, {&x.core(), &y.core(), &a.core()}, a.core(), wait);
}
/// A = alpha * x * y^H + A for complex arrays.
template <class T>
event gerc(T alpha, const array<T>& x, const array<T>& y, const array<T>& a,
           const std::vector<event>& wait = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: gerc is for complex; use ger");
  auto c = detail::make_call<T>(detail::blas_routine::gerc);
  c.alpha = &alpha;
  c.x = detail_array::vec(x, "anycl::blas::gerc", "x");
  c.y = detail_array::vec(y, "anycl::blas::gerc", "y");
  c.a = detail_array::mat(a, "anycl::blas::gerc", "A");
  return detail::blas_run_arrays(c, {&x.core(), &y.core(), &a.core()}, a.core(), wait);
}
/// Solves op(A) * x' = x in place.
template <class T>
event trsv(triangle tri, transpose ta, diagonal diag, const array<T>& a, const array<T>& x,
           const std::vector<event>& wait = {}) {
  auto c = detail::make_call<T>(detail::blas_routine::trsv);
  c.tri = tri;
  c.ta = ta;
  c.diag = diag;
  c.a = detail_array::mat(a, "anycl::blas::trsv", "A");
  c.x = detail_array::vec(x, "anycl::blas::trsv", "x");
  return detail::blas_run_arrays(c, {&a.core(), &x.core()}, x.core(), wait);
}
/// C = alpha * op(A) * op(B) + beta * C on 2-D arrays (transpose() views welcome).
template <class T>
event gemm(transpose ta, transpose tb, T alpha, const array<T>& a, const array<T>& b, T beta,
           const array<T>& c, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::gemm);
  k.ta = ta;
  k.tb = tb;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail_array::mat(a, "anycl::blas::gemm", "A");
  k.b = detail_array::mat(b, "anycl::blas::gemm", "B");
  k.c = detail_array::mat(c, "anycl::blas::gemm", "C");
  return detail::blas_run_arrays(k, {&a.core(), &b.core(), &c.core()}, c.core(), wait);
}
/// A * B as a new row-major array on A's queue (A m x k, B k x n).
template <class T>
array<T> matmul(const array<T>& a, const array<T>& b, const std::vector<event>& wait = {}) {
  const std::size_t m = a.dims() == 2 ? a.shape()[0] : 0;
  const std::size_t n = b.dims() == 2 ? b.shape()[1] : 0;
  array<T> c(a.queue(), anycl::shape{m, n});
  gemm(transpose::none, transpose::none, T(1), a, b, T(0), c, wait);
  return c;
}
/// Batched gemm on 3-D arrays (batch, rows, cols): C[i] = alpha * op(A[i]) * op(B[i]) +
/// beta * C[i] (clblast::GemmStridedBatched); the batch axis may have any stride.
template <class T>
event gemm_batched(transpose ta, transpose tb, T alpha, const array<T>& a, const array<T>& b,
                   T beta, const array<T>& c, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::gemm_batched);
  k.ta = ta;
  k.tb = tb;
  k.alpha = &alpha;
  k.beta = &beta;
  std::size_t ba = 0, bb = 0, bc = 0;
  k.a = detail::blas_batch_of(a.core(), "anycl::blas::gemm_batched", "A", k.stride_a, ba);
  k.b = detail::blas_batch_of(b.core(), "anycl::blas::gemm_batched", "B", k.stride_b, bb);
  k.c = detail::blas_batch_of(c.core(), "anycl::blas::gemm_batched", "C", k.stride_c, bc);
  if (ba != bc || bb != bc)
    throw std::invalid_argument("anycl::blas::gemm_batched: batches of " + std::to_string(ba) +
                                " (A), " + std::to_string(bb) + " (B) and " + std::to_string(bc) +
                                " (C) differ");
  k.batch = bc;
  return detail::blas_run_arrays(k, {&a.core(), &b.core(), &c.core()}, c.core(), wait);
}
/// C = alpha * A * B + beta * C (left) or alpha * B * A + beta * C (right), A symmetric.
template <class T>
event symm(side sd, triangle tri, T alpha, const array<T>& a, const array<T>& b, T beta,
           const array<T>& c, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::symm);
  k.sd = sd;
  k.tri = tri;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail_array::mat(a, "anycl::blas::symm", "A");
  k.b = detail_array::mat(b, "anycl::blas::symm", "B");
  k.c = detail_array::mat(c, "anycl::blas::symm", "C");
  return detail::blas_run_arrays(k, {&a.core(), &b.core(), &c.core()}, c.core(), wait);
}
/// C = alpha * op(A) * op(A)^T + beta * C, the `tri` triangle of C.
template <class T>
event syrk(triangle tri, transpose ta, T alpha, const array<T>& a, T beta, const array<T>& c,
           const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::syrk);
  k.tri = tri;
  k.ta = ta;
  k.alpha = &alpha;
  k.beta = &beta;
  k.a = detail_array::mat(a, "anycl::blas::syrk", "A");
  k.c = detail_array::mat(c, "anycl::blas::syrk", "C");
  return detail::blas_run_arrays(k, {&a.core(), &c.core()}, c.core(), wait);
}
/// B = alpha * op(A) * B (left) or alpha * B * op(A) (right), A triangular.
template <class T>
event trmm(side sd, triangle tri, transpose ta, diagonal diag, T alpha, const array<T>& a,
           const array<T>& b, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::trmm);
  k.sd = sd;
  k.tri = tri;
  k.ta = ta;
  k.diag = diag;
  k.alpha = &alpha;
  k.a = detail_array::mat(a, "anycl::blas::trmm", "A");
  k.b = detail_array::mat(b, "anycl::blas::trmm", "B");
  return detail::blas_run_arrays(k, {&a.core(), &b.core()}, b.core(), wait);
}
/// Solves op(A) * X = alpha * B (left) or X * op(A) = alpha * B (right), X over B.
template <class T>
event trsm(side sd, triangle tri, transpose ta, diagonal diag, T alpha, const array<T>& a,
           const array<T>& b, const std::vector<event>& wait = {}) {
  auto k = detail::make_call<T>(detail::blas_routine::trsm);
  k.sd = sd;
  k.tri = tri;
  k.ta = ta;
  k.diag = diag;
  k.alpha = &alpha;
  k.a = detail_array::mat(a, "anycl::blas::trsm", "A");
  k.b = detail_array::mat(b, "anycl::blas::trsm", "B");
  return detail::blas_run_arrays(k, {&a.core(), &b.core()}, b.core(), wait);
}

}  // namespace blas
}  // namespace anycl
