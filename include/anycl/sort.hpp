// SPDX-License-Identifier: Apache-2.0
// Radix sorts of device arrays: keys in place, keys with values, and argsort.
#pragma once

#include <cstdint>
#include <utility>

#include "anycl/array.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// The order sort, sort_by_key and argsort produce; descending is the exact reverse of ascending
/// except that equal keys keep their input order in both.
enum class sort_order { ascending, descending };

namespace detail {
/// The untyped sort behind the templates below: sorts `keys` in place, and `values` (when not
/// null) by the same permutation; with `positions`, leaves the keys as they are and sets
/// *positions to a new 1-D uint32 array of the positions that sort them (argsort; `values` must
/// then be null). Throws std::invalid_argument for default-constructed arrays or different sizes,
/// std::out_of_range for 2^32 elements or more.
ANYCL_EXPORT event sort(const array_core& keys, const array_core* values, sort_order order,
                        const char* what, array_core* positions = nullptr);
}  // namespace detail

/// Sorts the elements of `keys` in place (a stable LSD radix sort, 8-bit digits, in
/// anycl/sort.cl), in row-major order for N-D arrays; a strided view is sorted through a dense
/// temporary. Integer keys compare as numbers. Floating keys compare by their bits made
/// monotonic: -inf < ... < -0.0 < +0.0 < ... < +inf, with NaNs whose sign bit is set first (before
/// -inf) and the other NaNs last (after +inf), in ascending order. Passes whose 8-bit digit is the
/// same for every key are skipped (found from one counting pass and one small read back), so keys
/// of a small range cost little. Returns the event of the last command, recorded on the array
/// (empty when nothing had to move). Throws std::invalid_argument for a default-constructed array,
/// std::out_of_range for 2^32 elements or more.
template <class K>
event sort(const array<K>& keys, sort_order order = sort_order::ascending) {
  static_assert(
      is_real_element_v<K>,
      "AnyCL: anycl::sort works on real element types (complex arrays hold data for BLAS and FFT)");
  return detail::sort(keys.core(), nullptr, order, "sort");
}

/// Sorts `keys` and applies the same permutation to `values` (any element type, the same number
/// of elements); stable: values of equal keys keep their order. Throws std::invalid_argument when
/// the sizes differ, otherwise as sort.
template <class K, class V>
event sort_by_key(const array<K>& keys, const array<V>& values,
                  sort_order order = sort_order::ascending) {
  static_assert(is_real_element_v<K>,
                "AnyCL: anycl::sort_by_key works on real element types (complex arrays hold data "
                "for BLAS and FFT)");
  return detail::sort(keys.core(), &values.core(), order, "sort_by_key");
}

/// The positions that sort `keys` (stable: equal keys in increasing position), leaving `keys`
/// unchanged: keys[result[0]] <= keys[result[1]] <= ... in the order of sort(). A 1-D array on
/// the keys' queue. Throws as sort.
template <class K>
array<std::uint32_t> argsort(const array<K>& keys, sort_order order = sort_order::ascending) {
  static_assert(is_real_element_v<K>,
                "AnyCL: anycl::argsort works on real element types (complex arrays hold data for "
                "BLAS and FFT)");
  detail::array_core positions;
  detail::sort(keys.core(), nullptr, order, "argsort", &positions);
  return array<std::uint32_t>(std::move(positions));
}

}  // namespace anycl
