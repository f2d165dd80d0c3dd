// SPDX-License-Identifier: Apache-2.0
// Element-wise expressions over device arrays, fused into one generated kernel per expression
// shape.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/export.hpp"

// Expressions
// -----------
// Arithmetic (+ - * / %, unary -), comparisons (< <= > >= == !=), logic (&& || !), where(c, a, b),
// math functions (sin cos tan exp exp2 log log2 log10 sqrt rsqrt pow abs floor ceil round tanh,
// binary min max, fma) and cast<U>(e) over array<T> and scalars build an expression; nothing runs
// until it is assigned to an array (`y = 2.0f * x + sin(y);`), used to construct one, or passed to
// eval(). The whole expression then runs as ONE generated kernel, with no temporaries. The kernel
// depends only on the expression's shape (its tree, element types and which array operands are
// strided views): scalar values are kernel arguments, so `y = a * x + b` with new a, b (or new
// arrays of the same kinds) reuses the kernel built the first time (in memory and on disk).
//
// Types: every array and sub-expression in one expression has the same element type (a mismatch
// is a compile-time error; convert with cast<U>(e)). Scalars take the element type of the
// expression next to them (`x * 2` with x an array<float> multiplies by 2.0f); an integer scalar
// that does not fit that type throws std::invalid_argument, and a floating-point scalar next to an
// integer expression is a compile-time error (it would be truncated). Comparisons, && || and !
// give int32_t 0 or 1, as OpenCL C's scalar comparisons do: `where(x > 0.5f, x, 0.0f)` works, and
// `cast<float>(x > 0.5f) * x` turns a mask into a factor. % on floating types is fmod; integer /
// and % by zero are undefined, as in OpenCL C. abs of a signed integer wraps for the minimum
// value; min/max on floating types are fmin/fmax. The math functions need a floating type.
// Complex arrays (std::complex<float>, std::complex<double>, as float2 and double2) take + - * /,
// unary -, == and !=, conj, real, imag, abs, arg, exp, sqrt, polar(r, theta) and
// cast<std::complex<...>>, and mix with float and double arrays and with real and std::complex
// scalars by numpy's rules: a complex value with a real one is complex, of the wider precision of
// the arrays (scalars take the arrays' precision). Integer and half operands next to complex ones
// are a compile-time error (cast<float> them). Division is Smith's (no overflow from the divisor's
// squares; division by 0 gives NaN), abs is hypot, sqrt the principal root.
// anycl::half arrays are loaded and stored as half (vload_half, vstore_half_rte) and computed in
// float: a fused expression rounds to half where it stores and where cast<half> says, not after
// every operation; scalars next to half are rounded to half first, as numpy's are.
//
// Shapes: array operands broadcast by numpy's rule (anycl/broadcast.hpp): shapes are aligned from
// the last axis, and axes of extent 1 and missing leading axes stretch, through stride-0 views
// without copies: `M - row` with M (1024, 1024) and row (1, 1024) or (1024) subtracts row from
// every row of M. The value then broadcasts to the destination's shape (`y = x` style assignment
// of a (1, n) row to an (m, n) matrix fills every row), never the destination to the value: an
// expression of shape (3, 4) into an array of shape (3, 1) is an error, as in numpy, and so is a
// broadcast view as the destination. Shapes that do not broadcast throw std::invalid_argument
// naming both shapes and the axis; arrays of different contexts are refused the same way.
// Operands and destinations may be strided views. `x = x + x` (same elements, same layout) is
// computed in place; a destination that overlaps an operand with another layout
// (`a.slice(1, n) = a.slice(0, n - 1) * 2`) is computed into a temporary first.
//
// Lifetime: an expression refers to the arrays it was built from (it copies temporaries, such as
// the view a.slice(...) returns); keep those arrays alive while the expression is.

/// What a complex operand may take (the message of the compile-time checks).
#define ANYCL_DETAIL_COMPLEX_OPS                                                                \
  "AnyCL: complex values take + - * /, unary -, == and !=, conj, real, imag, abs, arg, exp, "   \
  "sqrt and cast<std::complex<...>>; this operation needs real values (take real(), imag() or " \
  "abs() first)"

