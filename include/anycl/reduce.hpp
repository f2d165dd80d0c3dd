// SPDX-License-Identifier: Apache-2.0
// Reductions of device arrays: sum, min, max, dot, count_if, any, all (whole array or along one
// axis), user reductions from OpenCL expressions (reduction_kernel, as PyOpenCL's
// ReductionKernel), and the type-erased back ends they call (the engine they share is private:
// src/arrays/reduce_engine.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/export.hpp"
#include "anycl/expression.hpp"

namespace anycl {

/// What sum() and dot() of T return: integers accumulate in 64 bits (int64_t for signed element
/// types, uint64_t for unsigned ones; the sum wraps modulo 2^64 when it does not fit), float,
/// double and the complex types in their own type.
template <class T>
using sum_type_t =
    std::conditional_t<std::is_floating_point_v<T> || is_complex_element_v<T>, T,
                       std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

namespace detail {

// --- the engine ---

/// A launch shape (src/: the array layer's launch plans); the back ends below take one from tests.
struct launch_plan;

/// A reduction described by OpenCL C text, the form every reduction here takes and that generated
/// code (e.g. element-wise expressions fused into a reduction) can use directly. The kernel is
///   result = reduce(... reduce(reduce(neutral, map(0)), map(1)) ..., map(n - 1))
/// evaluated pairwise in an unspecified grouping: `reduce` must be associative, and commutative
/// on devices with the GPU shape. Generated source:
///   <preamble>
///   inline <acc_type> anycl_reduce_op(<acc_type> a, <acc_type> b) { return (<reduce>); }
///   kernel anycl_reduce_partial(ulong n, ..., <params>) { <prologue> ... map(i) ... }
/// where `map` may use `i` (a ulong element index) and the names in `params`; names starting with
/// `anycl_` are reserved. Built with the library options (no -cl-fast-relaxed-math: float sums
/// stay pairwise).
struct reduction_spec {
  std::string acc_type;      ///< OpenCL C type of the accumulator, e.g. "float"
  std::size_t acc_size = 0;  ///< its size in bytes on the device (the result's size)
  std::string neutral;       ///< identity of `reduce`, e.g. "0"
  std::string reduce;        ///< expression in `a` and `b`, e.g. "a + b"
  std::string map;           ///< expression in `i`, e.g. "x[i] * y[i]"
  std::string params;        ///< kernel parameters, e.g. "global const float* x, ulong x__off"
  std::string prologue;      ///< statements run first in the kernel, e.g. "x += x__off;"
  std::string preamble;      ///< helper functions and types put before everything else
  std::string name = "anycl-reduction";  ///< program name in messages
};

// --- the built-in reductions, untyped ---

/// argmin/argmax: the row-major index of the first smallest or largest value (whole arrays and
/// expressions).
enum class reduce_op : unsigned char { sum, min, max, any, all, argmin, argmax };

/// One built-in reduction, the single entry point of the forms below: `op` over every element of
/// `a` (a view in any layout), or along `axis` (of arrays sum, min, max; of expressions also any,
/// all and counts); with `b`, the dot product
/// sum(a[k] * b[k]) of equal shapes and types (op is sum); with `predicate`, the number of elements
/// for which that OpenCL expression in `x` is true. `what` names the calling function in messages.
/// `plan`, when given, overrides the device's launch shape (a GPU-shaped plan runs the GPU code on
/// any device; whole-array forms only).
struct reduce_request {
  reduce_request(const array_core& in, reduce_op o, const char* caller) noexcept
      : a(&in), op(o), what(caller) {}
  const array_core* a;
  reduce_op op;
  const char* what;
  const array_core* b = nullptr;
  const std::string* predicate = nullptr;
  std::optional<unsigned> axis;
  const launch_plan* plan = nullptr;
  /// Instead of `a`'s elements, the values of this expression (no dot; `a` is its first array
  /// operand). With `predicate`, counts the values for which it holds.
  const expression_code* expr = nullptr;
};

/// Runs `r`. Over every element: writes the result into `result` (the accumulator type: 64-bit for
/// integer sums, T otherwise, a 32-bit 0/1 for any/all, std::uint64_t for a count) and returns an
/// empty array_core. Along an axis: returns the result, with that axis removed (shape (1) for a
/// 1-D input) and the accumulator's element type (int32 0/1 for any and all, uint64 counts);
/// `result` is unused. Throws
/// std::invalid_argument for min/max of no elements, a bad axis, mismatched dot operands, an empty
/// predicate or a default-constructed array.
ANYCL_EXPORT array_core reduce_builtin(const reduce_request& r, void* result);
/// reduce_builtin along `axis`.
inline array_core reduce_along(const array_core& a, unsigned axis, reduce_op op, const char* what) {
  reduce_request r(a, op, what);
  r.axis = axis;
  return reduce_builtin(r, nullptr);
}

// --- reduction_kernel, untyped ---

/// One argument of a reduction_kernel call: an array, or a scalar of type `type`.
struct reduction_arg {
  const array_core* array = nullptr;
  scalar_type type = scalar_type::i32;
  alignas(8) unsigned char value[8] = {};
};

/// A parsed reduction_kernel: its parameters and the reduction_spec it runs.
class ANYCL_EXPORT reduction_program {
 public:
  /// One parameter of the list the user gave.
  struct param {
    std::string decl;  ///< as written (trimmed)
    std::string name;
    scalar_type type = scalar_type::f32;  ///< the scalar, or what the pointer points to
    bool pointer = false;                 ///< a `global T*` (takes an array)
    bool is_const = false;                ///< `const T*`
  };
  /// Parses and checks `arguments` (std::invalid_argument naming the parameter at fault).
  reduction_program(anycl::context ctx, scalar_type acc, std::string neutral, std::string reduce,
                    std::string map, const std::string& arguments, std::string preamble);
  const std::vector<param>& params() const noexcept { return params_; }
  const reduction_spec& spec() const noexcept { return spec_; }
  /// Checks `args` against the parameters, runs the reduction, writes the result to `result`.
  void run(const command_queue& queue, const reduction_arg* args, std::size_t count, void* result,
           const launch_plan* plan) const;

