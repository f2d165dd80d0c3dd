// SPDX-License-Identifier: Apache-2.0
// anycl::random_generator's kernels: Philox4x32-10 blocks turned into raw bits, uniform and normal
// numbers. Block j of a call uses counter `ctr + j` (128-bit) and key `key`; a block gives four
// 32-bit outputs (uint, float) or two 64-bit ones (ulong, double), written with one vstore. The
// value of element k depends only on key, ctr and k, never on the launch shape.
#include "loop.h"
#include "philox.h"

// --- conversions of one block ---

inline uint4 anycl_rng_bits32(uint4 x, uint a, uint b, uint c) { return x; }

// fma(span, u, lo), clamped below `top` (the largest value under hi) where rounding reached hi.
inline float4 anycl_rng_uniform_f32(uint4 x, float lo, float span, float top) {
  const float4 u = convert_float4(x >> 8) * 0x1.0p-24f;
  return fmin(fma((float4)(span), u, (float4)(lo)), (float4)(top));
}

// Box-Muller on the pairs (x, y) and (z, w): u1 in (0, 1] from the first word, an angle of
// 2*pi*u2 from the second; the pair gives r*cos and r*sin.
inline float4 anycl_rng_normal_f32(uint4 x, float mean, float sd, float unused) {
  const float2 u1 = convert_float2((uint2)(x.x, x.z) >> 8) * 0x1.0p-24f + 0x1.0p-24f;
  const float2 t = convert_float2((uint2)(x.y, x.w) >> 8) * 0x1.0p-23f;
  const float2 r = sqrt(-2.0f * log(u1));
  const float2 c = r * cospi(t);
  const float2 s = r * sinpi(t);
  return fma((float4)(c.x, s.x, c.y, s.y), (float4)(sd), (float4)(mean));
}

// Block j fills elements 4j..4j+3; the last partial block is written by work-item 0.
#define ANYCL_RNG_KERNEL4(NAME, TYPE, TYPE4, MAKE)                                          \
  kernel void NAME(global TYPE* dst, ulong off, ulong n, ulong chunk, uint2 key, ulong ctr, \
                   TYPE p0, TYPE p1, TYPE p2) {                                             \
    const ulong full = n / 4;                                                               \
    ANYCL_FOR_EACH(j, full, chunk) {                                                        \
      const TYPE4 v = MAKE(anycl_philox4x32_10(anycl_philox_counter(ctr, j), key), p0, p1, p2); \
      vstore4(v, 0, dst + off + 4 * j);                                                     \
    }                                                                                       \
    if (get_global_id(0) == 0 && full * 4 < n) {                                            \
      TYPE t[4];                                                                            \
      vstore4(MAKE(anycl_philox4x32_10(anycl_philox_counter(ctr, full), key), p0, p1, p2), 0, \
              t);                                                                           \
      for (ulong i = full * 4; i < n; ++i) dst[off + i] = t[i - full * 4];                  \
    }                                                                                       \
  }

ANYCL_RNG_KERNEL4(anycl_random_bits32, uint, uint4, anycl_rng_bits32)
ANYCL_RNG_KERNEL4(anycl_random_uniform_f32, float, float4, anycl_rng_uniform_f32)
ANYCL_RNG_KERNEL4(anycl_random_normal_f32, float, float4, anycl_rng_normal_f32)

// --- 64-bit outputs: two per block, from the word pairs (x, y) and (z, w), low word first ---

inline ulong2 anycl_rng_bits64(uint4 x, ulong a, ulong b, ulong c) {
  return (ulong2)((ulong)x.x | ((ulong)x.y << 32), (ulong)x.z | ((ulong)x.w << 32));
}

// Block j fills elements 2j, 2j+1; an odd last element is written by work-item 0.
#define ANYCL_RNG_KERNEL2(NAME, TYPE, TYPE2, MAKE)                                          \
  kernel void NAME(global TYPE* dst, ulong off, ulong n, ulong chunk, uint2 key, ulong ctr, \
                   TYPE p0, TYPE p1, TYPE p2) {                                             \
    const ulong full = n / 2;                                                               \
    ANYCL_FOR_EACH(j, full, chunk) {                                                        \
      const TYPE2 v = MAKE(anycl_philox4x32_10(anycl_philox_counter(ctr, j), key), p0, p1, p2); \
      vstore2(v, 0, dst + off + 2 * j);                                                     \
    }                                                                                       \
    if (get_global_id(0) == 0 && (n & 1)) {                                                 \
      const TYPE2 v =                                                                       \
          MAKE(anycl_philox4x32_10(anycl_philox_counter(ctr, full), key), p0, p1, p2);      \
      dst[off + n - 1] = v.x;                                                               \
    }                                                                                       \
  }

ANYCL_RNG_KERNEL2(anycl_random_bits64, ulong, ulong2, anycl_rng_bits64)

#ifdef ANYCL_FP64
// 53 bits each: ((hi:lo) >> 11) * 2^-53 in [0, 1).
inline double2 anycl_rng_uniform_f64(uint4 x, double lo, double span, double top) {
  const double2 u = convert_double2(anycl_rng_bits64(x, 0, 0, 0) >> 11) * 0x1.0p-53;
  return fmin(fma((double2)(span), u, (double2)(lo)), (double2)(top));
}

// Box-Muller on one pair: u1 in (0, 1] from (x, y), the angle from (z, w).
inline double2 anycl_rng_normal_f64(uint4 x, double mean, double sd, double unused) {
  const ulong2 b = anycl_rng_bits64(x, 0, 0, 0) >> 11;
  const double u1 = (double)b.x * 0x1.0p-53 + 0x1.0p-53;
  const double t = (double)b.y * 0x1.0p-52;
  const double r = sqrt(-2.0 * log(u1));
  return fma((double2)(r * cospi(t), r * sinpi(t)), (double2)(sd), (double2)(mean));
}

ANYCL_RNG_KERNEL2(anycl_random_uniform_f64, double, double2, anycl_rng_uniform_f64)
ANYCL_RNG_KERNEL2(anycl_random_normal_f64, double, double2, anycl_rng_normal_f64)
#endif
