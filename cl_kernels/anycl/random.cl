// SPDX-License-Identifier: Apache-2.0
// anycl::random_generator's kernels: Philox4x32-10 blocks turned into raw bits, uniform and normal
// numbers. Block j of a call uses counter `ctr + j` (128-bit) and key `key`; a block gives four
// 32-bit outputs (uint, float) or two 64-bit ones (ulong, double).
//
// Work comes in groups of eight blocks, computed together in 8-wide vectors (SIMD lanes on a CPU)
// by one work-item: on a CPU each work-item takes a contiguous range of groups, on a GPU
// neighbouring work-items take neighbouring groups (grid-stride). Every element is computed by the
// same code whatever the launch shape, so even normal(), which uses the device's log, sqrt, cospi
// and sinpi, gives the same bits for any plan; the last, partial group goes through private memory.

// 8-wide ulong and double vectors passed to builtins make clang warn, where the target lacks
// AVX-512, that the call ABI changes (-Wpsabi). Every function of a program is compiled for one
// target, so no call crosses ABIs: the warning says nothing here.
#ifdef __clang__
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#include "loop.h"
#include "philox.h"

#define ANYCL_RNG_GROUP(g) anycl_philox4x32x8_10(anycl_philox_counters8(ctr, 8 * (ulong)(g)), key)

// On a CPU, whole groups of a large fill (4 MiB and more) at 32-byte aligned addresses are stored
// past the caches where the driver's compiler has clang's non-temporal store: no read of the
// destination lines first, half the memory traffic of plain stores. Elsewhere (or built with
// -DANYCL_RNG_NO_STREAM) plain vstore8.
#if defined(ANYCL_CPU) && defined(__clang__) && defined(__has_builtin) && \
    !defined(ANYCL_RNG_NO_STREAM)
#if __has_builtin(__builtin_nontemporal_store)
#define ANYCL_RNG_STREAM 1
#endif
#endif
#ifdef ANYCL_RNG_STREAM
#define ANYCL_RNG_STORE8(v, p, aligned)                 \
  if (aligned)                                          \
    __builtin_nontemporal_store(v, (global uint8*)(p)); \
  else                                                  \
    vstore8(v, 0, p)
#else
#define ANYCL_RNG_STORE8(v, p, aligned) vstore8(v, 0, p)
#endif

// Writes the 32 words of group g, in block order, to words [32g, 32g + 32) of `base`, stopping at
// word `limit`.
#define ANYCL_RNG_STORE_WORDS(g, base, limit, X, Y, Z, W)                \
  {                                                                      \
    const anycl_philox4x32x8 s_ = anycl_philox_block_order8(X, Y, Z, W); \
    const ulong e_ = 32 * (ulong)(g);                                    \
    if (e_ + 32 <= (limit)) {                                            \
      global uint* p_ = (base) + e_;                                     \
      const bool a_ = ((ulong)p_ & 31) == 0 && (limit) >= (1 << 20);     \
      ANYCL_RNG_STORE8(s_.x, p_, a_);                                    \
      ANYCL_RNG_STORE8(s_.y, p_ + 8, a_);                                \
      ANYCL_RNG_STORE8(s_.z, p_ + 16, a_);                               \
      ANYCL_RNG_STORE8(s_.w, p_ + 24, a_);                               \
    } else {                                                             \
      uint t_[32];                                                       \
      vstore8(s_.x, 0, t_);                                              \
      vstore8(s_.y, 0, t_ + 8);                                          \
      vstore8(s_.z, 0, t_ + 16);                                         \
      vstore8(s_.w, 0, t_ + 24);                                         \
      for (ulong i_ = e_; i_ < (limit); ++i_) (base)[i_] = t_[i_ - e_];  \
    }                                                                    \
  }

// --- 32-bit outputs: element 4j + i is word i of block j ---

kernel void anycl_random_bits32(global uint* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                ulong ctr, uint p0, uint p1, uint p2) {
  ANYCL_FOR_EACH(g, (n + 31) / 32, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    ANYCL_RNG_STORE_WORDS(g, dst + off, n, b.x, b.y, b.z, b.w)
  }
}

// fma(span, u, lo) with u = (x >> 8) * 2^-24, replaced by `top` (the largest value below hi) where
// rounding reached hi.
inline uint8 anycl_rng_uniform8(uint8 x, float lo, float span, float top) {
  const float8 v = fma((float8)(span), convert_float8(x >> 8) * 0x1.0p-24f, (float8)(lo));
  return as_uint8(select(v, (float8)(top), v > top));
}

kernel void anycl_random_uniform_f32(global float* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                     ulong ctr, float lo, float span, float top) {
  ANYCL_FOR_EACH(g, (n + 31) / 32, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    ANYCL_RNG_STORE_WORDS(g, (global uint*)(dst + off), n, anycl_rng_uniform8(b.x, lo, span, top),
                          anycl_rng_uniform8(b.y, lo, span, top),
                          anycl_rng_uniform8(b.z, lo, span, top),
                          anycl_rng_uniform8(b.w, lo, span, top))
  }
}

