// SPDX-License-Identifier: Apache-2.0
// An array split across the devices of a device_group: one part per device, scatter and gather to
// and from the host, work on every part at once, and reductions combined on the host (layer 8,
// docs/8-scale-out.md).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/device_group.hpp"
#include "anycl/elementwise.hpp"
#include "anycl/reduce.hpp"
#include "anycl/scan.hpp"
#include "anycl/sort.hpp"

namespace anycl {

/// A 1-D array of n elements split across the devices of a group: part i is an array<T> on
/// device i's queue holding elements [range(i).begin, range(i).end), the ranges given by
/// split_range with one weight per device (equal by default). Parts may be empty when n is
/// smaller than the group. Copies share the parts (as array<T> copies do). The layout is fixed at
/// creation; arrays made with the same group, size and weights (or with like()) are aligned, and
/// for_each_part runs over aligned arrays together.
template <class T>
class partitioned_array {
  static_assert(is_array_element_v<T>,
                "AnyCL: partitioned_array<T> needs T in int8_t...int64_t, uint8_t...uint64_t, "
                "float, double, std::complex<float>, std::complex<double>");

 public:
  using value_type = T;

  /// n uninitialised elements over `group` with equal shares (clCreateBuffer per part).
  static partitioned_array empty(const device_group& group, std::size_t n) {
    return partitioned_array(group, group.split(n));
  }
  /// The same with shares proportional to `weights`, one per device; std::invalid_argument for
  /// another count or a weight that is not finite and > 0.
  static partitioned_array empty(const device_group& group, std::size_t n,
                                 const std::vector<double>& weights) {
    return partitioned_array(group, group.split(n, weights));
  }
  /// Uninitialised elements laid out as `other` (same group and ranges): aligned with it.
  template <class U>
  static partitioned_array like(const partitioned_array<U>& other) {
    return partitioned_array(other.group(), other.ranges());
  }

  /// The total number of elements.
  std::size_t size() const noexcept { return ranges_.empty() ? 0 : ranges_.back().end; }
  bool empty() const noexcept { return size() == 0; }
  const device_group& group() const noexcept { return group_; }
  /// One part per device of the group, in device order.
  const std::vector<array<T>>& parts() const noexcept { return parts_; }
  /// The ranges of the parts: part i holds elements [ranges()[i].begin, ranges()[i].end).
  const std::vector<index_range>& ranges() const noexcept { return ranges_; }
  /// Part i and its range; std::out_of_range for i >= group().size().
  const array<T>& part(std::size_t i) const { return parts_[check(i)]; }
  index_range range(std::size_t i) const { return ranges_[check(i)]; }
  /// True when `other` has the same group and ranges, so that part i of each holds the same
  /// elements on the same device.
  template <class U>
  bool aligned_with(const partitioned_array<U>& other) const noexcept {
    return group_ == other.group() && ranges_ == other.ranges();
  }

  /// Writes size() host elements into the parts, every device at once (std::invalid_argument for
  /// another count).
  void scatter(const std::vector<T>& host) const {
    if (host.size() != size())
      throw std::invalid_argument("partitioned_array::scatter: " + std::to_string(host.size()) +
                                  " host elements for a partitioned array of " +
                                  std::to_string(size()));
    scatter(host.data());
  }
  /// The same from size() elements at `src`.
  void scatter(const T* src) const {
    detail::run_on_devices(group_, ranges_,
                           [&](std::size_t i, const command_queue&, index_range r) {
                             parts_[i].core().write_host(src + r.begin, r.size());
                           });
  }
  /// The elements in order, read from every device at once; waits for pending commands.
  std::vector<T> gather() const {
    std::vector<T> out(size());
    gather(out.data());
    return out;
  }
  /// The same into `dst`, which holds size() elements.
  void gather(T* dst) const {
    detail::run_on_devices(group_, ranges_,
                           [&](std::size_t i, const command_queue&, index_range r) {
                             parts_[i].to_host(dst + r.begin);
                           });
  }
  /// Sets every element to `value`.
  void fill(T value) const {
    detail::run_on_devices(group_, ranges_, [&](std::size_t i, const command_queue&, index_range) {
      parts_[i].fill(value);
    });
  }
  /// Blocks until every part's pending commands are done.
  void wait() const {
    for (const auto& p : parts_) p.wait();
  }

