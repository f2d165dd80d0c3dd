// SPDX-License-Identifier: Apache-2.0
// BLAS levels 1-3 on buffer views and device arrays, through CLBlast (no CLBlast header here).
//
// Every routine comes in two forms:
//  - on buffer views: `blas::gemm(queue, ..., a, b, ..., c, waits)` with matrix_view / vector_view
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
#include <utility>

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

/// One operand of a BLAS call, untyped, as the templates pass it: an array (`core`), or a view's
/// buffer, window (first element, element count) and shape. A vector keeps its n in `rows` and its
/// increment in `ld`; a result is one element.
struct blas_operand {
  template <class T>
  blas_operand(const blas::matrix_view<T>& m)  // NOLINT: every operand form converts
      : buf(&m.data().buffer()),
        offset(m.data().offset()),
        size(m.data().size()),
        rows(m.rows()),
        cols(m.cols()),
        ld(m.ld()),
        lay(m.layout()) {}
  template <class T>
  blas_operand(const blas::vector_view<T>& v)  // NOLINT
      : buf(&v.data().buffer()),
        offset(v.data().offset()),
        size(v.data().size()),
        rows(v.size()),
        cols(1),
        ld(v.inc()) {}
  template <class T>
  blas_operand(const buffer_view<T>& result)  // NOLINT: a result
      : buf(&result.buffer()),
        offset(result.offset()),
        size(result.size()),
        rows(1),
        cols(1),
        ld(1) {}
  template <class T>
  blas_operand(const array<T>& a) : core(&a.core()) {}  // NOLINT

  const array_core* core = nullptr;
  const anycl::buffer* buf = nullptr;
  std::size_t offset = 0, size = 0;
  std::size_t rows = 0, cols = 0, ld = 0;
  blas::layout lay = blas::layout::row_major;
};

/// The arguments of a BLAS call besides its operands; the ones a routine does not take keep their
/// defaults.
struct blas_args {
  const char* routine = "";             ///< its descriptor's name (src/blas), e.g. "gemm"
  scalar_type type = scalar_type::f32;  ///< f32, f64, c64 or c128
  const void* alpha = nullptr;          ///< points to a T (null: 1)
  const void* beta = nullptr;           ///< points to a T (null: 0)
  blas::transpose ta = blas::transpose::none, tb = blas::transpose::none;
  blas::triangle tri = blas::triangle::upper;
  blas::side sd = blas::side::left;
  blas::diagonal diag = blas::diagonal::non_unit;
  std::size_t stride_a = 0, stride_b = 0, stride_c = 0, batch = 1;  ///< gemm_batched on views

  template <class T>
  static blas_args of(const char* routine, const T* alpha = nullptr, const T* beta = nullptr) {
    blas_args out;
    out.routine = routine;
    out.type = scalar_type_of<T>();
    out.alpha = alpha;
    out.beta = beta;
    return out;
  }
  /// Sets the options the routine takes, each by its type; of two transposes the first is op(A)'s.
  template <class... Option>
  blas_args& with(Option... options) {
    (set(options), ...);
    return *this;
  }

 private:
  void set(blas::transpose t) { (transposes_++ == 0 ? ta : tb) = t; }
  void set(blas::triangle t) { tri = t; }
  void set(blas::side s) { sd = s; }
  void set(blas::diagonal d) { diag = d; }
  int transposes_ = 0;
};

/// Runs `args.routine` on `operands`, given in the order of the routine's signature (the output
/// last), after `waits`: on `*queue` for views; for arrays (queue null) on the output's queue
/// after the arrays' last commands, recording the event on each of them. For the array forms of
/// the reductions `result` receives a new 1-element array on x's queue, the output then. The one
/// entry point of every blas:: template; argument errors throw before anything is enqueued.
ANYCL_EXPORT event blas_enqueue(const command_queue* queue, const blas_args& args,
                                std::initializer_list<blas_operand> operands,
                                const wait_list& waits, array_core* result = nullptr);

/// The array forms of the reductions: a new 1-element array of R holding the result.
template <class R, class T>
array<R> blas_reduce(const char* routine, std::initializer_list<blas_operand> operands,
                     const wait_list& waits) {
  array_core out;
  blas_enqueue(nullptr, blas_args::of<T>(routine), operands, waits, &out);
  return array<R>(std::move(out));
}

}  // namespace detail

