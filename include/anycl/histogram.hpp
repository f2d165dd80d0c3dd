// SPDX-License-Identifier: Apache-2.0
// Counting and grouping, as numpy's: histogram (counts in bins between edges), bincount (counts
// of each non-negative integer), unique (the sorted distinct values), and reduce_by_key (a
// reduction of each run of equal keys, as Thrust's and Boost.Compute's).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/expression.hpp"
#include "anycl/indexing.hpp"
#include "anycl/reduce.hpp"
#include "anycl/sort.hpp"

namespace anycl {

/// What histogram() returns, as numpy's (hist, bin_edges).
template <class T>
struct histogram_result {
  array<std::uint64_t> counts;  ///< bins counts
  array<T> edges;               ///< bins + 1 edges, ascending
};

namespace detail {
template <class X>
array<std::uint64_t> count_bins(const X& x, std::size_t bins, const array_core* edges, double inv,
                                const char* what) {
  require_reducible<X>();
  const expression_code code = describe(x);
  index_request r(index_op::histogram, code.arrays.front(), what);
  r.mask = &code;
  r.bins = bins;
  r.edges = edges;
  r.inv = inv;
  return array<std::uint64_t>(index_builtin(r));
}
}  // namespace detail

/// The histogram of an array's or expression's values in `bins` equal bins from `lo` to `hi`
/// (numpy's histogram(x, bins, range=(lo, hi))): edges lo + (hi - lo) * i / bins (the last one
/// hi), bin i counting the values v with edges[i] <= v < edges[i + 1], the last bin including hi;
/// values outside [lo, hi] and NaNs are not counted. Float or double values (cast integers).
/// Throws std::invalid_argument for no bins, or lo and hi not finite with lo < hi.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
histogram_result<typename detail::bare_t<X>::value_type> histogram(
    const X& x, std::size_t bins, typename detail::bare_t<X>::value_type lo,
    typename detail::bare_t<X>::value_type hi) {
  using T = typename detail::bare_t<X>::value_type;
  static_assert(std::is_floating_point_v<T>,
                "AnyCL: histogram needs float or double values; use anycl::cast<float>(...) or "
                "anycl::bincount for integers");
  if (bins == 0) throw std::invalid_argument("anycl::histogram: 0 bins");
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi))
    throw std::invalid_argument("anycl::histogram: the range [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "] (finite, low below high)");
  std::vector<T> e(bins + 1);
  const double dlo = lo, width = static_cast<double>(hi) - dlo;
  for (std::size_t i = 0; i < bins; ++i)
    e[i] = static_cast<T>(dlo + width * static_cast<double>(i) / static_cast<double>(bins));
  e[bins] = hi;
  const command_queue q = detail::describe(x).queue();  // a copy: the code is a temporary
  histogram_result<T> out;
  out.edges = array<T>::from_host(q, e);
  out.counts = detail::count_bins(x, bins, &out.edges.core(), static_cast<double>(bins) / width,
                                  "anycl::histogram");
  return out;
}

/// The same over the range of the values: [min, max] (NaNs ignored), widened to [v - 0.5,
/// v + 0.5] when all are v, and [0, 1] when there are none, as numpy's.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
histogram_result<typename detail::bare_t<X>::value_type> histogram(const X& x,
                                                                   std::size_t bins = 10) {
  using T = typename detail::bare_t<X>::value_type;
  static_assert(std::is_floating_point_v<T>,
                "AnyCL: histogram needs float or double values; use anycl::cast<float>(...) or "
                "anycl::bincount for integers");
  T lo = 0, hi = 1;
  if (detail::describe(x).size() > 0) {
    lo = anycl::min(x);
    hi = anycl::max(x);
  }
  if (std::isnan(lo)) lo = 0, hi = 1;  // only NaNs
  if (lo == hi) lo -= T(0.5), hi += T(0.5);
  return histogram(x, bins, lo, hi);
}

