// SPDX-License-Identifier: Apache-2.0
// The last stage of the built-in whole-array reductions on the host: the partial kernel's
// accumulators combined pairwise with the operation of reduce.cl, in the order of the final kernel
// the device ran before (reduce_engine.h), so the results are those it gave.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "arrays/reduce_internal.hpp"

namespace anycl::detail {

namespace {

template <class A, class Op>
void combine_as(unsigned char* a, const unsigned char* b, Op op) {
  A x, y;
  std::memcpy(&x, a, sizeof x);
  std::memcpy(&y, b, sizeof y);
  const A r = op(x, y);
  std::memcpy(a, &r, sizeof r);
}

// Integer sums wrap modulo 2^64 (signed ones as their two's-complement bits, as on the device).
void add_u64(unsigned char* a, const unsigned char* b) {
  combine_as<std::uint64_t>(a, b, [](std::uint64_t x, std::uint64_t y) { return x + y; });
}

// reduce.cl's anycl_csum_op: Knuth's TwoSum over (sum, compensation) pairs, in T's precision.
template <class T>
void csum(unsigned char* a, const unsigned char* b) {
  T p[2], q[2];
  std::memcpy(p, a, sizeof p);
  std::memcpy(q, b, sizeof q);
  const T s = p[0] + q[0];
  const T bb = s - p[0];
  const T e = (p[0] - (s - bb)) + (q[0] - bb);
  const T r[2] = {s, (p[1] + q[1]) + e};
  std::memcpy(a, r, sizeof r);
}

// min/max: fmin/fmax for floating T (NaNs ignored), min/max for integers.
template <class T>
void min_of(unsigned char* a, const unsigned char* b) {
  combine_as<T>(a, b, [](T x, T y) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmin(x, y);
    } else {
      return std::min(x, y);
    }
  });
}
template <class T>
void max_of(unsigned char* a, const unsigned char* b) {
  combine_as<T>(a, b, [](T x, T y) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmax(x, y);
    } else {
      return std::max(x, y);
    }
  });
}

void or_u32(unsigned char* a, const unsigned char* b) {
  combine_as<std::uint32_t>(a, b, [](std::uint32_t x, std::uint32_t y) { return x | y; });
}
void and_u32(unsigned char* a, const unsigned char* b) {
  combine_as<std::uint32_t>(a, b, [](std::uint32_t x, std::uint32_t y) { return x & y; });
}

template <template <class> class F>
host_combine by_type(scalar_type t) {
  switch (t) {
    case scalar_type::i8:
      return F<std::int8_t>::fn;
    case scalar_type::i16:
      return F<std::int16_t>::fn;
    case scalar_type::i32:
      return F<std::int32_t>::fn;
    case scalar_type::i64:
      return F<std::int64_t>::fn;
    case scalar_type::u8:
      return F<std::uint8_t>::fn;
    case scalar_type::u16:
      return F<std::uint16_t>::fn;
    case scalar_type::u32:
      return F<std::uint32_t>::fn;
    case scalar_type::u64:
      return F<std::uint64_t>::fn;
    case scalar_type::f32:
      return F<float>::fn;
    case scalar_type::f64:
      return F<double>::fn;
    default:
      return nullptr;
  }
}
template <class T>
struct min_fn {
  static constexpr host_combine fn = min_of<T>;
};
template <class T>
struct max_fn {
  static constexpr host_combine fn = max_of<T>;
};

}  // namespace

host_combine builtin_combine(scalar_type t, reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      if (t == scalar_type::f32) return csum<float>;
      if (t == scalar_type::f64) return csum<double>;
      return add_u64;
    case reduce_op::min:
      return by_type<min_fn>(t);
    case reduce_op::max:
      return by_type<max_fn>(t);
    case reduce_op::any:
      return or_u32;
    case reduce_op::all:
      return and_u32;
  }
  return nullptr;
}

host_combine count_combine() { return add_u64; }

void combine_pairwise(host_combine combine, unsigned char* parts, std::size_t count,
                      std::size_t acc_size) {
  for (std::size_t s = 1; s < count; s *= 2)
    for (std::size_t j = 0; j + s < count; j += 2 * s)
      combine(parts + j * acc_size, parts + (j + s) * acc_size);
}

}  // namespace anycl::detail