namespace blas {

// --- level 1 on buffer views ---

/// y = alpha * x + y (clblast::Axpy). x and y have the same size (std::invalid_argument
/// otherwise); extents past a view throw std::out_of_range; CLBlast failures throw blas_error.
template <class T>
event axpy(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("axpy", &alpha), {x, y}, waits);
}
/// x = alpha * x (clblast::Scal).
template <class T>
event scal(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("scal", &alpha), {x}, waits);
}
/// y = x (clblast::Copy); same sizes.
template <class T>
event copy(const command_queue& q, const vector_view<T>& x, const vector_view<T>& y,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("copy"), {x, y}, waits);
}
/// Exchanges x and y (clblast::Swap); same sizes.
template <class T>
event swap(const command_queue& q, const vector_view<T>& x, const vector_view<T>& y,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("swap"), {x, y}, waits);
}
/// result[0] = x . y for float and double (clblast::Dot); `result` holds at least one element.
/// For complex vectors use dotu or dotc.
template <class T>
event dot(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
          const buffer_view<T>& result, const wait_list& waits = {}) {
  static_assert(!is_complex_v<T>, "AnyCL BLAS: complex dot products are dotu and dotc");
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("dot"), {x, y, result}, waits);
}
/// result[0] = sum x[i] * y[i] for complex vectors (clblast::Dotu).
template <class T>
event dotu(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
           const buffer_view<T>& result, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotu is for complex vectors; use dot");
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("dotu"), {x, y, result}, waits);
}
/// result[0] = sum conj(x[i]) * y[i] for complex vectors (clblast::Dotc).
template <class T>
event dotc(const command_queue& q, const vector_view<same_t<T>>& x, const vector_view<same_t<T>>& y,
           const buffer_view<T>& result, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotc is for complex vectors; use dot");
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("dotc"), {x, y, result}, waits);
}
/// result[0] = ||x||_2 (clblast::Nrm2). For complex x the norm is the real part of result[0].
template <class T>
event nrm2(const command_queue& q, const vector_view<same_t<T>>& x, const buffer_view<T>& result,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("nrm2"), {x, result}, waits);
}
/// result[0] = sum |x[i]| (clblast::Asum); for complex, sum |re| + |im| in the real part.
template <class T>
event asum(const command_queue& q, const vector_view<same_t<T>>& x, const buffer_view<T>& result,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("asum"), {x, result}, waits);
}
/// result[0] = the 0-based index i of the first element of largest |x[i]|, as BLAS's iamax
/// (clblast::Amax). For complex x, CLBlast 1.5.3 compares |re(x[i])| only, not BLAS's
/// |re| + |im|. CLBlast returns the position in the buffer (offset + i * inc), so a vector with an
/// offset or an increment is first copied to a dense temporary (clblast::Copy).
template <class T>
event amax(const command_queue& q, const vector_view<T>& x, const buffer_view<cl_uint>& result,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("amax"), {x, result}, waits);
}

// --- level 2 on buffer views ---

/// y = alpha * op(A) * x + beta * y (clblast::Gemv): op(A) is y.size() x x.size().
template <class T>
event gemv(const command_queue& q, transpose ta, T alpha, const matrix_view<T>& a,
           const vector_view<same_t<T>>& x, T beta, const vector_view<same_t<T>>& y,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("gemv", &alpha, &beta).with(ta),
                              {a, x, y}, waits);
}
/// A = alpha * x * y^T + A, A of x.size() x y.size(): clblast::Ger for float and double,
/// clblast::Geru for complex.
template <class T>
event ger(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
          const vector_view<same_t<T>>& y, const matrix_view<T>& a, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("ger", &alpha), {x, y, a}, waits);
}
/// A = alpha * x * y^T + A for complex (clblast::Geru).
template <class T>
event geru(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const matrix_view<T>& a, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: geru is for complex; use ger");
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("geru", &alpha), {x, y, a}, waits);
}
/// A = alpha * x * y^H + A for complex (clblast::Gerc).
template <class T>
event gerc(const command_queue& q, T alpha, const vector_view<same_t<T>>& x,
           const vector_view<same_t<T>>& y, const matrix_view<T>& a, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: gerc is for complex; use ger");
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("gerc", &alpha), {x, y, a}, waits);
}
/// Solves op(A) * x' = x in place, A square and triangular (clblast::Trsv).
template <class T>
event trsv(const command_queue& q, triangle tri, transpose ta, diagonal diag,
           const matrix_view<T>& a, const vector_view<same_t<T>>& x, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("trsv").with(tri, ta, diag), {a, x},
                              waits);
}

// --- level 3 on buffer views ---