 private:
  anycl::context ctx_;
  std::vector<param> params_;
  reduction_spec spec_;
};

/// The sum of complex values: the sums of their real and imaginary parts, each a fused,
/// compensated reduction of real values (defined below).
template <class X>
typename bare_t<X>::value_type complex_sum(const X& x);

/// Throws std::invalid_argument unless `a` and `b` are arrays of one shape and context (the
/// complex forms of dot and vdot, which are sums of expressions: those would broadcast).
template <class T>
void require_dot_operands(const array<T>& a, const array<T>& b, const char* what) {
  const std::string w(what);
  if (!a.core().valid() || !b.core().valid())
    throw std::invalid_argument(w + ": an operand array is empty (default-constructed)");
  if (a.shape() != b.shape())
    throw std::invalid_argument(w + ": shapes " + a.shape().str() + " and " + b.shape().str() +
                                " differ");
  if (a.context().get() != b.context().get())
    throw std::invalid_argument(w + ": the arrays belong to different contexts");
}

}  // namespace detail

// --- whole-array reductions ---

/// The sum of the elements (0 for an empty array); see sum_type_t for the result type. Float and
/// double sums are compensated ((sum, error) pairs per lane, TwoSum at every step, pairwise
/// combination): the result is the correctly rounded sum in all but extreme cases, better than a
/// pairwise sum. Views in any layout (a strided view is read through its strides, not copied).
/// Blocks until the result is on the host.
template <class T>
sum_type_t<T> sum(const array<T>& a) {
  static_assert(is_real_element_v<T> || is_complex_element_v<T>,
                "AnyCL: anycl::sum of half values: sum anycl::cast<float>(x)");
  if constexpr (is_complex_element_v<T>) {
    return detail::complex_sum(a);
  } else {
    sum_type_t<T> r{};
    detail::reduce_builtin({a.core(), detail::reduce_op::sum, "anycl::sum"}, &r);
    return r;
  }
}
/// The smallest element; NaNs are ignored as by fmin (NaN only when every element is NaN).
/// Throws std::invalid_argument for an empty array.
template <class T>
T min(const array<T>& a) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::min works on real element types (complex arrays hold data for BLAS and FFT)");
  T r{};
  detail::reduce_builtin({a.core(), detail::reduce_op::min, "anycl::min"}, &r);
  return r;
}
/// The largest element; NaNs are ignored as by fmax. Throws std::invalid_argument when empty.
template <class T>
T max(const array<T>& a) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::max works on real element types (complex arrays hold data for BLAS and FFT)");
  T r{};
  detail::reduce_builtin({a.core(), detail::reduce_op::max, "anycl::max"}, &r);
  return r;
}
/// sum(a[k] * b[k]) over equal shapes (std::invalid_argument otherwise; layouts may differ);
/// products of integers are formed and summed in 64 bits; float products are rounded to T, then
/// summed compensated as in sum().
template <class T>
sum_type_t<T> dot(const array<T>& a, const array<T>& b) {
  static_assert(is_real_element_v<T> || is_complex_element_v<T>,
                "AnyCL: anycl::dot of half values: take the dot of anycl::cast<float>(...)");
  if constexpr (is_complex_element_v<T>) {
    detail::require_dot_operands(a, b, "anycl::dot");
    return detail::complex_sum(a * b);
  } else {
    sum_type_t<T> r{};
    detail::reduce_request q(a.core(), detail::reduce_op::sum, "anycl::dot");
    q.b = &b.core();
    detail::reduce_builtin(q, &r);
    return r;
  }
}
/// numpy's vdot: sum(conj(a[k]) * b[k]) over equal shapes, the first operand conjugated (for real
/// element types, dot(a, b)).
template <class T>
sum_type_t<T> vdot(const array<T>& a, const array<T>& b) {
  if constexpr (is_complex_element_v<T>) {
    detail::require_dot_operands(a, b, "anycl::vdot");
    return detail::complex_sum(conj(a) * b);
  } else {
    return dot(a, b);
  }
}
/// How many elements satisfy `predicate`, an OpenCL C expression in `x` (the element, of T's
/// OpenCL type), e.g. "x > 0.5f". 0 for an empty array. A predicate that does not compile throws
/// build_error with the compiler's log; an empty one std::invalid_argument.
template <class T>
std::uint64_t count_if(const array<T>& a, const std::string& predicate) {
  static_assert(is_real_element_v<T>,
                "AnyCL: anycl::count_if works on real element types (complex arrays hold data for "
                "BLAS and FFT)");
  detail::reduce_request q(a.core(), detail::reduce_op::sum, "anycl::count_if");
  q.predicate = &predicate;
  std::uint64_t r = 0;
  detail::reduce_builtin(q, &r);
  return r;
}
/// True when some element is non-zero (NaN counts as non-zero); false for an empty array.
template <class T>
bool any(const array<T>& a) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::any works on real element types (complex arrays hold data for BLAS and FFT)");
  cl_uint r = 0;
  detail::reduce_builtin({a.core(), detail::reduce_op::any, "anycl::any"}, &r);
  return r != 0;
}
/// True when every element is non-zero; true for an empty array.
template <class T>
bool all(const array<T>& a) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::all works on real element types (complex arrays hold data for BLAS and FFT)");
  cl_uint r = 1;
  detail::reduce_builtin({a.core(), detail::reduce_op::all, "anycl::all"}, &r);
  return r != 0;
}