namespace anycl {

namespace detail {

// --- type-erased expression code (what a kernel needs to compute an expression) ---

/// One kernel argument of an expression: a buffer, or a by-value scalar of up to 64 bytes.
struct expression_arg {
  anycl::buffer mem;  ///< the buffer, when `is_buffer`
  std::array<unsigned char, 64> bytes{};
  std::size_t size = 0;  ///< bytes used of `bytes` (by-value arguments)
  bool is_buffer = false;
};

/// An expression as OpenCL C text plus the arguments that go with it, so that a kernel written
/// elsewhere (a reduction, say) can compute it inline. Paste `params` into the kernel's parameter
/// list, compute `value` for each element index `k` (a ulong in row-major order, as
/// ANYCL_FOR_EACH(k, n, chunk) from anycl/loop.h declares it; include that header) and set `args`
/// in the same order after the kernel's own. Names in the text start with the prefix given to
/// describe() ("e" by default), so they do not clash with the kernel's own.
struct expression_code {
  std::string params;                      ///< "global const float* e0, ulong e0_off, float e1"
  std::string value;                       ///< "((float)(e0[e0_off + k] * e1))"
  std::string type;                        ///< the OpenCL C name of the value's type, "float"
  scalar_type element = scalar_type::f32;  ///< the same as a scalar_type
  anycl::shape extents;                    ///< the shape the operands broadcast to
  /// Whether some operand is strided or broadcast; params then ends with "ulong4 <prefix>_ext"
  /// (ulong8 beyond 4 dimensions).
  bool uses_extents = false;
  /// The value along a run of the last axis, for kernels that walk rows: `row_setup` declares
  /// each strided operand's position at row-major element k (a row's first), and `row_value` is
  /// the value at element k + j of that row (ulong j), with each operand's last-axis stride
  /// (0, 1 or other) written into the text.
  std::string row_setup;
  std::string row_value;
  std::vector<array_core> arrays;    ///< the array operands in order (wait lists, aliasing)
  std::vector<expression_arg> args;  ///< one per parameter of `params`
  std::size_t size() const noexcept { return extents.size(); }
  /// The queue of the first array operand (where eval() computes).
  const command_queue& queue() const { return arrays.front().queue(); }
};

/// Collects the text and arguments of an expression while its nodes are visited (used by
/// describe()). Throws std::invalid_argument for an empty operand array, operand shapes that do
/// not broadcast and arrays of different contexts.
class ANYCL_EXPORT expression_builder {
 public:
  explicit expression_builder(std::string prefix);
  /// Adds an array operand; returns a placeholder for the text of its element k, which finish()
  /// writes once the shape the operands broadcast to is known.
  std::string add_array(const array_core& a);
  /// Adds a scalar of type `t` (the `size_of(t)` bytes at `value`); returns its parameter name.
  std::string add_scalar(scalar_type t, const void* value);
  /// The finished code for a value of type `t`, of the shape the operands broadcast to, or of
  /// `target` (a destination's shape) when given, to which that shape must broadcast.
  expression_code finish(std::string value, scalar_type t, const anycl::shape* target = nullptr);
  /// Throws std::invalid_argument: scalar `value` does not fit element type `t`.
  [[noreturn]] static void scalar_out_of_range(const std::string& value, scalar_type t);

