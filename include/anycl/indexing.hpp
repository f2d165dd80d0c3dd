// SPDX-License-Identifier: Apache-2.0
// Indexing and joining of device arrays, as numpy's: take (gather) and put (scatter) by arrays of
// integer indices, boolean masks (compress, flatnonzero, nonzero), searchsorted, flip,
// concatenate and stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/broadcast.hpp"
#include "anycl/export.hpp"
#include "anycl/expression.hpp"
#include "anycl/reduce.hpp"

namespace anycl {

/// What take and put do with an index outside [-n, n) of an axis of n elements: `raise` throws
/// std::out_of_range (negative indices count from the end), `wrap` takes it modulo n, `clip`
/// clamps it to [0, n - 1] (negative indices clip to 0), as numpy's modes.
enum class index_mode : unsigned char { raise, wrap, clip };

/// Which end of a run of equal values searchsorted gives: the first position (left) or the one
/// after the last (right).
enum class side : unsigned char { left, right };

namespace detail {

enum class index_op : unsigned char { take, put, searchsorted, compress, histogram, segments };

/// One indexing operation, the single entry point of the templates below: take of `a`'s elements
/// (flattened, or along `axis`) at `indices`; put of `values` into `a` at `indices`;
/// searchsorted of `values` in the sorted 1-D `a` (`right` for side::right); compress of
/// `values` (flattened; their flat indices when null) where `mask` is non-zero (`a` is the
/// mask's first array operand); or the histogram of the values of `mask` in `bins` bins: by the
/// sorted `edges` (bins + 1 of them; `inv` is bins / (edges[bins] - edges[0])), or of the
/// values themselves (bincount) without edges; or `reduction` (sum, min, max) of the 1-D `a`'s
/// segments starting at the ascending uint64 `indices` (the first 0; reduce_by_key).
struct index_request {
  index_request(index_op o, const array_core& in, const char* caller) noexcept
      : op(o), a(&in), what(caller) {}
  index_op op;
  const array_core* a;
  const char* what;
  const array_core* indices = nullptr;
  const array_core* values = nullptr;
  std::optional<unsigned> axis;
  index_mode mode = index_mode::raise;
  bool right = false;
  const expression_code* mask = nullptr;
  const array_core* edges = nullptr;
  std::size_t bins = 0;
  double inv = 0;
  reduce_op reduction = reduce_op::sum;
};

/// Runs `r`: returns take's or searchsorted's result, or an empty array_core for put. Throws
/// std::invalid_argument for default-constructed arrays, arrays of different contexts, a bad
/// axis or a result of more than 8 dimensions, and std::out_of_range for an index out of range
/// under index_mode::raise (naming the index, its position and the axis).
ANYCL_EXPORT array_core index_builtin(const index_request& r);

template <class I>
constexpr void require_index_type() {
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "AnyCL: indices are arrays of an integer type (int32_t, int64_t, uint32_t, ...)");
}

}  // namespace detail

/// The elements of `a` (flattened in row-major order) at `indices`, in an array of the indices'
/// shape: `take(a, idx)[k] = a.flat[idx[k]]`. Views in any layout. Under index_mode::raise the
/// call waits for its kernel to check the indices and throws std::out_of_range naming the first
/// index out of range; under wrap and clip it is asynchronous.
template <class T, class I>
array<T> take(const array<T>& a, const array<I>& indices, index_mode mode = index_mode::raise) {
  detail::require_index_type<I>();
  detail::index_request r(detail::index_op::take, a.core(), "anycl::take");
  r.indices = &indices.core();
  r.mode = mode;
  return array<T>(detail::index_builtin(r));
}

/// The slices of `a` along axis `ax` at `indices`: the result's shape is a's with that axis
/// replaced by the indices' shape (numpy's take(a, indices, axis)). Errors as take(a, indices),
/// and std::invalid_argument for an axis past a.dims() or a result of more than 8 dimensions.
template <class T, class I>
array<T> take(const array<T>& a, const array<I>& indices, axis ax,
              index_mode mode = index_mode::raise) {
  detail::require_index_type<I>();
  detail::index_request r(detail::index_op::take, a.core(), "anycl::take");
  r.indices = &indices.core();
  r.axis = ax.index;
  r.mode = mode;
  return array<T>(detail::index_builtin(r));
}