// --- reductions of expressions ---

namespace detail {
/// `op` over the values of expression `e`, fused into the reduction's kernel (no temporary).
template <class R, class E>
R reduce_expression(const E& e, reduce_op op, const char* what,
                    const std::string* predicate = nullptr) {
  require_reducible<E>();
  const expression_code code = describe(e);
  reduce_request q(code.arrays.front(), op, what);
  q.expr = &code;
  q.predicate = predicate;
  R r{};
  reduce_builtin(q, &r);
  return r;
}
template <class E>
using if_expression_t = std::enable_if_t<is_expression_v<E>>;
/// count_if's predicate for expressions: the value is non-zero.
inline const std::string& nonzero_predicate() {
  static const std::string p = "x != (T)0";
  return p;
}
}  // namespace detail

/// The sum of an element-wise expression's values, computed inside the reduction's kernel:
/// `anycl::sum(x * y)` reads x and y once and writes nothing. Compensated as sum(array). A complex
/// expression's sum is two such reductions, of its real and of its imaginary parts.
template <class E, class = detail::if_expression_t<E>>
sum_type_t<typename E::value_type> sum(const E& e) {
  if constexpr (is_complex_element_v<typename E::value_type>)
    return detail::complex_sum(e);
  else
    return detail::reduce_expression<sum_type_t<typename E::value_type>>(e, detail::reduce_op::sum,
                                                                         "anycl::sum");
}