 private:
  /// The mark add_array() returns for array operand `i` (no OpenCL C text holds its bytes).
  static std::string placeholder(std::size_t i);
  std::string prefix_;
  expression_code code_;
  std::vector<std::string> names_;  ///< the parameter name of each array operand
  unsigned next_ = 0;
};

/// Computes `code` into `dst` (equal shapes and element types, the same context, else
/// std::invalid_argument) with one generated kernel on `dst`'s queue; through a temporary when
/// `dst` overlaps an operand laid out differently.
ANYCL_EXPORT void evaluate(const array_core& dst, const expression_code& code);
/// Builds the kernels that evaluate() would build for `codes` into contiguous destinations that
/// no operand shares, as one program (see anycl::prepare).
ANYCL_EXPORT void prepare_expressions(const std::vector<expression_code>& codes);

// --- traits ---

template <class X>
using bare_t = std::remove_cv_t<std::remove_reference_t<X>>;

template <class X>
struct is_array : std::false_type {};
template <class T>
struct is_array<array<T>> : std::true_type {};

template <class X>
inline constexpr bool is_array_v = is_array<bare_t<X>>::value;
/// std::complex<float> or std::complex<double> (the host value of a complex scalar too).
template <class X>
inline constexpr bool is_complex_v = is_complex_element_v<bare_t<X>>;
/// A C++ arithmetic value (not bool), or a std::complex<float/double>, that can stand next to an
/// array in an expression.
template <class X>
inline constexpr bool is_scalar_v =
    (std::is_arithmetic_v<bare_t<X>> && !std::is_same_v<bare_t<X>, bool>) || is_complex_v<X>;
/// An array or an expression: something with an element type.
template <class X>
inline constexpr bool is_typed_v = is_array_v<X> || is_expression_v<X>;
template <class X>
inline constexpr bool is_operand_v = is_typed_v<X> || is_scalar_v<X>;
/// Operands of a binary operator or function: at least one array or expression.
template <class A, class B>
inline constexpr bool is_binary_v = is_operand_v<A>&& is_operand_v<B> &&
                                    (is_typed_v<A> || is_typed_v<B>);

/// float, double and half: the types the math functions, fmod and fmin/fmax take.
template <class T>
inline constexpr bool is_float_like_v = std::is_floating_point_v<T> || is_half_element_v<T>;

/// The real type of complex T (float for std::complex<float>); T itself otherwise.
template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};
template <class T>
using real_of_t = typename real_of<T>::type;

/// The value type of a std::complex scalar: it takes the precision of the typed operands next to
/// it (std::complex<float> with float or std::complex<float> ones, std::complex<double> with
/// double ones), as numpy's Python complex does.
struct complex_scalar {};

/// The array element type with the same kind and size as arithmetic type S.
template <class S>
using element_of_t = std::conditional_t<
    std::is_floating_point_v<S>, std::conditional_t<(sizeof(S) <= 4), float, double>,
    std::conditional_t<
        std::is_signed_v<S>,
        std::conditional_t<
            sizeof(S) == 1, std::int8_t,
            std::conditional_t<sizeof(S) == 2, std::int16_t,
                               std::conditional_t<sizeof(S) == 4, std::int32_t, std::int64_t>>>,
        std::conditional_t<
            sizeof(S) == 1, std::uint8_t,
            std::conditional_t<sizeof(S) == 2, std::uint16_t,
                               std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>>>>>;

template <class T>
struct type_is {
  using type = T;
};

/// True for float, double and the complex types: what mixes with complex values.
template <class T>
inline constexpr bool mixes_with_complex_v =
    std::is_floating_point_v<T> || is_complex_element_v<T> || std::is_same_v<T, complex_scalar>;

/// The element type of two value types in one expression (void stands for a real scalar): one
/// type throughout, except that complex values mix with float and double ones by numpy's rules
/// (the result is complex, of the wider precision).
template <class A, class B>
constexpr auto unify_pick() {
  if constexpr (std::is_void_v<A>) {
    return type_is<B>{};
  } else if constexpr (std::is_void_v<B> || std::is_same_v<A, B>) {
    return type_is<A>{};
  } else if constexpr (std::is_same_v<A, complex_scalar>) {
    return unify_pick<B, A>();
  } else if constexpr (is_complex_element_v<A> || is_complex_element_v<B> ||
                       std::is_same_v<B, complex_scalar>) {
    static_assert(mixes_with_complex_v<A> && mixes_with_complex_v<B>,
                  "AnyCL: complex values mix with float and double ones only; convert integer or "
                  "half arrays with anycl::cast<float>(...)");
    using RA = real_of_t<A>;
    using RB = std::conditional_t<std::is_same_v<B, complex_scalar>, RA, real_of_t<B>>;
    return type_is<std::complex<std::conditional_t<(sizeof(RA) >= sizeof(RB)), RA, RB>>>{};
  } else {
    static_assert(std::is_same_v<A, B>,
                  "AnyCL: arrays of different element types in one expression; convert one with "
                  "anycl::cast<U>(...)");
    return type_is<A>{};
  }
}
template <class A, class B>
struct unify2 {
  using type = typename decltype(unify_pick<A, B>())::type;
};
template <class... Vs>
struct unify {
  using type = void;
};
template <class V, class... Vs>
struct unify<V, Vs...> {
  using type = typename unify2<V, typename unify<Vs...>::type>::type;
};
template <class... Vs>
using unify_t = typename unify<Vs...>::type;

/// The OpenCL C name of the type T is computed in ("float" for half).
template <class T>
const char* cl_name() noexcept {
  return cl_value_name(scalar_type_of<T>());
}

/// The suffix of complex.h's functions for complex T: "_f" or "_d".
template <class T>
const char* complex_suffix() noexcept {
  return std::is_same_v<T, std::complex<float>> ? "_f" : "_d";
}

/// The text of a value of type From (void: a scalar, already of type To) as type To in an
/// expression of type To: a real value becomes a complex one with imaginary part 0, a complex
/// float a complex double.
template <class From, class To>
std::string promote(const std::string& v) {
  if constexpr (std::is_void_v<From> || std::is_same_v<From, complex_scalar> ||
                std::is_same_v<From, To>) {
    return v;
  } else if constexpr (is_complex_element_v<From>) {
    return std::string("convert_") + cl_name<To>() + "(" + v + ")";
  } else {
    const std::string r = cl_name<real_of_t<To>>();
    return std::string("((") + cl_name<To>() + ")((" + r + ")" + v + ", (" + r + ")0))";
  }
}

/// Converts scalar `v` to element type T; throws std::invalid_argument when an integer does not
/// fit.
template <class T, class S>
T convert_scalar(S v) {
  static_assert(
      !(std::is_floating_point_v<S> && std::is_integral_v<T>),
      "AnyCL: a floating-point scalar next to an integer expression would be "
      "truncated; use an integer scalar or convert the array with anycl::cast<float>(...)");
  if constexpr (std::is_integral_v<S> && std::is_integral_v<T>) {
    bool fits;
    if constexpr (std::is_signed_v<S>) {
      if (v < 0) {
        fits = std::is_signed_v<T> &&
               static_cast<long long>(v) >= static_cast<long long>(std::numeric_limits<T>::min());
      } else {
        fits = static_cast<unsigned long long>(v) <=
               static_cast<unsigned long long>(std::numeric_limits<T>::max());
      }
    } else {
      fits = static_cast<unsigned long long>(v) <=
             static_cast<unsigned long long>(std::numeric_limits<T>::max());
    }
    if (!fits) expression_builder::scalar_out_of_range(std::to_string(v), scalar_type_of<T>());
  }
  return static_cast<T>(v);
}

// --- expression nodes ---

/// An array operand; `Store` is `const array<T>&` for an lvalue, `array<T>` for a temporary.
template <class T, class Store>
struct terminal : expression_tag {
  using value_type = T;
  Store a;
  explicit terminal(Store x) : a(std::forward<Store>(x)) {}
  template <class Hint>
  std::string emit(expression_builder& b) const {
    return b.add_array(a.core());
  }
};

/// A scalar operand; it takes the element type `Hint` of the expression next to it (next to half,
/// it is rounded to half and passed as the float of that value).
template <class S>
struct scalar_node {
  using value_type = std::conditional_t<is_complex_v<S>, complex_scalar, void>;
  S v;
  template <class Hint>
  std::string emit(expression_builder& b) const {
    if constexpr (is_complex_element_v<Hint>) {
      using R = typename Hint::value_type;
      Hint h;
      if constexpr (is_complex_v<S>)
        h = Hint(static_cast<R>(v.real()), static_cast<R>(v.imag()));
      else
        h = Hint(static_cast<R>(v), R(0));
      return b.add_scalar(scalar_type_of<Hint>(), &h);
    } else {
      return emit_real<Hint>(b);
    }
  }
  template <class Hint>
  std::string emit_real(expression_builder& b) const {
    const Hint h = convert_scalar<Hint>(v);
    if constexpr (is_half_element_v<Hint>) {
      const float f = h;
      return b.add_scalar(scalar_type::f32, &f);
    } else {
      return b.add_scalar(scalar_type_of<Hint>(), &h);
    }
  }
};

template <class X>
auto wrap(X&& x) {
  if constexpr (is_array_v<X>) {
    using T = typename bare_t<X>::value_type;
    if constexpr (std::is_lvalue_reference_v<X>)
      return terminal<T, const array<T>&>(x);
    else
      return terminal<T, array<T>>(std::move(x));
  } else if constexpr (is_scalar_v<X>) {
    return scalar_node<bare_t<X>>{x};
  } else {
    return bare_t<X>(std::forward<X>(x));
  }
}
template <class X>
using wrapped_t = decltype(wrap(std::declval<X>()));

template <class N>
struct is_scalar_node : std::false_type {};
template <class S>
struct is_scalar_node<scalar_node<S>> : std::true_type {};

template <class Op, class A>
struct unary_node : expression_tag {
  using operand_type = typename A::value_type;
  using value_type = typename Op::template result<operand_type>;
  static_assert(!Op::floating_only || is_float_like_v<operand_type> ||
                    is_complex_element_v<operand_type>,
                "AnyCL: this math function (sin, cos, exp, log, sqrt, floor, round, tanh, ...) "
                "needs a float or double operand; convert integers with anycl::cast<float>(...)");
  static_assert(Op::complex_ok || !is_complex_element_v<operand_type>, ANYCL_DETAIL_COMPLEX_OPS);
  A a;
  explicit unary_node(A x) : a(std::move(x)) {}
  template <class Hint>
  std::string emit(expression_builder& b) const {
    return Op::template format<operand_type>(a.template emit<operand_type>(b));
  }
};

template <class Op, class A, class B>
struct binary_node : expression_tag {
  using operand_type = unify_t<typename A::value_type, typename B::value_type>;
  using value_type = typename Op::template result<operand_type>;
  static_assert(!Op::floating_only || is_float_like_v<operand_type>,
                "AnyCL: pow, fma and polar need float or double operands; convert integers with "
                "anycl::cast<float>(...)");
  static_assert(Op::complex_ok || !is_complex_element_v<operand_type>, ANYCL_DETAIL_COMPLEX_OPS);
  A a;
  B b;
  binary_node(A x, B y) : a(std::move(x)), b(std::move(y)) {}
  template <class Hint>
  std::string emit(expression_builder& bld) const {
    std::string l =
        promote<typename A::value_type, operand_type>(a.template emit<operand_type>(bld));
    std::string r =
        promote<typename B::value_type, operand_type>(b.template emit<operand_type>(bld));
    return Op::template format<operand_type>(l, r);
  }
};

/// fma(a, b, c) = a * b + c rounded once.
template <class A, class B, class C>
struct fma_node : expression_tag {
  using value_type =
      unify_t<typename A::value_type, typename B::value_type, typename C::value_type>;
  static_assert(is_float_like_v<value_type>,
                "AnyCL: pow and fma need float or double operands; convert integers with "
                "anycl::cast<float>(...)");
  A a;
  B b;
  C c;
  fma_node(A x, B y, C z) : a(std::move(x)), b(std::move(y)), c(std::move(z)) {}
  template <class Hint>
  std::string emit(expression_builder& bld) const {
    std::string s = "fma(" + a.template emit<value_type>(bld);
    s += ", " + b.template emit<value_type>(bld);
    s += ", " + c.template emit<value_type>(bld);
    return s + ")";
  }
};

/// The value type of where(c, a, b) from its branches: their shared element type, or for two
/// scalars their common type.
template <class A, class B>
struct where_type {
  using type = unify_t<typename A::value_type, typename B::value_type>;
};
template <class SA, class SB>
struct where_type<scalar_node<SA>, scalar_node<SB>> {
  using type = element_of_t<std::common_type_t<SA, SB>>;
};

/// where(c, a, b): a where c is non-zero, else b.
template <class C, class A, class B>
struct where_node : expression_tag {
  using value_type = typename where_type<A, B>::type;
  C c;
  A a;
  B b;
  where_node(C x, A y, B z) : c(std::move(x)), a(std::move(y)), b(std::move(z)) {}
  template <class Hint>
  std::string emit(expression_builder& bld) const {
    std::string s = "(" + c.template emit<typename C::value_type>(bld);
    s += " ? " + promote<typename A::value_type, value_type>(a.template emit<value_type>(bld));
    s += " : " + promote<typename B::value_type, value_type>(b.template emit<value_type>(bld));
    return s + ")";
  }
};

template <class U, class A>
struct cast_node : expression_tag {
  using value_type = U;
  using operand_type = typename A::value_type;
  A a;
  explicit cast_node(A x) : a(std::move(x)) {}
  static_assert(is_complex_element_v<U> || !is_complex_element_v<operand_type>,
                "AnyCL: cast<U> of complex values needs a complex U; take real(), imag() or abs() "
                "for a real one");
  static_assert(!is_complex_element_v<U> || mixes_with_complex_v<operand_type>,
                "AnyCL: cast<std::complex<...>> takes float, double or complex values; cast "
                "integers or half to float first");
  template <class Hint>
  std::string emit(expression_builder& b) const {
    const std::string v = a.template emit<operand_type>(b);
    if constexpr (is_complex_element_v<U>) return promote<operand_type, U>(v);
    // To half: rounded once, from a double directly (anycl/loop.h), the float of the result.
    else if constexpr (is_half_element_v<U>)
      return std::is_same_v<operand_type, double> ? "anycl_half_d(" + v + ")"
                                                  : "anycl_half_f((float)" + v + ")";
    else
      return std::string("((") + cl_name<U>() + ")" + v + ")";
  }
};

// --- operations ---

/// An operation whose value has the operand type.
struct same_type_op {
  static constexpr bool floating_only = false;
  static constexpr bool complex_ok = false;
  template <class T>
  using result = T;
};
/// An operation whose value is int32_t 0 or 1.
struct truth_op {
  static constexpr bool floating_only = false;
  static constexpr bool complex_ok = false;
  template <class T>
  using result = std::int32_t;
};
/// An operation of complex values too.
struct complex_same_op : same_type_op {
  static constexpr bool complex_ok = true;
};
struct complex_truth_op : truth_op {
  static constexpr bool complex_ok = true;
};
/// An operation whose value is real: the real type of a complex operand.
struct to_real_op : complex_same_op {
  template <class T>
  using result = real_of_t<T>;
};

/// `l sym r` cast to the result type; complex operands (where allowed) call complex.h's `fn`.
#define ANYCL_DETAIL_INFIX(name, sym, base, result_name, fn)                                      \
  struct name : base {                                                                            \
    template <class T>                                                                            \
    static std::string format(const std::string& l, const std::string& r) {                       \
      if constexpr (is_complex_element_v<T>) {                                                    \
        if (*fn != '\0') return std::string(fn) + complex_suffix<T>() + "(" + l + ", " + r + ")"; \
      }                                                                                           \
      return std::string("((") + result_name + ")(" + l + " " sym " " + r + "))";                 \
    }                                                                                             \
  };
ANYCL_DETAIL_INFIX(op_add, "+", complex_same_op, cl_name<T>(), "")
ANYCL_DETAIL_INFIX(op_sub, "-", complex_same_op, cl_name<T>(), "")
ANYCL_DETAIL_INFIX(op_mul, "*", complex_same_op, cl_name<T>(), "anycl_cmul")
ANYCL_DETAIL_INFIX(op_div, "/", complex_same_op, cl_name<T>(), "anycl_cdiv")
ANYCL_DETAIL_INFIX(op_lt, "<", truth_op, "int", "")
ANYCL_DETAIL_INFIX(op_le, "<=", truth_op, "int", "")
ANYCL_DETAIL_INFIX(op_gt, ">", truth_op, "int", "")
ANYCL_DETAIL_INFIX(op_ge, ">=", truth_op, "int", "")
ANYCL_DETAIL_INFIX(op_eq, "==", complex_truth_op, "int", "anycl_ceq")
ANYCL_DETAIL_INFIX(op_ne, "!=", complex_truth_op, "int", "!anycl_ceq")
ANYCL_DETAIL_INFIX(op_and, "&&", truth_op, "int", "")
ANYCL_DETAIL_INFIX(op_or, "||", truth_op, "int", "")
#undef ANYCL_DETAIL_INFIX

struct op_mod : same_type_op {
  template <class T>
  static std::string format(const std::string& l, const std::string& r) {
    if constexpr (is_float_like_v<T>)
      return "fmod(" + l + ", " + r + ")";
    else
      return std::string("((") + cl_name<T>() + ")(" + l + " % " + r + "))";
  }
};
struct op_min : same_type_op {
  template <class T>
  static std::string format(const std::string& l, const std::string& r) {
    return (is_float_like_v<T> ? "fmin(" : "min(") + l + ", " + r + ")";
  }
};
struct op_max : same_type_op {
  template <class T>
  static std::string format(const std::string& l, const std::string& r) {
    return (is_float_like_v<T> ? "fmax(" : "max(") + l + ", " + r + ")";
  }
};
struct op_pow : same_type_op {
  static constexpr bool floating_only = true;
  template <class T>
  static std::string format(const std::string& l, const std::string& r) {
    return "pow(" + l + ", " + r + ")";
  }
};
/// polar(r, theta): the complex number of magnitude r and angle theta (real operands).
struct op_polar : same_type_op {
  static constexpr bool floating_only = true;
  template <class T>
  using result = std::complex<T>;
  template <class T>
  static std::string format(const std::string& r, const std::string& theta) {
    static_assert(std::is_floating_point_v<T>, "AnyCL: polar(r, theta) takes float or double");
    return std::string("anycl_polar") + complex_suffix<std::complex<T>>() + "(" + r + ", " + theta +
           ")";
  }
};
struct op_neg : complex_same_op {
  template <class T>
  static std::string format(const std::string& a) {
    return std::string("((") + cl_name<T>() + ")(-" + a + "))";
  }
};
struct op_not : truth_op {
  template <class T>
  static std::string format(const std::string& a) {
    return "((int)(!" + a + "))";
  }
};
/// abs: the magnitude of a complex value (a real one), fabs of a floating one.
struct op_abs : to_real_op {
  template <class T>
  static std::string format(const std::string& a) {
    if constexpr (is_complex_element_v<T>)
      return std::string("anycl_cabs") + complex_suffix<T>() + "(" + a + ")";
    else if constexpr (is_float_like_v<T>)
      return "fabs(" + a + ")";
    else if constexpr (std::is_signed_v<T>)
      return std::string("((") + cl_name<T>() + ")abs(" + a + "))";  // abs gives the unsigned type
    else
      return a;
  }
};
/// conj, real and imag: of a real value, the value itself, itself and 0 (as numpy's).
struct op_conj : complex_same_op {
  template <class T>
  static std::string format(const std::string& a) {
    if constexpr (is_complex_element_v<T>)
      return std::string("anycl_conj") + complex_suffix<T>() + "(" + a + ")";
    else
      return a;
  }
};
struct op_real : to_real_op {
  template <class T>
  static std::string format(const std::string& a) {
    return is_complex_element_v<T> ? "(" + a + ").x" : a;
  }
};
struct op_imag : to_real_op {
  template <class T>
  static std::string format(const std::string& a) {
    if constexpr (is_complex_element_v<T>)
      return "(" + a + ").y";
    else
      return std::string("((") + cl_name<T>() + ")0)";
  }
};
/// arg: the angle of a complex value in [-pi, pi]; of a real one 0 or pi (numpy's angle).
struct op_arg : to_real_op {
  static constexpr bool floating_only = true;
  template <class T>
  static std::string format(const std::string& a) {
    if constexpr (is_complex_element_v<T>)
      return std::string("anycl_carg") + complex_suffix<T>() + "(" + a + ")";
    else
      return std::string("atan2((") + cl_name<T>() + ")0, " + a + ")";
  }
};

#define ANYCL_DETAIL_MATH(fn, base, complex_fn)                               \
  struct op_##fn : base {                                                     \
    static constexpr bool floating_only = true;                               \
    template <class T>                                                        \
    static std::string format(const std::string& a) {                         \
      if constexpr (is_complex_element_v<T>)                                  \
        return std::string(complex_fn) + complex_suffix<T>() + "(" + a + ")"; \
      return #fn "(" + a + ")";                                               \
    }                                                                         \
  };