 private:
  partitioned_array(device_group group, std::vector<index_range> ranges)
      : group_(std::move(group)), ranges_(std::move(ranges)) {
    parts_.reserve(ranges_.size());
    for (std::size_t i = 0; i < ranges_.size(); ++i)
      parts_.push_back(array<T>::empty(group_.queue(i), ranges_[i].size()));
  }
  std::size_t check(std::size_t i) const {
    if (i >= parts_.size())
      throw std::out_of_range("partitioned_array: part " + std::to_string(i) + " of " +
                              std::to_string(parts_.size()));
    return i;
  }
  device_group group_;
  std::vector<index_range> ranges_;
  std::vector<array<T>> parts_;
};

/// A partitioned copy of `host` over `group`, equal shares: every device gets its part at once.
template <class T>
partitioned_array<T> scatter(const device_group& group, const std::vector<T>& host) {
  auto a = partitioned_array<T>::empty(group, host.size());
  a.scatter(host);
  return a;
}
/// The same with shares proportional to `weights` (one per device, finite and > 0).
template <class T>
partitioned_array<T> scatter(const device_group& group, const std::vector<T>& host,
                             const std::vector<double>& weights) {
  auto a = partitioned_array<T>::empty(group, host.size(), weights);
  a.scatter(host);
  return a;
}
/// The elements of `a` in order on the host.
template <class T>
std::vector<T> gather(const partitioned_array<T>& a) {
  return a.gather();
}

/// Runs `fn(part(i) of each array...)` for every device at once, on a thread per device as
/// parallel_for_each_device does (each device's queue finished after its fn, the error of the
/// lowest-numbered failing device rethrown once all are done). fn gets each part as an array<T>&
/// (a copy of the handle, sharing the part's elements), so an element-wise expression assigned to
/// it writes the part with one fused kernel:
///
///     anycl::for_each_part([](auto& y, const auto& x) { y = 2.0f * x + 1.0f; }, y, x);
///
/// Devices whose parts are empty are not called. Throws std::invalid_argument, before any device
/// runs, when the arrays are not aligned (another group or other ranges: make them with like()).
template <class Fn, class T, class... Ts>
void for_each_part(Fn&& fn, const partitioned_array<T>& first,
                   const partitioned_array<Ts>&... rest) {
  static_assert(std::is_invocable_v<Fn&, array<T>&, array<Ts>&...>,
                "AnyCL: for_each_part needs fn(anycl::array<T>&...) taking one part of each "
                "partitioned array");
  if (!(first.aligned_with(rest) && ...))
    throw std::invalid_argument(
        "for_each_part: the partitioned arrays are not aligned (another device group or other "
        "ranges); make them with partitioned_array<T>::like()");
  detail::run_on_devices(
      first.group(), first.ranges(), [&](std::size_t i, const command_queue&, index_range) {
        std::tuple<array<T>, array<Ts>...> parts{first.parts()[i], rest.parts()[i]...};
        std::apply([&fn](auto&... p) { fn(p...); }, parts);
      });
}

namespace detail {
/// Runs `part_result(part)` on every non-empty part at once and returns the results, in device
/// order, with a flag for the parts that had elements.
template <class R, class T, class Fn>
std::vector<std::pair<bool, R>> per_part(const partitioned_array<T>& a, Fn part_result) {
  std::vector<std::pair<bool, R>> out(a.parts().size(), {false, R{}});
  run_on_devices(a.group(), a.ranges(), [&](std::size_t i, const command_queue&, index_range) {
    out[i] = {true, part_result(a.parts()[i])};
  });
  return out;
}
}  // namespace detail

/// The sum of all elements: each device sums its part (as anycl::sum, compensated for floats),
/// all at once, and the host adds the partial sums. Integers: exact modulo 2^64, equal to sum()
/// of one array holding the same elements. Floats: the partials are added in long double and
/// rounded once, so the result is within an ulp or so of the single-array sum, not always equal.
template <class T>
sum_type_t<T> sum(const partitioned_array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::sum works on real element types");
  using S = sum_type_t<T>;
  const auto parts = detail::per_part<S>(a, [](const array<T>& p) { return anycl::sum(p); });
  if constexpr (std::is_floating_point_v<T>) {
    long double s = 0;
    for (const auto& p : parts) s += p.second;
    return static_cast<S>(s);
  } else {
    std::uint64_t s = 0;  // unsigned: wraps modulo 2^64 as one array's sum does
    for (const auto& p : parts) s += static_cast<std::uint64_t>(p.second);
    return static_cast<S>(s);
  }
}

/// sum(a[k] * b[k]) over aligned arrays (std::invalid_argument otherwise): each device computes
/// the dot product of its parts (as anycl::dot), all at once, and the host adds the partials as
/// sum() does (exact modulo 2^64 for integers).
template <class T>
sum_type_t<T> dot(const partitioned_array<T>& a, const partitioned_array<T>& b) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::dot works on real element types");
  if (!a.aligned_with(b))
    throw std::invalid_argument(
        "anycl::dot: the partitioned arrays are not aligned (another device group or other "
        "ranges); make them with partitioned_array<T>::like()");
  using S = sum_type_t<T>;
  std::vector<S> parts(a.parts().size(), S{});
  detail::run_on_devices(a.group(), a.ranges(),
                         [&](std::size_t i, const command_queue&, index_range) {
                           parts[i] = anycl::dot(a.parts()[i], b.parts()[i]);
                         });
  if constexpr (std::is_floating_point_v<T>) {
    long double s = 0;
    for (S p : parts) s += p;
    return static_cast<S>(s);
  } else {
    std::uint64_t s = 0;
    for (S p : parts) s += static_cast<std::uint64_t>(p);
    return static_cast<S>(s);
  }
}