namespace detail {
template <class X>
typename bare_t<X>::value_type complex_sum(const X& x) {
  using C = typename bare_t<X>::value_type;
  return C(anycl::sum(real(x)), anycl::sum(imag(x)));
}
}  // namespace detail
/// The smallest value of an expression (`anycl::min(a - b)`); NaNs ignored; std::invalid_argument
/// when it has no elements.
template <class E, class = detail::if_expression_t<E>>
typename E::value_type min(const E& e) {
  return detail::reduce_expression<typename E::value_type>(e, detail::reduce_op::min, "anycl::min");
}
/// The largest value of an expression (`anycl::max(abs(a - b))`, the largest difference).
template <class E, class = detail::if_expression_t<E>>
typename E::value_type max(const E& e) {
  return detail::reduce_expression<typename E::value_type>(e, detail::reduce_op::max, "anycl::max");
}
/// How many values of an expression are non-zero: `anycl::count_if(x > 0.5f)`.
template <class E, class = detail::if_expression_t<E>>
std::uint64_t count_if(const E& e) {
  return detail::reduce_expression<std::uint64_t>(e, detail::reduce_op::sum, "anycl::count_if",
                                                  &detail::nonzero_predicate());
}
/// Whether some value of an expression is non-zero (false when it has no elements).
template <class E, class = detail::if_expression_t<E>>
bool any(const E& e) {
  return detail::reduce_expression<cl_uint>(e, detail::reduce_op::any, "anycl::any") != 0;
}
/// Whether every value of an expression is non-zero (true when it has no elements).
template <class E, class = detail::if_expression_t<E>>
bool all(const E& e) {
  return detail::reduce_expression<cl_uint>(e, detail::reduce_op::all, "anycl::all") != 0;
}

/// The row-major index of the smallest element of an array or value of an expression, the first
/// one on ties; a NaN counts as the smallest (the first NaN's index where there is one, as
/// numpy's). Throws std::invalid_argument when there are no elements.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
std::uint64_t argmin(const X& x) {
  return detail::reduce_expression<std::uint64_t>(x, detail::reduce_op::argmin, "anycl::argmin");
}
/// The row-major index of the largest element or value, the first on ties; a NaN counts as the
/// largest. Throws std::invalid_argument when there are no elements.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
std::uint64_t argmax(const X& x) {
  return detail::reduce_expression<std::uint64_t>(x, detail::reduce_op::argmax, "anycl::argmax");
}

// --- reductions along one axis ---

/// An axis for the reductions along one axis: `sum(a, anycl::axis{1})`. A type of its own, so that
/// `min(a, axis{1})` (a reduction) can never be taken for the element-wise `min(a, 1)`.
struct axis {
  explicit constexpr axis(unsigned i) noexcept : index(i) {}
  unsigned index;
};