/// C = alpha * op(A) * op(B) + beta * C (clblast::Gemm): C is m x n, op(A) m x k, op(B) k x n.
/// Operands of another layout than C's are used through their transpose (A^H of another layout is
/// refused: CLBlast has no conjugate-without-transpose). k = 0 is refused; m or n = 0 does nothing.
template <class T>
event gemm(const command_queue& q, transpose ta, transpose tb, T alpha, const matrix_view<T>& a,
           const matrix_view<T>& b, T beta, const matrix_view<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("gemm", &alpha, &beta).with(ta, tb),
                              {a, b, c}, waits);
}
/// `batch` gemms at once (clblast::GemmStridedBatched): matrix i of A starts stride_a elements
/// after matrix i - 1 (a, b, c give the first one and their views must hold all of them).
template <class T>
event gemm_batched(const command_queue& q, transpose ta, transpose tb, T alpha,
                   const matrix_view<T>& a, std::size_t stride_a, const matrix_view<T>& b,
                   std::size_t stride_b, T beta, const matrix_view<T>& c, std::size_t stride_c,
                   std::size_t batch, const wait_list& waits = {}) {
  auto args = detail::blas_args::of<T>("gemm_batched", &alpha, &beta).with(ta, tb);
  args.stride_a = stride_a;
  args.stride_b = stride_b;
  args.stride_c = stride_c;
  args.batch = batch;
  return detail::blas_enqueue(&q, args, {a, b, c}, waits);
}
/// C = alpha * A * B + beta * C (side left) or alpha * B * A + beta * C (right), A symmetric of
/// which only the `tri` triangle is read (clblast::Symm).
template <class T>
event symm(const command_queue& q, side sd, triangle tri, T alpha, const matrix_view<T>& a,
           const matrix_view<T>& b, T beta, const matrix_view<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("symm", &alpha, &beta).with(sd, tri),
                              {a, b, c}, waits);
}
/// C = alpha * op(A) * op(A)^T + beta * C, only the `tri` triangle of C written (clblast::Syrk);
/// ta is none (A is n x k) or trans (A is k x n).
template <class T>
event syrk(const command_queue& q, triangle tri, transpose ta, T alpha, const matrix_view<T>& a,
           T beta, const matrix_view<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("syrk", &alpha, &beta).with(tri, ta),
                              {a, c}, waits);
}
/// B = alpha * op(A) * B (left) or alpha * B * op(A) (right), A triangular (clblast::Trmm).
template <class T>
event trmm(const command_queue& q, side sd, triangle tri, transpose ta, diagonal diag, T alpha,
           const matrix_view<T>& a, const matrix_view<T>& b, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("trmm", &alpha).with(sd, tri, ta, diag),
                              {a, b}, waits);
}
/// Solves op(A) * X = alpha * B (left) or X * op(A) = alpha * B (right) for X, written over B
/// (clblast::Trsm).
template <class T>
event trsm(const command_queue& q, side sd, triangle tri, transpose ta, diagonal diag, T alpha,
           const matrix_view<T>& a, const matrix_view<T>& b, const wait_list& waits = {}) {
  return detail::blas_enqueue(&q, detail::blas_args::of<T>("trsm", &alpha).with(sd, tri, ta, diag),
                              {a, b}, waits);
}

// --- on arrays: the same arguments without the queue ---

/// y = alpha * x + y on 1-D arrays.
template <class T>
event axpy(T alpha, const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("axpy", &alpha), {x, y}, waits);
}
/// x = alpha * x.
template <class T>
event scal(T alpha, const array<T>& x, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("scal", &alpha), {x}, waits);
}
/// y = x.
template <class T>
event copy(const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("copy"), {x, y}, waits);
}
/// Exchanges the elements of x and y.
template <class T>
event swap(const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("swap"), {x, y}, waits);
}
/// x . y of 1-D float or double arrays, as a 1-element array on x's queue.
template <class T>
array<T> dot(const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  static_assert(!is_complex_v<T>, "AnyCL BLAS: complex dot products are dotu and dotc");
  return detail::blas_reduce<T, T>("dot", {x, y}, waits);
}
/// sum x[i] * y[i] of complex arrays, as a 1-element array.
template <class T>
array<T> dotu(const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotu is for complex vectors; use dot");
  return detail::blas_reduce<T, T>("dotu", {x, y}, waits);
}
/// sum conj(x[i]) * y[i] of complex arrays, as a 1-element array.
template <class T>
array<T> dotc(const array<T>& x, const array<T>& y, const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: dotc is for complex vectors; use dot");
  return detail::blas_reduce<T, T>("dotc", {x, y}, waits);
}
/// ||x||_2 as a 1-element array (the real part for complex).
template <class T>
array<T> nrm2(const array<T>& x, const wait_list& waits = {}) {
  return detail::blas_reduce<T, T>("nrm2", {x}, waits);
}
/// sum |x[i]| as a 1-element array.
template <class T>
array<T> asum(const array<T>& x, const wait_list& waits = {}) {
  return detail::blas_reduce<T, T>("asum", {x}, waits);
}
/// The index of the first largest |x[i]| as a 1-element array.
template <class T>
array<std::uint32_t> amax(const array<T>& x, const wait_list& waits = {}) {
  return detail::blas_reduce<std::uint32_t, T>("amax", {x}, waits);
}