ANYCL_DETAIL_MATH(sin, same_type_op, "")
ANYCL_DETAIL_MATH(cos, same_type_op, "")
ANYCL_DETAIL_MATH(tan, same_type_op, "")
ANYCL_DETAIL_MATH(exp, complex_same_op, "anycl_cexp")
ANYCL_DETAIL_MATH(exp2, same_type_op, "")
ANYCL_DETAIL_MATH(log, same_type_op, "")
ANYCL_DETAIL_MATH(log2, same_type_op, "")
ANYCL_DETAIL_MATH(log10, same_type_op, "")
ANYCL_DETAIL_MATH(sqrt, complex_same_op, "anycl_csqrt")
ANYCL_DETAIL_MATH(rsqrt, same_type_op, "")
ANYCL_DETAIL_MATH(floor, same_type_op, "")
ANYCL_DETAIL_MATH(ceil, same_type_op, "")
ANYCL_DETAIL_MATH(round, same_type_op, "")
ANYCL_DETAIL_MATH(tanh, same_type_op, "")
#undef ANYCL_DETAIL_MATH

template <class Op, class A>
auto make_unary(A&& a) {
  return unary_node<Op, wrapped_t<A&&>>(wrap(std::forward<A>(a)));
}
template <class Op, class A, class B>
auto make_binary(A&& a, B&& b) {
  return binary_node<Op, wrapped_t<A&&>, wrapped_t<B&&>>(wrap(std::forward<A>(a)),
                                                         wrap(std::forward<B>(b)));
}