namespace detail {
template <class T, bool Max>
T min_or_max(const partitioned_array<T>& a, const char* what) {
  if (a.empty())
    throw std::invalid_argument(std::string(what) + ": the partitioned array is empty");
  const auto parts = per_part<T>(a, [](const array<T>& p) {
    if constexpr (Max)
      return anycl::max(p);
    else
      return anycl::min(p);
  });
  bool have = false;
  T r{};
  for (const auto& p : parts) {
    if (!p.first) continue;
    if (!have) {
      r = p.second;
      have = true;
    } else if constexpr (std::is_floating_point_v<T>) {
      r = Max ? std::fmax(r, p.second) : std::fmin(r, p.second);  // NaN only if both are
    } else {
      r = Max ? (p.second > r ? p.second : r) : (p.second < r ? p.second : r);
    }
  }
  return r;
}
}  // namespace detail

/// The smallest element (NaNs ignored as by fmin), from each part's min combined on the host;
/// equal to min() of one array with the same elements. Throws std::invalid_argument when empty.
template <class T>
T min(const partitioned_array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::min works on real element types");
  return detail::min_or_max<T, false>(a, "anycl::min");
}
/// The largest element (NaNs ignored as by fmax); as min.
template <class T>
T max(const partitioned_array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::max works on real element types");
  return detail::min_or_max<T, true>(a, "anycl::max");
}

/// How many elements satisfy `predicate` (an OpenCL C expression in `x`, as anycl::count_if):
/// each device counts its part, all at once, and the host adds the counts. 0 when empty.
template <class T>
std::uint64_t count_if(const partitioned_array<T>& a, const std::string& predicate) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::count_if works on real element types");
  if (predicate.empty())  // every device would throw the same; say it once, before any runs
    throw std::invalid_argument("anycl::count_if: the predicate is empty; give an expression in x");
  const auto parts = detail::per_part<std::uint64_t>(
      a, [&](const array<T>& p) { return anycl::count_if(p, predicate); });
  std::uint64_t n = 0;
  for (const auto& p : parts) n += p.second;
  return n;
}
/// True when some element is non-zero (NaN counts as non-zero); false when empty.
template <class T>
bool any(const partitioned_array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::any works on real element types");
  const auto parts = detail::per_part<bool>(a, [](const array<T>& p) { return anycl::any(p); });
  for (const auto& p : parts)
    if (p.first && p.second) return true;
  return false;
}
/// True when every element is non-zero; true when empty.
template <class T>
bool all(const partitioned_array<T>& a) {
  static_assert(is_real_element_v<T>, "AnyCL: anycl::all works on real element types");
  const auto parts = detail::per_part<bool>(a, [](const array<T>& p) { return anycl::all(p); });
  for (const auto& p : parts)
    if (p.first && !p.second) return false;
  return true;
}

// --- sort ---

namespace detail {
/// The key as unsigned bits that order as anycl::sort orders keys: integers as numbers, floats by
/// their bits made monotonic (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN).
template <class K>
auto sort_bits(K k) noexcept {
  if constexpr (std::is_floating_point_v<K>) {
    using U = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
    U b;
    std::memcpy(&b, &k, sizeof b);
    constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
    return static_cast<U>((b & sign) != 0 ? ~b : (b | sign));
  } else if constexpr (std::is_signed_v<K>) {
    using U = std::make_unsigned_t<K>;
    return static_cast<U>(static_cast<U>(k) ^ (U(1) << (sizeof(U) * 8 - 1)));
  } else {
    return k;
  }
}
}  // namespace detail

