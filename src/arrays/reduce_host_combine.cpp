// SPDX-License-Identifier: Apache-2.0
// The last stage of the built-in whole-array reductions on the host: the partial kernel's
// accumulators combined pairwise with the operation of reduce.cl, in the order of the final kernel
// the device ran before (reduce_engine.h), so the results are those it gave.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
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

// reduce.cl's anycl_csum_op: Knuth's TwoSum over (sum, compensation) pairs, in T's precision; an
// infinite or NaN sum drops the compensation (which would be NaN), so infinities come through.
template <class T>
void csum(unsigned char* a, const unsigned char* b) {
  T p[2], q[2];
  std::memcpy(p, a, sizeof p);
  std::memcpy(q, b, sizeof q);
  const T s = p[0] + q[0];
  const T bb = s - p[0];
  const T e = (p[0] - (s - bb)) + (q[0] - bb);
  const T r[2] = {s, std::isfinite(s) ? (p[1] + q[1]) + e : T(0)};
  std::memcpy(a, r, sizeof r);
}

// min (Min) or max: fmin/fmax for floating T (NaNs ignored), std::min/max for integers.
template <class T, bool Min>
void extremum(unsigned char* a, const unsigned char* b) {
  combine_as<T>(a, b, [](T x, T y) {
    if constexpr (std::is_floating_point_v<T>) {
      return Min ? std::fmin(x, y) : std::fmax(x, y);
    } else {
      return Min ? std::min(x, y) : std::max(x, y);
    }
  });
}

void or_u32(unsigned char* a, const unsigned char* b) {
  combine_as<std::uint32_t>(a, b, [](std::uint32_t x, std::uint32_t y) { return x | y; });
}
void and_u32(unsigned char* a, const unsigned char* b) {
  combine_as<std::uint32_t>(a, b, [](std::uint32_t x, std::uint32_t y) { return x & y; });
}

// argreduce.cl's candidates {T v; ulong i;}: `b` replaces `a` where it wins (a NaN first, then
// the larger (Largest) or smaller value, then the smaller index), as anycl_arg_wins.
template <class T, bool Largest>
void arg_pick(unsigned char* a, const unsigned char* b) {
  T va, vb;
  std::uint64_t ia, ib;
  std::memcpy(&va, a, sizeof va);
  std::memcpy(&vb, b, sizeof vb);
  std::memcpy(&ia, a + 8, sizeof ia);
  std::memcpy(&ib, b + 8, sizeof ib);
  bool b_wins;
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(va) || std::isnan(vb)) {
      b_wins = std::isnan(vb) && (!std::isnan(va) || ib < ia);
      if (b_wins) std::memcpy(a, b, 16);
      return;
    }
  }
  if (va != vb)
    b_wins = Largest ? vb > va : vb < va;
  else
    b_wins = ib < ia;
  if (b_wins) std::memcpy(a, b, 16);
}

}  // namespace

host_combine builtin_combine(scalar_type t, reduce_op op, const char* what) {
  if (is_complex(t))
    throw std::invalid_argument(std::string(what) + ": " + cl_type_name(t) +
                                " elements have no built-in reduction (complex arrays hold data "
                                "for BLAS and FFT)");
  switch (op) {
    case reduce_op::sum:
      if (t == scalar_type::f32) return csum<float>;
      if (t == scalar_type::f64) return csum<double>;
      return add_u64;
    case reduce_op::min:
      return with_real_type(t, [](auto v) -> host_combine { return extremum<decltype(v), true>; });
    case reduce_op::max:
      return with_real_type(t, [](auto v) -> host_combine { return extremum<decltype(v), false>; });
    case reduce_op::any:
      return or_u32;
    case reduce_op::all:
      return and_u32;
    case reduce_op::argmin:
      return with_real_type(t, [](auto v) -> host_combine { return arg_pick<decltype(v), false>; });
    case reduce_op::argmax:
      return with_real_type(t, [](auto v) -> host_combine { return arg_pick<decltype(v), true>; });
  }
  return add_u64;
}

host_combine count_combine() { return add_u64; }

void combine_pairwise(host_combine combine, unsigned char* parts, std::size_t count,
                      std::size_t acc_size) {
  for (std::size_t s = 1; s < count; s *= 2)
    for (std::size_t j = 0; j + s < count; j += 2 * s)
      combine(parts + j * acc_size, parts + (j + s) * acc_size);
}

}  // namespace anycl::detail