/// Sums along axis `ax`: the result has that axis removed (a 1-D input gives a 1-element array)
/// and sum_type_t<T> elements; an axis of extent 0 sums to 0. Throws std::invalid_argument for an
/// axis past dims(). Asynchronous: the result's last_event() is the kernel.
template <class T>
array<sum_type_t<T>> sum(const array<T>& a, axis ax) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::sum works on real element types (complex arrays hold data for BLAS and FFT)");
  return array<sum_type_t<T>>(
      detail::reduce_along(a.core(), ax.index, detail::reduce_op::sum, "anycl::sum"));
}
/// Minima along axis `ax` (NaNs ignored); std::invalid_argument for a bad axis or an axis of
/// extent 0 with other extents non-zero.
template <class T>
array<T> min(const array<T>& a, axis ax) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::min works on real element types (complex arrays hold data for BLAS and FFT)");
  return array<T>(detail::reduce_along(a.core(), ax.index, detail::reduce_op::min, "anycl::min"));
}
/// Maxima along axis `ax` (NaNs ignored); errors as min(a, axis).
template <class T>
array<T> max(const array<T>& a, axis ax) {
  static_assert(
      is_real_element_v<T>,
      "AnyCL: anycl::max works on real element types (complex arrays hold data for BLAS and FFT)");
  return array<T>(detail::reduce_along(a.core(), ax.index, detail::reduce_op::max, "anycl::max"));
}

/// Asks an axis reduction to keep the reduced axis, with extent 1, so that its result broadcasts
/// back against the input, as numpy's keepdims=True: `x - anycl::mean(x, axis{1}, keepdims)`.
struct keepdims_t {
  explicit constexpr keepdims_t() = default;
};
inline constexpr keepdims_t keepdims{};

namespace detail {
/// The element type of an array or expression.
template <class X>
using value_of_t = typename bare_t<X>::value_type;
/// `r`, a reduction along `axis` of an operand of shape `in`, reshaped to `in` with that axis of
/// extent 1.
inline array_core keep_axis(const array_core& r, const anycl::shape& in, unsigned axis) {
  std::vector<std::size_t> e(in.extents().begin(), in.extents().begin() + in.dims());
  e[axis] = 1;
  return r.reshape(anycl::shape(e));
}
/// `op` along `ax` of the values of an expression (or of an array, through describe()), fused
/// into the reduction's kernel, as an array of R; with `keep`, keeping the axis (keepdims).
template <class R, class X>
array<R> reduce_expression_along(const X& x, axis ax, reduce_op op, const char* what, bool keep,
                                 const std::string* predicate = nullptr) {
  require_reducible<X>();
  const expression_code code = describe(x);
  reduce_request q(code.arrays.front(), op, what);
  q.expr = &code;
  q.predicate = predicate;
  q.axis = ax.index;
  array_core r = reduce_builtin(q, nullptr);
  return array<R>(keep ? keep_axis(r, code.extents, ax.index) : r);
}
/// An array's reduction `r` along `ax`, with the axis kept.
template <class R, class T>
array<R> keep_axis(const array<R>& r, const array<T>& x, axis ax) {
  return array<R>(keep_axis(r.core(), x.shape(), ax.index));
}
}  // namespace detail