/// Writes `values` into `a` (flattened) at `indices`: `a.flat[idx[k]] = values[k]`, the values
/// repeating when there are fewer of them than indices. Of duplicate indices the last one wins
/// (the largest k), as numpy's put. Under index_mode::raise an index out of range throws
/// std::out_of_range before anything is written. `a` may be a strided view (written through a
/// dense copy); a broadcast view, empty values for some indices and 2^32 - 1 or more indices
/// throw std::invalid_argument.
template <class T, class I>
void put(const array<T>& a, const array<I>& indices, const array<T>& values,
         index_mode mode = index_mode::raise) {
  detail::require_index_type<I>();
  detail::index_request r(detail::index_op::put, a.core(), "anycl::put");
  r.indices = &indices.core();
  r.values = &values.core();
  r.mode = mode;
  detail::index_builtin(r);
}

/// Where each of `values` goes in the sorted 1-D array `a` to keep it sorted: uint64_t positions
/// of the values' shape, as numpy's searchsorted (a binary search per value). side::left gives
/// the first such position, side::right the one after the equal elements; NaN sorts after every
/// number, as in anycl::sort. `a` must be sorted (not checked); std::invalid_argument when it is
/// not 1-D.
template <class T>
array<std::uint64_t> searchsorted(const array<T>& a, const array<T>& values, side s = side::left) {
  static_assert(is_real_element_v<T>, "AnyCL: searchsorted needs a real element type");
  detail::index_request r(detail::index_op::searchsorted, a.core(), "anycl::searchsorted");
  r.values = &values.core();
  r.right = s == side::right;
  return array<std::uint64_t>(detail::index_builtin(r));
}

namespace detail {
template <class R, class M>
array<R> compact(const M& mask, const array_core* values, const char* what) {
  static_assert(is_typed_v<M>, "AnyCL: a mask is an array or an expression (non-zero selects)");
  require_reducible<M>();
  const expression_code code = describe(mask);
  index_request r(index_op::compress, code.arrays.front(), what);
  r.mask = &code;
  r.values = values;
  return array<R>(index_builtin(r));
}
}  // namespace detail

/// The elements of `a` (flattened) where `mask` (an array or expression of as many elements, in
/// row-major order) is non-zero, in order, as a new 1-D array: numpy's compress(mask, a) and
/// a[mask]. `anycl::compress(x > 0.5f, x)` computes the mask inside the kernels. Waits for the
/// count of selected elements (it sizes the result). Throws std::invalid_argument for sizes that
/// differ or arrays of another context.
template <class M, class T>
array<T> compress(const M& mask, const array<T>& a) {
  return detail::compact<T>(mask, &a.core(), "anycl::compress");
}

/// The flat row-major indices where `mask` is non-zero, ascending (numpy's flatnonzero).
template <class M>
array<std::uint64_t> flatnonzero(const M& mask) {
  return detail::compact<std::uint64_t>(mask, nullptr, "anycl::flatnonzero");
}

/// The indices where `mask` is non-zero, one array per axis (numpy's nonzero): element k of
/// array d is the index along axis d of the k-th non-zero value in row-major order.
template <class M>
std::vector<array<std::uint64_t>> nonzero(const M& mask) {
  const anycl::shape s = detail::describe(mask).extents;
  const array<std::uint64_t> flat = flatnonzero(mask);
  std::vector<array<std::uint64_t>> out;
  std::uint64_t step = 1;
  std::vector<std::uint64_t> steps(s.dims());
  for (unsigned d = s.dims(); d-- > 0;) {
    steps[d] = step;
    step *= s[d];
  }
  for (unsigned d = 0; d < s.dims(); ++d)
    out.push_back(array<std::uint64_t>(flat / steps[d] % static_cast<std::uint64_t>(s[d])));
  return out;
}