/// Sorts all elements of `keys` across its parts, in the order anycl::sort gives one array
/// (stable; floats by their monotonic bits), so gather() afterwards equals one array sorted.
/// Every device first sorts its part with the radix sort, all at once; the host then merges the
/// sorted parts (a k-way merge, equal keys taken from lower parts first, which keeps the sort
/// stable) and writes them back in the same layout. The merge moves every element through host
/// memory once: a first version; a sample sort that keeps data on the devices is planned.
/// Blocks until done.
template <class K>
void sort(const partitioned_array<K>& keys, sort_order order = sort_order::ascending) {
  static_assert(
      is_real_element_v<K>,
      "AnyCL: anycl::sort works on real element types (complex arrays hold data for BLAS and FFT)");
  if (keys.empty()) return;
  detail::run_on_devices(keys.group(), keys.ranges(),
                         [&](std::size_t i, const command_queue&, index_range) {
                           anycl::sort(keys.parts()[i], order);
                         });
  const std::vector<K> parts = keys.gather();
  const auto& ranges = keys.ranges();
  using bits_t = decltype(detail::sort_bits(K{}));
  // (key bits, part): the queue's top is the next element to take; ties go to the lower part.
  using head = std::pair<bits_t, std::size_t>;
  const bool descending = order == sort_order::descending;
  auto later = [descending](const head& a, const head& b) {
    if (a.first != b.first) return descending ? a.first < b.first : a.first > b.first;
    return a.second > b.second;
  };
  std::priority_queue<head, std::vector<head>, decltype(later)> heads(later);
  std::vector<std::size_t> next(ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    next[i] = ranges[i].begin;
    if (!ranges[i].empty()) heads.push({detail::sort_bits(parts[next[i]]), i});
  }
  std::vector<K> merged;
  merged.reserve(parts.size());
  while (!heads.empty()) {
    const std::size_t i = heads.top().second;
    heads.pop();
    merged.push_back(parts[next[i]]);
    if (++next[i] < ranges[i].end) heads.push({detail::sort_bits(parts[next[i]]), i});
  }
  keys.scatter(merged);
}

// --- prefix sums ---

namespace detail {
/// The type offsets are added in: T for floating types, unsigned T for integers (wrapping).
template <class T, bool = std::is_floating_point_v<T>>
struct wrapping_arith {
  using type = T;
};
template <class T>
struct wrapping_arith<T, false> {
  using type = std::make_unsigned_t<T>;
};

/// The prefix sums of aligned `in` and `out` (in place when they are the same): every device sums
/// its part of `in` (all at once), the host adds up the offsets of the parts (in T's arithmetic,
/// wrapping for integers), then every device scans its part starting from its offset.
template <class T>
void partitioned_scan(const partitioned_array<T>& in, const partitioned_array<T>& out,
                      const T* init, const char* what) {
  static_assert(is_real_element_v<T>, "AnyCL: scans work on real element types");
  if (!in.aligned_with(out))
    throw std::invalid_argument(std::string(what) +
                                ": the partitioned arrays are not aligned (another device group "
                                "or other ranges); make them with partitioned_array<T>::like()");
  const std::size_t parts = in.parts().size();
  std::vector<sum_type_t<T>> totals(parts, sum_type_t<T>{});
  run_on_devices(in.group(), in.ranges(), [&](std::size_t i, const command_queue&, index_range) {
    totals[i] = anycl::sum(in.parts()[i]);
  });
  // offsets[i] = init + totals[0] + ... + totals[i-1], wrapping for integers as the scan does.
  using W = typename wrapping_arith<T>::type;
  std::vector<T> offsets(parts, T(0));
  W acc = init != nullptr ? static_cast<W>(*init) : W(0);
  for (std::size_t i = 0; i < parts; ++i) {
    offsets[i] = static_cast<T>(acc);
    acc = static_cast<W>(acc + static_cast<W>(static_cast<T>(totals[i])));
  }
  run_on_devices(in.group(), in.ranges(), [&](std::size_t i, const command_queue&, index_range) {
    if (init != nullptr) {
      anycl::exclusive_scan(in.parts()[i], out.parts()[i], offsets[i]);
    } else {
      anycl::inclusive_scan(in.parts()[i], out.parts()[i]);
      if (i != 0 && offsets[i] != T(0)) {
        array<T> o = out.parts()[i];
        o = o + offsets[i];
      }
    }
  });
}
}  // namespace detail

/// out[k] = in[0] + ... + in[k] over aligned partitioned arrays (`in` and `out` may be the same
/// array). Two passes on every device at once: the sums of the parts (their offsets added up on
/// the host), then each part's scan from its offset (anycl::inclusive_scan, plus one element-wise
/// addition). Integers: equal to one array's inclusive_scan exactly (wrapping as it does). Floats:
/// each offset is a compensated sum, so results differ from one array's scan by rounding only.
/// Only the + operator for now (others: docs/8-scale-out.md). Blocks until done. Throws
/// std::invalid_argument for arrays that are not aligned.
template <class T>
void inclusive_scan(const partitioned_array<T>& in, const partitioned_array<T>& out) {
  detail::partitioned_scan<T>(in, out, nullptr, "inclusive_scan");
}

/// out[0] = init, out[k] = init + in[0] + ... + in[k-1]; otherwise as inclusive_scan (each part
/// runs anycl::exclusive_scan from its offset).
template <class T>
void exclusive_scan(const partitioned_array<T>& in, const partitioned_array<T>& out, T init) {
  detail::partitioned_scan<T>(in, out, &init, "exclusive_scan");
}

}  // namespace anycl