/// The code of an expression (or of an array, as the expression of its elements) of the shape
/// its operands broadcast to, or of `target` when given; names in it start with `prefix`. Throws
/// std::invalid_argument for operand shapes that do not broadcast (to `target` too), operands of
/// different contexts, an empty (default-constructed) operand or an integer scalar that does not
/// fit.
template <class E>
expression_code describe(const E& e, const std::string& prefix = "e",
                         const anycl::shape* target = nullptr) {
  static_assert(is_typed_v<E>, "AnyCL: describe() takes an array or an expression");
  expression_builder b(prefix);
  if constexpr (is_array_v<E>) {
    using T = typename E::value_type;
    std::string v = b.add_array(e.core());
    return b.finish(std::move(v), scalar_type_of<T>(), target);
  } else {
    std::string v = e.template emit<void>(b);
    return b.finish(std::move(v), scalar_type_of<typename E::value_type>(), target);
  }
}

/// Refuses, at compile time, a reduction of half values (an array or expression of X).
template <class X>
constexpr void require_not_half() {
  static_assert(!is_half_element_v<typename X::value_type>,
                "AnyCL: reductions, histograms and masks take no half values; reduce "
                "anycl::cast<float>(x), which reads the halves in the reduction's kernel");
}

/// Refuses, at compile time, reductions other than sum (and dot, vdot) of complex values, and
/// every reduction of half ones.
template <class X>
constexpr void require_reducible() {
  require_not_half<X>();
  static_assert(!is_complex_element_v<typename X::value_type>,
                "AnyCL: complex values have no order: min, max, argmin, argmax, count_if, any, "
                "all, reductions along an axis, histograms and masks take real values (reduce "
                "abs(z), real(z) or imag(z)); sum, dot and vdot take complex ones");
}