/// Sums of an expression's values along axis `ax`, fused into the reduction's kernel
/// (`anycl::sum(x * y, axis{1})`, the row-wise dot products); as sum(array, axis) otherwise.
template <class E, class = detail::if_expression_t<E>>
array<sum_type_t<typename E::value_type>> sum(const E& e, axis ax) {
  return detail::reduce_expression_along<sum_type_t<typename E::value_type>>(
      e, ax, detail::reduce_op::sum, "anycl::sum", false);
}
/// Minima of an expression's values along `ax`; as min(array, axis) otherwise.
template <class E, class = detail::if_expression_t<E>>
array<typename E::value_type> min(const E& e, axis ax) {
  return detail::reduce_expression_along<typename E::value_type>(e, ax, detail::reduce_op::min,
                                                                 "anycl::min", false);
}
/// Maxima of an expression's values along `ax` (`anycl::max(abs(a - b), axis{0})`).
template <class E, class = detail::if_expression_t<E>>
array<typename E::value_type> max(const E& e, axis ax) {
  return detail::reduce_expression_along<typename E::value_type>(e, ax, detail::reduce_op::max,
                                                                 "anycl::max", false);
}
/// How many values along `ax` of an array or expression are non-zero
/// (`anycl::count_if(x > 0.5f, axis{1})`): uint64_t counts, 0 along an axis of extent 0.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> count_if(const X& x, axis ax) {
  return detail::reduce_expression_along<std::uint64_t>(
      x, ax, detail::reduce_op::sum, "anycl::count_if", false, &detail::nonzero_predicate());
}
/// Whether some value along `ax` is non-zero: int32_t 1 or 0 (0 along an axis of extent 0).
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::int32_t> any(const X& x, axis ax) {
  return detail::reduce_expression_along<std::int32_t>(x, ax, detail::reduce_op::any, "anycl::any",
                                                       false);
}
/// Whether every value along `ax` is non-zero: int32_t 1 or 0 (1 along an axis of extent 0).
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::int32_t> all(const X& x, axis ax) {
  return detail::reduce_expression_along<std::int32_t>(x, ax, detail::reduce_op::all, "anycl::all",
                                                       false);
}

/// The index along `ax` of each line's smallest value, as argmin() of the line (the first on
/// ties, a NaN first): uint64_t indices. Throws std::invalid_argument for an axis of extent 0.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> argmin(const X& x, axis ax) {
  return detail::reduce_expression_along<std::uint64_t>(x, ax, detail::reduce_op::argmin,
                                                        "anycl::argmin", false);
}
/// The index along `ax` of each line's largest value, as argmax() of the line.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> argmax(const X& x, axis ax) {
  return detail::reduce_expression_along<std::uint64_t>(x, ax, detail::reduce_op::argmax,
                                                        "anycl::argmax", false);
}

// --- the same, keeping the reduced axis ---

/// sum(x, ax) with the axis kept at extent 1 (keepdims), for arrays and expressions.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<sum_type_t<detail::value_of_t<X>>> sum(const X& x, axis ax, keepdims_t) {
  if constexpr (detail::is_array_v<X>)
    return detail::keep_axis(anycl::sum(x, ax), x, ax);
  else
    return detail::reduce_expression_along<sum_type_t<detail::value_of_t<X>>>(
        x, ax, detail::reduce_op::sum, "anycl::sum", true);
}
/// min(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<detail::value_of_t<X>> min(const X& x, axis ax, keepdims_t) {
  if constexpr (detail::is_array_v<X>)
    return detail::keep_axis(anycl::min(x, ax), x, ax);
  else
    return detail::reduce_expression_along<detail::value_of_t<X>>(x, ax, detail::reduce_op::min,
                                                                  "anycl::min", true);
}
/// max(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<detail::value_of_t<X>> max(const X& x, axis ax, keepdims_t) {
  if constexpr (detail::is_array_v<X>)
    return detail::keep_axis(anycl::max(x, ax), x, ax);
  else
    return detail::reduce_expression_along<detail::value_of_t<X>>(x, ax, detail::reduce_op::max,
                                                                  "anycl::max", true);
}
/// count_if(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> count_if(const X& x, axis ax, keepdims_t) {
  return detail::reduce_expression_along<std::uint64_t>(
      x, ax, detail::reduce_op::sum, "anycl::count_if", true, &detail::nonzero_predicate());
}
/// any(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::int32_t> any(const X& x, axis ax, keepdims_t) {
  return detail::reduce_expression_along<std::int32_t>(x, ax, detail::reduce_op::any, "anycl::any",
                                                       true);
}
/// all(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::int32_t> all(const X& x, axis ax, keepdims_t) {
  return detail::reduce_expression_along<std::int32_t>(x, ax, detail::reduce_op::all, "anycl::all",
                                                       true);
}
/// argmin(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> argmin(const X& x, axis ax, keepdims_t) {
  return detail::reduce_expression_along<std::uint64_t>(x, ax, detail::reduce_op::argmin,
                                                        "anycl::argmin", true);
}
/// argmax(x, ax) with the axis kept.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> argmax(const X& x, axis ax, keepdims_t) {
  return detail::reduce_expression_along<std::uint64_t>(x, ax, detail::reduce_op::argmax,
                                                        "anycl::argmax", true);
}