// Box-Muller on the word pairs (x, y) and (z, w) of each block: u1 = ((x >> 8) + 1) * 2^-24 in
// (0, 1], t = (y >> 8) * 2^-23 in [0, 2); r = sqrt(-2 ln u1); the pair gives r cos(pi t) and
// r sin(pi t).
kernel void anycl_random_normal_f32(global float* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                    ulong ctr, float mean, float sd, float unused) {
  ANYCL_FOR_EACH(g, (n + 31) / 32, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    const float8 r0 = sqrt(-2.0f * log(convert_float8(b.x >> 8) * 0x1.0p-24f + 0x1.0p-24f));
    const float8 t0 = convert_float8(b.y >> 8) * 0x1.0p-23f;
    const float8 r1 = sqrt(-2.0f * log(convert_float8(b.z >> 8) * 0x1.0p-24f + 0x1.0p-24f));
    const float8 t1 = convert_float8(b.w >> 8) * 0x1.0p-23f;
    ANYCL_RNG_STORE_WORDS(g, (global uint*)(dst + off), n,
                          as_uint8(fma(r0 * cospi(t0), (float8)(sd), (float8)(mean))),
                          as_uint8(fma(r0 * sinpi(t0), (float8)(sd), (float8)(mean))),
                          as_uint8(fma(r1 * cospi(t1), (float8)(sd), (float8)(mean))),
                          as_uint8(fma(r1 * sinpi(t1), (float8)(sd), (float8)(mean))))
  }
}

// --- 64-bit outputs: element 2j + i is the 64-bit word i of block j, (y << 32 | x) for i = 0 and
// (w << 32 | z) for i = 1; in memory, the block's four 32-bit words in order ---

kernel void anycl_random_bits64(global ulong* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                ulong ctr, ulong p0, ulong p1, ulong p2) {
  ANYCL_FOR_EACH(g, (n + 15) / 16, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    ANYCL_RNG_STORE_WORDS(g, (global uint*)(dst + off), 2 * n, b.x, b.y, b.z, b.w)
  }
}

#ifdef ANYCL_FP64
inline ulong8 anycl_rng_words64(uint8 lo, uint8 hi) {
  return convert_ulong8(lo) | (convert_ulong8(hi) << 32);
}

// Writes a[i], b[i] as elements 16g + 2i, 16g + 2i + 1 of `base`, stopping at element `limit`.
#define ANYCL_RNG_STORE_PAIRS(g, base, limit, A, B)                                      \
  {                                                                                      \
    const double16 s_ =                                                                  \
        shuffle2(A, B, (ulong16)(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15)); \
    const ulong e_ = 16 * (ulong)(g);                                                    \
    if (e_ + 16 <= (limit)) {                                                            \
      vstore16(s_, 0, (base) + e_);                                                      \
    } else {                                                                             \
      double t_[16];                                                                     \
      vstore16(s_, 0, t_);                                                               \
      for (ulong i_ = e_; i_ < (limit); ++i_) (base)[i_] = t_[i_ - e_];                  \
    }                                                                                    \
  }

// 53 bits each: u = (y >> 11) * 2^-53 in [0, 1); fma(span, u, lo), at most `top`.
kernel void anycl_random_uniform_f64(global double* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                     ulong ctr, double lo, double span, double top) {
  ANYCL_FOR_EACH(g, (n + 15) / 16, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    const double8 v0 =
        fma((double8)(span), convert_double8(anycl_rng_words64(b.x, b.y) >> 11) * 0x1.0p-53,
            (double8)(lo));
    const double8 v1 =
        fma((double8)(span), convert_double8(anycl_rng_words64(b.z, b.w) >> 11) * 0x1.0p-53,
            (double8)(lo));
    ANYCL_RNG_STORE_PAIRS(g, dst + off, n, select(v0, (double8)(top), v0 > top),
                          select(v1, (double8)(top), v1 > top))
  }
}

// Box-Muller on one pair per block: u1 = ((y0 >> 11) + 1) * 2^-53 in (0, 1], t = (y1 >> 11) *
// 2^-52 in [0, 2).
kernel void anycl_random_normal_f64(global double* dst, ulong off, ulong n, ulong chunk, uint2 key,
                                    ulong ctr, double mean, double sd, double unused) {
  ANYCL_FOR_EACH(g, (n + 15) / 16, chunk) {
    const anycl_philox4x32x8 b = ANYCL_RNG_GROUP(g);
    const double8 r = sqrt(
        -2.0 * log(convert_double8(anycl_rng_words64(b.x, b.y) >> 11) * 0x1.0p-53 + 0x1.0p-53));
    const double8 t = convert_double8(anycl_rng_words64(b.z, b.w) >> 11) * 0x1.0p-52;
    ANYCL_RNG_STORE_PAIRS(g, dst + off, n, fma(r * cospi(t), (double8)(sd), (double8)(mean)),
                          fma(r * sinpi(t), (double8)(sd), (double8)(mean)))
  }
}
#endif