/// `a` with the order of its elements along `axis` reversed, in a new array (numpy's flip).
/// std::invalid_argument for an axis past a.dims().
template <class T>
array<T> flip(const array<T>& a, unsigned ax) {
  const std::size_t n = ax < a.dims() ? a.shape()[ax] : 0;
  const auto reversed =
      array<std::int64_t>::arange(a.queue(), n, static_cast<std::int64_t>(n) - 1, std::int64_t{-1});
  detail::index_request r(detail::index_op::take, a.core(), "anycl::flip");
  r.indices = &reversed.core();
  r.axis = ax;
  r.mode = index_mode::clip;  // the indices are in range: no check, asynchronous
  return array<T>(detail::index_builtin(r));
}

/// `a` with the order along every axis reversed (numpy's flip(a)): its flattened elements in
/// reverse order, in a's shape.
template <class T>
array<T> flip(const array<T>& a) {
  const array<T> dense = a.contiguous() ? a : a.copy();
  return flip(dense.reshape(anycl::shape(a.size())), 0).reshape(a.shape());
}

namespace detail {
/// Throws std::invalid_argument naming `what` unless every array of `xs` has the shape of the
/// first one, except along `skip` (none when skip is past the dimensions).
template <class T>
void require_joinable(const std::vector<array<T>>& xs, unsigned skip, const char* what) {
  if (xs.empty()) throw std::invalid_argument(std::string(what) + ": no arrays to join");
  const anycl::shape& s0 = xs.front().shape();
  for (std::size_t i = 1; i < xs.size(); ++i) {
    const anycl::shape& s = xs[i].shape();
    bool same = s.dims() == s0.dims();
    for (unsigned d = 0; same && d < s.dims(); ++d) same = d == skip || s[d] == s0[d];
    if (!same)
      throw std::invalid_argument(
          std::string(what) + ": array " + std::to_string(i) + " has shape " + s.str() +
          ", array 0 " + s0.str() +
          (skip < s0.dims() ? " (they may differ only along axis " + std::to_string(skip) + ")"
                            : " (they must be equal)"));
    if (xs[i].context().get() != xs.front().context().get())
      throw std::invalid_argument(std::string(what) + ": array " + std::to_string(i) +
                                  " belongs to another context than array 0");
  }
}
}  // namespace detail

/// The arrays joined along an existing axis, in a new array on the first one's queue (numpy's
/// concatenate): their shapes must be equal but along `ax`. One copy per array, views in any
/// layout. Throws std::invalid_argument for no arrays, an axis past their dimensions, shapes that
/// differ elsewhere, or arrays of another context.
template <class T>
array<T> concatenate(const std::vector<array<T>>& xs, unsigned ax = 0) {
  detail::require_joinable(xs, ax, "anycl::concatenate");
  const anycl::shape& s0 = xs.front().shape();
  if (ax >= s0.dims())
    throw std::invalid_argument("anycl::concatenate: axis " + std::to_string(ax) +
                                " of arrays of shape " + s0.str());
  std::vector<std::size_t> e(s0.extents().begin(), s0.extents().begin() + s0.dims());
  e[ax] = 0;
  for (const array<T>& x : xs) e[ax] += x.shape()[ax];
  auto out = array<T>::empty(xs.front().queue(), anycl::shape(e));
  std::size_t at = 0;
  for (const array<T>& x : xs) {
    const std::size_t n = x.shape()[ax];
    if (n > 0) out.slice(ax, at, at + n).assign(x);
    at += n;
  }
  return out;
}

/// The arrays, all of one shape, joined along a new axis `ax` (0..dims()), in a new array
/// (numpy's stack): stacking k arrays of (3, 4) at axis 0 gives (k, 3, 4). Errors as
/// concatenate, and std::invalid_argument for an axis past dims() or arrays of 8 dimensions.
template <class T>
array<T> stack(const std::vector<array<T>>& xs, unsigned ax = 0) {
  detail::require_joinable(xs, anycl::shape::max_dims, "anycl::stack");
  std::vector<array<T>> views;
  views.reserve(xs.size());
  for (const array<T>& x : xs) views.push_back(anycl::expand_dims(x, ax));
  return concatenate(views, ax);
}

}  // namespace anycl