template <class T, class E>
void assign_expression(array<T>& dst, const E& e) {
  using V = typename E::value_type;
  static_assert(std::is_same_v<T, V>,
                "AnyCL: an expression assigned to an array<T> must have element type T; "
                "convert it with anycl::cast<T>(...)");
  expression_code code =
      dst.core().valid() ? describe(e, "e", &dst.core().layout().extents) : describe(e);
  if (!dst.core().valid()) dst = array<T>(array_core(code.queue(), code.element, code.extents));
  evaluate(dst.core(), code);
}

}  // namespace detail

// --- operators and functions (each takes at least one array or expression) ---

#define ANYCL_BINARY_OPERATOR(sym, op)                                              \
  template <class A, class B, class = std::enable_if_t<detail::is_binary_v<A, B>>>  \
  auto operator sym(A&& a, B&& b) {                                                 \
    return detail::make_binary<detail::op>(std::forward<A>(a), std::forward<B>(b)); \
  }
/// Element-wise arithmetic: one element type throughout; % on float/double is fmod.
ANYCL_BINARY_OPERATOR(+, op_add)
ANYCL_BINARY_OPERATOR(-, op_sub)
ANYCL_BINARY_OPERATOR(*, op_mul)
ANYCL_BINARY_OPERATOR(/, op_div)
ANYCL_BINARY_OPERATOR(%, op_mod)
/// Element-wise comparisons and logic: int32_t 0 or 1.
ANYCL_BINARY_OPERATOR(<, op_lt)
ANYCL_BINARY_OPERATOR(<=, op_le)
ANYCL_BINARY_OPERATOR(>, op_gt)
ANYCL_BINARY_OPERATOR(>=, op_ge)
ANYCL_BINARY_OPERATOR(==, op_eq)
ANYCL_BINARY_OPERATOR(!=, op_ne)
ANYCL_BINARY_OPERATOR(&&, op_and)
ANYCL_BINARY_OPERATOR(||, op_or)
#undef ANYCL_BINARY_OPERATOR

