// SPDX-License-Identifier: Apache-2.0
// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel random
// numbers: as easy as 1, 2, 3" (SC'11), exactly as Random123 defines it: a 128-bit counter and a
// 64-bit key give 128 random bits. Matches Random123's known-answer vectors (kat_vectors); include
// it from your own kernels to draw the same streams as anycl::random_generator.
#pragma once

#define ANYCL_PHILOX_M4x32_0 0xD2511F53u
#define ANYCL_PHILOX_M4x32_1 0xCD9E8D57u
#define ANYCL_PHILOX_W32_0 0x9E3779B9u
#define ANYCL_PHILOX_W32_1 0xBB67AE85u

// One round: two 32x32->64 multiplies; the words are permuted and the key mixed in. The high
// halves come from a 64-bit product, not mul_hi(uint): POCL's mul_hi splits into 16-bit pieces.
inline uint4 anycl_philox4x32_round(uint4 c, uint2 k) {
  const ulong p0 = (ulong)ANYCL_PHILOX_M4x32_0 * c.x;
  const ulong p1 = (ulong)ANYCL_PHILOX_M4x32_1 * c.z;
  return (uint4)((uint)(p1 >> 32) ^ c.y ^ k.x, (uint)p1, (uint)(p0 >> 32) ^ c.w ^ k.y, (uint)p0);
}

// Philox4x32 with 10 rounds: counter words (x, y, z, w) = (c0, c1, c2, c3) and key (k0, k1) as in
// Random123's philox4x32_ctr_t / philox4x32_key_t; the key is bumped by the Weyl constants before
// rounds 2..10.
__attribute__((always_inline)) inline uint4 anycl_philox4x32_10(uint4 c, uint2 k) {
  const uint2 w = (uint2)(ANYCL_PHILOX_W32_0, ANYCL_PHILOX_W32_1);
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  c = anycl_philox4x32_round(c, k);
  k += w;
  return anycl_philox4x32_round(c, k);
}

// The 128-bit counter `base + j` as four little-endian words (j < 2^63): what
// anycl::random_generator uses for block j of a call made at offset `base`.
inline uint4 anycl_philox_counter(ulong base, ulong j) {
  const ulong c = base + j;
  return (uint4)((uint)c, (uint)(c >> 32), c < base ? 1u : 0u, 0u);
}

// The key for a 64-bit seed: (low word, high word).
inline uint2 anycl_philox_key(ulong seed) { return (uint2)((uint)seed, (uint)(seed >> 32)); }

// A float in [0, 1) from the top 24 bits of x: (x >> 8) * 2^-24.
inline float anycl_u01_float(uint x) { return (float)(x >> 8) * 0x1.0p-24f; }

// --- eight blocks at once, one word per vector (structure of arrays), for SIMD on CPUs ---

// Words x, y, z, w of eight blocks: lane i of `x` is word 0 of block i.
typedef struct {
  uint8 x, y, z, w;
} anycl_philox4x32x8;

// hi and lo halves of m * a for eight lanes: even and odd lanes multiply as 64-bit lanes
// (vpmuludq on x86), then the halves are blended back in place, without shuffles.
#define ANYCL_PHILOX_MULHILO8(m, a, hi, lo)                                  \
  {                                                                          \
    const ulong4 ev_ = (as_ulong4(a) & (ulong4)(0xffffffffUL)) * (ulong)(m); \
    const ulong4 od_ = (as_ulong4(a) >> 32) * (ulong)(m);                    \
    hi = as_uint8((ev_ >> 32) | (od_ & (ulong4)(0xffffffff00000000UL)));     \
    lo = as_uint8((ev_ & (ulong4)(0xffffffffUL)) | (od_ << 32));             \
  }

inline anycl_philox4x32x8 anycl_philox4x32x8_round(anycl_philox4x32x8 c, uint2 k) {
  uint8 hi0, lo0, hi1, lo1;
  ANYCL_PHILOX_MULHILO8(ANYCL_PHILOX_M4x32_0, c.x, hi0, lo0);
  ANYCL_PHILOX_MULHILO8(ANYCL_PHILOX_M4x32_1, c.z, hi1, lo1);
  anycl_philox4x32x8 o;
  o.x = hi1 ^ c.y ^ k.x;
  o.y = lo1;
  o.z = hi0 ^ c.w ^ k.y;
  o.w = lo0;
  return o;
}

// anycl_philox4x32_10 on eight blocks; lane i equals anycl_philox4x32_10 of block i.
__attribute__((always_inline)) inline anycl_philox4x32x8 anycl_philox4x32x8_10(anycl_philox4x32x8 c, uint2 k) {
  const uint2 w = (uint2)(ANYCL_PHILOX_W32_0, ANYCL_PHILOX_W32_1);
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  c = anycl_philox4x32x8_round(c, k);
  k += w;
  return anycl_philox4x32x8_round(c, k);
}

// The counters base + j .. base + j + 7 (as anycl_philox_counter).
inline anycl_philox4x32x8 anycl_philox_counters8(ulong base, ulong j) {
  const ulong8 c = (ulong8)(base + j) + (ulong8)(0, 1, 2, 3, 4, 5, 6, 7);
  anycl_philox4x32x8 o;
  o.x = convert_uint8(c);
  o.y = convert_uint8(c >> 32);
  o.z = convert_uint8(c < (ulong8)(base)) & 1u;
  o.w = (uint8)(0u);
  return o;
}

// The 32 words of eight blocks in block order: .x holds blocks 0 and 1 (x0 y0 z0 w0 x1 y1 z1 w1),
// .y blocks 2 and 3, .z blocks 4 and 5, .w blocks 6 and 7. A 4x8 transpose in shuffles that x86
// does as unpacks and 128-bit permutes.
inline anycl_philox4x32x8 anycl_philox_block_order8(uint8 x, uint8 y, uint8 z, uint8 w) {
  const uint8 lo = (uint8)(0, 8, 1, 9, 4, 12, 5, 13), hi = (uint8)(2, 10, 3, 11, 6, 14, 7, 15);
  const uint8 t0 = shuffle2(x, y, lo), t1 = shuffle2(x, y, hi);  // x0 y0 x1 y1 | x4 y4 x5 y5 ...
  const uint8 t2 = shuffle2(z, w, lo), t3 = shuffle2(z, w, hi);
  const uint8 even = (uint8)(0, 1, 8, 9, 4, 5, 12, 13), odd = (uint8)(2, 3, 10, 11, 6, 7, 14, 15);
  const uint8 u0 = shuffle2(t0, t2, even), u1 = shuffle2(t0, t2, odd);  // blocks 0 | 4, 1 | 5
  const uint8 u2 = shuffle2(t1, t3, even), u3 = shuffle2(t1, t3, odd);  // blocks 2 | 6, 3 | 7
  const uint8 first = (uint8)(0, 1, 2, 3, 8, 9, 10, 11);
  const uint8 second = (uint8)(4, 5, 6, 7, 12, 13, 14, 15);
  anycl_philox4x32x8 o;
  o.x = shuffle2(u0, u1, first);
  o.y = shuffle2(u2, u3, first);
  o.z = shuffle2(u0, u1, second);
  o.w = shuffle2(u2, u3, second);
  return o;
}
