// SPDX-License-Identifier: Apache-2.0
// Statistics of arrays and of element-wise expressions, as numpy's: mean, var, std and norm, of
// all values or along one axis (with keepdims), each one or two fused reductions
// (anycl/reduce.hpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "anycl/array.hpp"
#include "anycl/expression.hpp"
#include "anycl/reduce.hpp"

namespace anycl {

/// The type of mean(): T for float and double, double for the integer types (whose sums are exact
/// in 64 bits), as numpy's float64 mean of integers.
template <class T>
using mean_type_t =
    std::conditional_t<std::is_floating_point_v<T> || is_complex_element_v<T>, T, double>;

namespace detail {

template <class X>
inline constexpr bool is_statistic_operand_v = is_typed_v<X>;

/// The shape of an array or an expression's value.
template <class X>
anycl::shape shape_of(const X& x) {
  if constexpr (is_array_v<X>)
    return x.shape();
  else
    return describe(x).extents;
}

/// The number of elements of an array or an expression's value.
template <class X>
std::size_t element_count(const X& x) {
  return shape_of(x).size();
}

template <class X>
constexpr void require_floating_statistic() {
  static_assert(std::is_floating_point_v<value_of_t<X>>,
                "AnyCL: var, std and norm need float or double elements; convert integers with "
                "anycl::cast<float>(...) or anycl::cast<double>(...)");
}

}  // namespace detail

/// The mean of an array's elements or an expression's values: their (compensated) sum divided by
/// their number; NaN when there are none (numpy warns and gives NaN). `anycl::mean(x * w)` is one
/// fused reduction.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
mean_type_t<detail::value_of_t<X>> mean(const X& x) {
  using R = mean_type_t<detail::value_of_t<X>>;
  const std::size_t n = detail::element_count(x);
  if (n == 0) return std::numeric_limits<R>::quiet_NaN();
  return static_cast<R>(anycl::sum(x)) / static_cast<R>(n);
}

/// The variance: the mean of the squared deviations from the mean, divided by n - ddof instead
/// of n (ddof 1 gives the sample variance), in two fused reductions, as numpy's two-pass var.
/// Float or double elements. Throws std::invalid_argument when n - ddof is not positive.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
detail::value_of_t<X> var(const X& x, std::size_t ddof = 0) {
  using T = detail::value_of_t<X>;
  detail::require_floating_statistic<X>();
  const std::size_t n = detail::element_count(x);
  if (n <= ddof)
    throw std::invalid_argument("anycl::var: " + std::to_string(n) + " element" +
                                (n == 1 ? "" : "s") + " with ddof " + std::to_string(ddof) +
                                " (the divisor n - ddof must be positive)");
  const T m = anycl::mean(x);
  return anycl::sum((x - m) * (x - m)) / static_cast<T>(n - ddof);
}

/// The standard deviation: sqrt(var(x, ddof)).
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
detail::value_of_t<X> std(const X& x, std::size_t ddof = 0) {
  return std::sqrt(anycl::var(x, ddof));
}

/// The Euclidean norm sqrt(sum(x * x)) (numpy.linalg.norm of a vector, the Frobenius norm of a
/// matrix); 0 for no elements. Float or double elements.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
detail::value_of_t<X> norm(const X& x) {
  detail::require_floating_statistic<X>();
  return std::sqrt(anycl::sum(x * x));
}

namespace detail {

template <class X>
array<mean_type_t<value_of_t<X>>> mean_along(const X& x, axis ax, bool keep) {
  using R = mean_type_t<value_of_t<X>>;
  const auto s = keep ? anycl::sum(x, ax, keepdims) : anycl::sum(x, ax);  // checks the axis
  const std::size_t n = shape_of(x)[ax.index];
  return array<R>(cast<R>(s) / static_cast<R>(n));
}

template <class X>
array<value_of_t<X>> var_along(const X& x, axis ax, std::size_t ddof, bool keep) {
  using T = value_of_t<X>;
  require_floating_statistic<X>();
  const array<T> m = mean_along(x, ax, true);
  const std::size_t n = shape_of(x)[ax.index];
  if (n <= ddof)
    throw std::invalid_argument("anycl::var: axis " + std::to_string(ax.index) + " has " +
                                std::to_string(n) + " element" + (n == 1 ? "" : "s") +
                                " with ddof " + std::to_string(ddof) +
                                " (the divisor n - ddof must be positive)");
  const auto sq =
      keep ? anycl::sum((x - m) * (x - m), ax, keepdims) : anycl::sum((x - m) * (x - m), ax);
  return array<T>(sq / static_cast<T>(n - ddof));
}

}  // namespace detail

/// Means along axis `ax` (`anycl::mean(m, axis{0})`, the column means of a matrix): the sums
/// along it divided by its extent, NaN along an axis of extent 0. mean_type_t elements; the axis
/// is removed from the shape (a 1-D input gives shape (1)).
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<mean_type_t<detail::value_of_t<X>>> mean(const X& x, axis ax) {
  return detail::mean_along(x, ax, false);
}
/// Means along `ax`, the axis kept with extent 1, so that they broadcast back:
/// `x - anycl::mean(x, axis{1}, keepdims)` centres each row.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<mean_type_t<detail::value_of_t<X>>> mean(const X& x, axis ax, keepdims_t) {
  return detail::mean_along(x, ax, true);
}
/// Variances along `ax`, two passes as var(x, ddof). Throws std::invalid_argument when the axis's
/// extent n is at most ddof.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> var(const X& x, axis ax, std::size_t ddof = 0) {
  return detail::var_along(x, ax, ddof, false);
}
/// Variances along `ax`, the axis kept.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> var(const X& x, axis ax, keepdims_t, std::size_t ddof = 0) {
  return detail::var_along(x, ax, ddof, true);
}
/// Standard deviations along `ax`: sqrt(var(x, ax, ddof)).
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> std(const X& x, axis ax, std::size_t ddof = 0) {
  return array<detail::value_of_t<X>>(sqrt(detail::var_along(x, ax, ddof, false)));
}
/// Standard deviations along `ax`, the axis kept: `(x - mean(x, ax, keepdims)) / std(x, ax,
/// keepdims)` standardises along it.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> std(const X& x, axis ax, keepdims_t, std::size_t ddof = 0) {
  return array<detail::value_of_t<X>>(sqrt(detail::var_along(x, ax, ddof, true)));
}
/// Euclidean norms along `ax` (numpy.linalg.norm(x, axis=ax)); 0 along an axis of extent 0.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> norm(const X& x, axis ax) {
  detail::require_floating_statistic<X>();
  return array<detail::value_of_t<X>>(sqrt(anycl::sum(x * x, ax)));
}
/// Euclidean norms along `ax`, the axis kept: `x / norm(x, axis{1}, keepdims)` normalises rows.
template <class X, class = std::enable_if_t<detail::is_statistic_operand_v<X>>>
array<detail::value_of_t<X>> norm(const X& x, axis ax, keepdims_t) {
  detail::require_floating_statistic<X>();
  return array<detail::value_of_t<X>>(sqrt(anycl::sum(x * x, ax, keepdims)));
}

}  // namespace anycl
