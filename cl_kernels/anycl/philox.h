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

// One round: two 32x32->64 multiplies; the words are permuted and the key mixed in.
inline uint4 anycl_philox4x32_round(uint4 c, uint2 k) {
  const uint hi0 = mul_hi(ANYCL_PHILOX_M4x32_0, c.x);
  const uint lo0 = ANYCL_PHILOX_M4x32_0 * c.x;
  const uint hi1 = mul_hi(ANYCL_PHILOX_M4x32_1, c.z);
  const uint lo1 = ANYCL_PHILOX_M4x32_1 * c.z;
  return (uint4)(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}

// Philox4x32 with 10 rounds: counter words (x, y, z, w) = (c0, c1, c2, c3) and key (k0, k1) as in
// Random123's philox4x32_ctr_t / philox4x32_key_t; the key is bumped by the Weyl constants before
// rounds 2..10.
inline uint4 anycl_philox4x32_10(uint4 c, uint2 k) {
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