/// y = alpha * op(A) * x + beta * y; A a 2-D array, x and y 1-D.
template <class T>
event gemv(transpose ta, T alpha, const array<T>& a, const array<T>& x, T beta, const array<T>& y,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("gemv", &alpha, &beta).with(ta),
                              {a, x, y}, waits);
}
/// A = alpha * x * y^T + A (geru for complex).
template <class T>
event ger(T alpha, const array<T>& x, const array<T>& y, const array<T>& a,
          const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("ger", &alpha), {x, y, a}, waits);
}
/// A = alpha * x * y^H + A for complex arrays.
template <class T>
event gerc(T alpha, const array<T>& x, const array<T>& y, const array<T>& a,
           const wait_list& waits = {}) {
  static_assert(is_complex_v<T>, "AnyCL BLAS: gerc is for complex; use ger");
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("gerc", &alpha), {x, y, a}, waits);
}
/// Solves op(A) * x' = x in place.
template <class T>
event trsv(triangle tri, transpose ta, diagonal diag, const array<T>& a, const array<T>& x,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("trsv").with(tri, ta, diag), {a, x},
                              waits);
}
/// C = alpha * op(A) * op(B) + beta * C on 2-D arrays (transpose() views welcome).
template <class T>
event gemm(transpose ta, transpose tb, T alpha, const array<T>& a, const array<T>& b, T beta,
           const array<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr, detail::blas_args::of<T>("gemm", &alpha, &beta).with(ta, tb),
                              {a, b, c}, waits);
}
/// A * B as a new row-major array on A's queue (A m x k, B k x n).
template <class T>
array<T> matmul(const array<T>& a, const array<T>& b, const wait_list& waits = {}) {
  const std::size_t m = a.dims() == 2 ? a.shape()[0] : 0;
  const std::size_t n = b.dims() == 2 ? b.shape()[1] : 0;
  array<T> c(a.queue(), anycl::shape{m, n});
  gemm(transpose::none, transpose::none, T(1), a, b, T(0), c, waits);
  return c;
}
/// Batched gemm on 3-D arrays (batch, rows, cols): C[i] = alpha * op(A[i]) * op(B[i]) +
/// beta * C[i] (clblast::GemmStridedBatched); the batch axis may have any stride.
template <class T>
event gemm_batched(transpose ta, transpose tb, T alpha, const array<T>& a, const array<T>& b,
                   T beta, const array<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(nullptr,
                              detail::blas_args::of<T>("gemm_batched", &alpha, &beta).with(ta, tb),
                              {a, b, c}, waits);
}
/// C = alpha * A * B + beta * C (left) or alpha * B * A + beta * C (right), A symmetric.
template <class T>
event symm(side sd, triangle tri, T alpha, const array<T>& a, const array<T>& b, T beta,
           const array<T>& c, const wait_list& waits = {}) {
  return detail::blas_enqueue(
      nullptr, detail::blas_args::of<T>("symm", &alpha, &beta).with(sd, tri), {a, b, c}, waits);
}
/// C = alpha * op(A) * op(A)^T + beta * C, the `tri` triangle of C.
template <class T>
event syrk(triangle tri, transpose ta, T alpha, const array<T>& a, T beta, const array<T>& c,
           const wait_list& waits = {}) {
  return detail::blas_enqueue(
      nullptr, detail::blas_args::of<T>("syrk", &alpha, &beta).with(tri, ta), {a, c}, waits);
}
/// B = alpha * op(A) * B (left) or alpha * B * op(A) (right), A triangular.
template <class T>
event trmm(side sd, triangle tri, transpose ta, diagonal diag, T alpha, const array<T>& a,
           const array<T>& b, const wait_list& waits = {}) {
  return detail::blas_enqueue(
      nullptr, detail::blas_args::of<T>("trmm", &alpha).with(sd, tri, ta, diag), {a, b}, waits);
}
/// Solves op(A) * X = alpha * B (left) or X * op(A) = alpha * B (right), X over B.
template <class T>
event trsm(side sd, triangle tri, transpose ta, diagonal diag, T alpha, const array<T>& a,
           const array<T>& b, const wait_list& waits = {}) {
  return detail::blas_enqueue(
      nullptr, detail::blas_args::of<T>("trsm", &alpha).with(sd, tri, ta, diag), {a, b}, waits);
}

}  // namespace blas
}  // namespace anycl