// --- user reductions ---

/// A reduction from OpenCL C expressions, as PyOpenCL's ReductionKernel:
///
///     reduction_kernel<float> dot(ctx, "0", "a + b", "x[i] * y[i]",
///                                 "global const float* x, global const float* y");
///     float r = dot(queue, x, y);
///
/// `neutral` is the identity of `reduce_expr` (in `a` and `b`, of type T, associative and
/// commutative); `map_expr` is element `i` (a ulong) of the input, over the names of
/// `arguments`; `preamble` may define helpers. `arguments` holds scalars ("float s") and
/// `global [const] U* name` pointers, U an array element type; each pointer takes an `array<U>`
/// (a view with an offset is passed as base buffer + offset; a strided view is copied first,
/// which only `const` pointers allow), and n is the size of the first array argument. The
/// parameter list is checked here (std::invalid_argument naming the parameter); the program is
/// built per device at the first call (build_error with the log for bad expressions).
/// Copyable; copies share the program.
template <class T>
class reduction_kernel {
  static_assert(is_real_element_v<T>,
                "AnyCL: reduction_kernel<T> needs T in int8_t...int64_t, uint8_t...uint64_t, "
                "float, double");

 public:
  reduction_kernel(const anycl::context& ctx, std::string neutral, std::string reduce_expr,
                   std::string map_expr, const std::string& arguments, std::string preamble = {})
      : p_(std::make_shared<const detail::reduction_program>(
            ctx, scalar_type_of<T>(), std::move(neutral), std::move(reduce_expr),
            std::move(map_expr), arguments, std::move(preamble))) {}

  /// Runs on `queue` with one argument per parameter: arrays for pointers, arithmetic values
  /// (converted) for scalars. Throws std::invalid_argument for a wrong count, an array of the
  /// wrong element type, a scalar for a pointer or an array for a scalar, arrays or a queue of
  /// another context. Waits for the arrays' pending commands and records the reduction on them;
  /// blocks until the result is on the host.
  template <class... Args>
  T operator()(const command_queue& queue, const Args&... args) const {
    std::array<detail::reduction_arg, sizeof...(Args) + 1> a{make_arg(args)...};
    T r{};
    p_->run(queue, a.data(), sizeof...(Args), &r, nullptr);
    return r;
  }

  /// The parameters as parsed.
  const std::vector<detail::reduction_program::param>& params() const noexcept {
    return p_->params();
  }
  /// The engine's description (for tools and fused kernels).
  const detail::reduction_spec& spec() const noexcept { return p_->spec(); }

 private:
  template <class U>
  static detail::reduction_arg make_arg(const array<U>& a) {
    detail::reduction_arg r;
    r.array = &a.core();
    r.type = scalar_type_of<U>();
    return r;
  }
  template <class A>
  static detail::reduction_arg make_arg(const A& v) {
    static_assert(std::is_arithmetic_v<A> && !std::is_same_v<A, bool>,
                  "AnyCL: reduction_kernel arguments are anycl::array<U> or arithmetic scalars");
    detail::reduction_arg r;
    r.type = scalar_type_for<A>();
    static_assert(sizeof(A) <= sizeof(r.value), "scalar too large");
    std::memcpy(r.value, &v, sizeof(A));
    return r;
  }

  std::shared_ptr<const detail::reduction_program> p_;
};

}  // namespace anycl