/// Element-wise negation (wraps for unsigned types).
template <class A, class = std::enable_if_t<detail::is_typed_v<A>>>
auto operator-(A&& a) {
  return detail::make_unary<detail::op_neg>(std::forward<A>(a));
}
/// Element-wise logical not: int32_t 1 where the element is 0, else 0.
template <class A, class = std::enable_if_t<detail::is_typed_v<A>>>
auto operator!(A&& a) {
  return detail::make_unary<detail::op_not>(std::forward<A>(a));
}

#define ANYCL_UNARY_FUNCTION(fn)                                      \
  template <class A, class = std::enable_if_t<detail::is_typed_v<A>>> \
  auto fn(A&& a) {                                                    \
    return detail::make_unary<detail::op_##fn>(std::forward<A>(a));   \
  }
/// Element-wise math functions of OpenCL C (float or double operands; abs takes any type).
ANYCL_UNARY_FUNCTION(sin)
ANYCL_UNARY_FUNCTION(cos)
ANYCL_UNARY_FUNCTION(tan)
ANYCL_UNARY_FUNCTION(exp)
ANYCL_UNARY_FUNCTION(exp2)
ANYCL_UNARY_FUNCTION(log)
ANYCL_UNARY_FUNCTION(log2)
ANYCL_UNARY_FUNCTION(log10)
ANYCL_UNARY_FUNCTION(sqrt)
ANYCL_UNARY_FUNCTION(rsqrt)
ANYCL_UNARY_FUNCTION(floor)
ANYCL_UNARY_FUNCTION(ceil)
ANYCL_UNARY_FUNCTION(round)
ANYCL_UNARY_FUNCTION(tanh)
ANYCL_UNARY_FUNCTION(abs)
/// Complex parts and conjugate: conj(z), real(z), imag(z) (the real values of a complex
/// expression), and arg(z), the angle in [-pi, pi]. Of real operands, as numpy's: conj and real
/// are the value, imag is 0, arg 0 or pi. abs(z) of a complex z is its magnitude.
ANYCL_UNARY_FUNCTION(conj)
ANYCL_UNARY_FUNCTION(real)
ANYCL_UNARY_FUNCTION(imag)
ANYCL_UNARY_FUNCTION(arg)
#undef ANYCL_UNARY_FUNCTION

