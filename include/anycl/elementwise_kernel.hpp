// SPDX-License-Identifier: Apache-2.0
// User element-wise kernels written as an OpenCL parameter list and a loop body, as PyOpenCL's
// ElementwiseKernel.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/export.hpp"
#include "anycl/expression.hpp"

namespace anycl {

/// An explicit element count for an elementwise_kernel call.
struct element_count {
  std::size_t n;
};

namespace detail {
/// One call argument of an elementwise_kernel, its type known at run time.
struct call_arg {
  enum class kind : unsigned char { array, signed_integer, unsigned_integer, floating };
  kind k = kind::array;
  const array_core* array = nullptr;
  long long i = 0;
  unsigned long long u = 0;
  long double d = 0;
};
template <class A>
call_arg make_call_arg(const A& a) {
  static_assert(is_array_v<A> || is_scalar_v<A>,
                "AnyCL: elementwise_kernel arguments are arrays (anycl::array<T>) or arithmetic "
                "scalars");
  call_arg c;
  if constexpr (is_array_v<A>) {
    c.array = &a.core();
  } else if constexpr (std::is_floating_point_v<A>) {
    c.k = call_arg::kind::floating;
    c.d = a;
  } else if constexpr (std::is_signed_v<A>) {
    c.k = call_arg::kind::signed_integer;
    c.i = a;
  } else {
    c.k = call_arg::kind::unsigned_integer;
    c.u = a;
  }
  return c;
}
struct elementwise_state;
}  // namespace detail

/// A kernel written as an OpenCL C parameter list and a loop body over element index `i`, as
/// PyOpenCL's ElementwiseKernel:
///
///     anycl::elementwise_kernel axpy(ctx, "float a, global const float* x, global float* y",
///                                    "y[i] = a * x[i] + y[i]");
///     anycl::event e = axpy(queue, 2.0f, x, y);  // x, y: array<float>
///
/// Parameters are scalars (`float a`; char...ulong, float, double, also `unsigned int` and the
/// like) and global pointers to them (`global const float* restrict x`). Each pointer takes an
/// array<T> of exactly that element type, which may be a contiguous view with an offset; a strided
/// view is refused (pass view.copy(), and assign it back when the kernel writes it). Scalars
/// convert to the declared type; an integer that does not fit, or a floating-point value for an
/// integer parameter that is not a whole number that fits, is refused (reduction_kernel reads its
/// parameter list and converts its scalars by the same rules). `i` is a ulong from 0 to n - 1,
/// where n is the size of the first array argument, or the element_count given. The body indexes
/// the arrays as it likes: AnyCL does not check its bounds. Names `i`, `i_end` and those starting
/// with `anycl_` or ending in `__off` are AnyCL's. The call waits for the last commands on its
/// arrays and is recorded on every one.
class ANYCL_EXPORT elementwise_kernel {
 public:
  /// One parameter as parsed.
  struct parameter {
    std::string name;
    scalar_type type = scalar_type::f32;
    bool pointer = false;     ///< a global pointer (takes an array)
    std::string declaration;  ///< as it goes in the kernel, e.g. "global const float* x"
  };

  elementwise_kernel() = default;
  /// Generates and builds the kernel for `ctx`. `name` is the kernel's name (an identifier) and
  /// `preamble` code placed before it (helper functions, `#define`s). Throws std::invalid_argument
  /// for an empty context, a malformed parameter list (naming the parameter and why) or name, and
  /// build_error with the compiler's log when the body does not compile.
  elementwise_kernel(const anycl::context& ctx, const std::string& params, const std::string& body,
                     const std::string& name = "anycl_elementwise",
                     const std::string& preamble = "");

  /// Runs the kernel on `queue` over n = the size of the first array argument. Throws
  /// std::invalid_argument for a wrong argument count, an array of another element type than its
  /// parameter, a scalar for a pointer or the reverse, a strided view, an array of another context,
  /// a scalar that does not convert, or no array argument (give an element_count).
  template <class... Args>
  event operator()(const command_queue& queue, const Args&... args) const {
    std::array<detail::call_arg, sizeof...(Args)> a{detail::make_call_arg(args)...};
    return launch(queue, nullptr, a.data(), a.size());
  }
  /// The same over `n.n` elements.
  template <class... Args>
  event operator()(const command_queue& queue, element_count n, const Args&... args) const {
    std::array<detail::call_arg, sizeof...(Args)> a{detail::make_call_arg(args)...};
    return launch(queue, &n.n, a.data(), a.size());
  }

  /// The kernel's name, its parsed parameters and its generated source.
  const std::string& name() const;
  const std::vector<parameter>& parameters() const;
  const std::string& source() const;

 private:
  event launch(const command_queue& queue, const std::size_t* n, const detail::call_arg* args,
               std::size_t count) const;
  std::shared_ptr<const detail::elementwise_state> s_;
};

}  // namespace anycl