/// How often each value 0, 1, ..., max occurs in an array or expression of non-negative
/// integers, in max + 1 counts, or `minlength` when that is more (numpy's bincount). Waits for
/// the smallest and largest value. Throws std::invalid_argument naming a negative value.
template <class X, class = std::enable_if_t<detail::is_typed_v<X>>>
array<std::uint64_t> bincount(const X& x, std::size_t minlength = 0) {
  using T = typename detail::bare_t<X>::value_type;
  static_assert(std::is_integral_v<T>, "AnyCL: bincount counts integer values");
  std::size_t bins = minlength;
  if (detail::describe(x).size() > 0) {
    const T hi = anycl::max(x);
    if constexpr (std::is_signed_v<T>) {
      const T lo = anycl::min(x);
      if (lo < 0)
        throw std::invalid_argument("anycl::bincount: the value " + std::to_string(lo) +
                                    " is negative (bincount counts non-negative integers)");
    }
    bins = std::max(bins, static_cast<std::size_t>(hi) + 1);
  }
  return detail::count_bins(x, bins, nullptr, 0.0, "anycl::bincount");
}

/// The distinct values of an array, ascending, in a new 1-D array (numpy's unique): a sorted
/// copy compacted where neighbours differ. NaNs are one value, sorted last as numpy's (NaNs
/// whose sign bit is set sort first in anycl::sort and are one value there). Real element types.
template <class T>
array<T> unique(const array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: unique needs a real element type");
  array<T> s = a.copy().reshape(anycl::shape(a.size()));
  const std::size_t n = s.size();
  if (n < 2) return s;
  anycl::sort(s);
  const array<T> head = s.slice(0, n - 1), tail = s.slice(1, n);
  // A new value where neighbours differ, except two NaNs (x == x is false only for NaN).
  return concatenate<T>(
      {s.slice(0, 1), compress((tail != head) && (tail == tail || head == head), tail)});
}

/// What reduce_by_key does to each run's values.
enum class key_reduction : unsigned char { sum, min, max };

/// For sorted (grouped) 1-D `keys` and as many `values`: each run of equal neighbouring keys once,
/// and the sum (sum_type_t, compensated for floats), min or max of its values, in order, as
/// (keys, results). Keys need only be grouped, not sorted: a key that comes back after another
/// starts a run of its own. Waits for the number of runs. Throws std::invalid_argument for
/// arrays that are not 1-D, of other sizes or of another context. Results of integer values are
/// 64-bit (sum_type_t<V>) for every reduction, so that one type serves all three.
template <class K, class V>
std::pair<array<K>, array<sum_type_t<V>>> reduce_by_key(const array<K>& keys,
                                                        const array<V>& values,
                                                        key_reduction how = key_reduction::sum) {
  static_assert(is_real_element_v<K> && is_real_element_v<V>,
                "AnyCL: reduce_by_key needs real key and value types");
  using R = sum_type_t<V>;
  const char* what = "anycl::reduce_by_key";
  if (keys.dims() != 1 || values.dims() != 1 || keys.size() != values.size())
    throw std::invalid_argument(std::string(what) + ": keys of shape " + keys.shape().str() +
                                " and values of shape " + values.shape().str() +
                                " (1-D, of one size)");
  if (keys.context().get() != values.context().get())
    throw std::invalid_argument(std::string(what) + ": the values belong to another context");
  const std::size_t n = keys.size();
  if (n == 0) return {array<K>::empty(keys.queue(), 0), array<R>::empty(keys.queue(), 0)};
  // The runs start at 0 and where a key differs from the one before.
  auto starts = array<std::uint64_t>::zeros(keys.queue(), 1);
  if (n > 1)
    starts = concatenate<std::uint64_t>(
        {starts, array<std::uint64_t>(flatnonzero(keys.slice(1, n) != keys.slice(0, n - 1)) +
                                      std::uint64_t{1})});
  detail::index_request r(detail::index_op::segments, values.core(), what);
  r.indices = &starts.core();
  r.reduction = how == key_reduction::sum   ? detail::reduce_op::sum
                : how == key_reduction::min ? detail::reduce_op::min
                                            : detail::reduce_op::max;
  return {take(keys, starts, index_mode::clip), array<R>(detail::index_builtin(r))};
}

}  // namespace anycl