/// Element-wise r * (cos(theta) + i sin(theta)), a complex value from real magnitudes and angles
/// (float or double).
template <class A, class B, class = std::enable_if_t<detail::is_binary_v<A, B>>>
auto polar(A&& r, B&& theta) {
  return detail::make_binary<detail::op_polar>(std::forward<A>(r), std::forward<B>(theta));
}
/// Element-wise a to the power b (float or double).
template <class A, class B, class = std::enable_if_t<detail::is_binary_v<A, B>>>
auto pow(A&& a, B&& b) {
  return detail::make_binary<detail::op_pow>(std::forward<A>(a), std::forward<B>(b));
}
/// Element-wise minimum of two operands (fmin for floating types). The one-argument min(a) is a
/// reduction (anycl/reduce.hpp).
template <class A, class B, class = std::enable_if_t<detail::is_binary_v<A, B>>>
auto min(A&& a, B&& b) {
  return detail::make_binary<detail::op_min>(std::forward<A>(a), std::forward<B>(b));
}
/// Element-wise maximum of two operands (fmax for floating types).
template <class A, class B, class = std::enable_if_t<detail::is_binary_v<A, B>>>
auto max(A&& a, B&& b) {
  return detail::make_binary<detail::op_max>(std::forward<A>(a), std::forward<B>(b));
}
/// Element-wise a * b + c with one rounding (float or double).
template <class A, class B, class C,
          class = std::enable_if_t<
              detail::is_operand_v<A> && detail::is_operand_v<B> && detail::is_operand_v<C> &&
              (detail::is_typed_v<A> || detail::is_typed_v<B> || detail::is_typed_v<C>)>>
auto fma(A&& a, B&& b, C&& c) {
  return detail::fma_node<detail::wrapped_t<A&&>, detail::wrapped_t<B&&>, detail::wrapped_t<C&&>>(
      detail::wrap(std::forward<A>(a)), detail::wrap(std::forward<B>(b)),
      detail::wrap(std::forward<C>(c)));
}
/// Element-wise `c ? a : b`: c is an array or expression of any element type (non-zero is
/// true); a and b share an element type (when both are scalars, their common type).
template <class C, class A, class B>
auto where(C&& c, A&& a, B&& b) {
  static_assert(detail::is_typed_v<C>,
                "AnyCL: the condition of where(c, a, b) must be an array or expression");
  static_assert(detail::is_operand_v<A> && detail::is_operand_v<B>,
                "AnyCL: where(c, a, b) takes arrays, expressions or arithmetic scalars");
  return detail::where_node<detail::wrapped_t<C&&>, detail::wrapped_t<A&&>, detail::wrapped_t<B&&>>(
      detail::wrap(std::forward<C>(c)), detail::wrap(std::forward<A>(a)),
      detail::wrap(std::forward<B>(b)));
}
/// Element-wise conversion to element type U, as OpenCL C's (U) cast (float to integer truncates
/// toward zero; out-of-range values are undefined, as in C). To anycl::half it rounds to nearest,
/// ties to even (a double directly, never through float); from half it is exact. To a complex U,
/// from float, double or complex values (imaginary part 0 for real ones); complex values cast to
/// complex types only (take real(), imag() or abs()).
template <class U, class A>
auto cast(A&& a) {
  static_assert(is_array_element_v<U>,
                "AnyCL: cast<U> needs U in int8_t...int64_t, uint8_t...uint64_t, float, double, "
                "anycl::half, std::complex<float>, std::complex<double>");
  static_assert(detail::is_typed_v<A>,
                "AnyCL: cast<U>(e) takes an array or expression (convert a scalar with "
                "static_cast)");
  return detail::cast_node<U, detail::wrapped_t<A&&>>(detail::wrap(std::forward<A>(a)));
}

/// The value of an expression in a new array on the queue of its first array operand (one
/// kernel). Throws as assignment does.
template <class E>
auto eval(const E& e) {
  static_assert(detail::is_typed_v<E>,
                "AnyCL: eval() takes an expression of arrays (an expression of only scalars "
                "is plain C++)");
  array<typename E::value_type> out;
  detail::assign_expression(out, e);
  return out;
}

/// Builds the kernels of several expressions as ONE program, so that their first evaluations
/// find them ready: one compile instead of one per expression shape (on a CPU driver, most of the
/// time of a kernel build is the program's, not the kernel's). The kernels are those of eval()
/// and of assignment to a contiguous array that no operand shares; other destinations still
/// build their own. Shapes already built, or given twice, are skipped; the joint program is
/// cached on disk like any other. A context's kernels, the prepared ones too, are kept while an
/// array of that context lives: prepare with arrays that outlive the evaluations. Every expression
/// needs its first array operand on a queue of the same device; throws std::invalid_argument
/// otherwise, and whatever eval() would throw for an expression or its build.
template <class... E>
void prepare(const E&... exprs) {
  static_assert(sizeof...(E) > 0, "AnyCL: prepare() takes at least one expression");
  static_assert((detail::is_typed_v<E> && ...),
                "AnyCL: prepare() takes expressions of arrays (an expression of only scalars is "
                "plain C++)");
  detail::prepare_expressions({detail::describe(exprs)...});
}

}  // namespace anycl
