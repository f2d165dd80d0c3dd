// SPDX-License-Identifier: Apache-2.0
// LSD radix sort with 8-bit digits. Built with -DK=<key type> -DKU=<unsigned type of its size>
// -DANYCL_KEY_KIND=0 (unsigned), 1 (signed) or 2 (floating); -DV=<unsigned type of the values'
// size> for key-value scatters; -DANYCL_SORT_IOTA for a scatter whose values are the keys'
// positions (argsort's first pass). Those two build the scatter alone: the counts come from the
// keys-only program. The order is an argument of every kernel, `flip`: 0 for ascending, all ones
// for descending (one program serves both).
//
// Keys are compared as unsigned bit patterns: signed keys with the sign bit flipped; floating keys
// with the sign bit flipped when it is clear and every bit flipped when it is set, so -inf < ... <
// -0.0 < +0.0 < ... < +inf, NaNs with the sign bit set before -inf and the others after +inf;
// descending order complements the pattern (XOR with `flip`). Equal patterns keep their input order (stable).
//
// Each work-item owns a contiguous chunk of `chunk` elements, on every device type.
// A pass: per-chunk digit counts, then each chunk scatters its elements in order to the offsets
// of (digit, chunk) in digit-major order.
#include "loop.h"

#ifndef K
#define K uint
#define KU uint
#define ANYCL_KEY_KIND 0
#endif

#define ANYCL_SORT_CAT_(a, b) a##b
#define ANYCL_SORT_CAT(a, b) ANYCL_SORT_CAT_(a, b)
#define ANYCL_SORT_DIGITS ((uint)sizeof(KU))
// The type of the values a scatter writes, if any.
#ifdef ANYCL_SORT_IOTA
#define ANYCL_SORT_VD uint
#elif defined(V)
#define ANYCL_SORT_VD V
#endif

// Elements per write-combining line: 64 bytes of keys, at most 16 keys.
#define ANYCL_SORT_W ((uint)(sizeof(K) >= 4 ? 64 / sizeof(K) : 16))

// Chunk g of n elements: [g * chunk, min(n, (g + 1) * chunk)), on every device type.
#define ANYCL_SORT_FOR_CHUNK(k, n, chunk)                                               \
  for (ulong k = (ulong)get_global_id(0) * (chunk), k##_end = min((ulong)(n), k + (chunk)); \
       k < k##_end; ++k)

inline KU anycl_sort_bits(K key, ulong flip) {
  const KU sign = (KU)((KU)1 << (sizeof(KU) * 8 - 1));
#if ANYCL_KEY_KIND == 2
  KU b = ANYCL_SORT_CAT(as_, KU)(key);
  b ^= (KU)(-(b >> (sizeof(KU) * 8 - 1))) | sign;
#elif ANYCL_KEY_KIND == 1
  KU b = (KU)((KU)key ^ sign);
#else
  KU b = (KU)key;
#endif
  return (KU)(b ^ (KU)flip);
}

inline uint anycl_sort_digit(K key, uint shift, ulong flip) {
  return (uint)((anycl_sort_bits(key, flip) >> shift) & (KU)0xFF);
}

#ifndef ANYCL_SORT_VD
// hist[(g * digits + d) * 256 + v]: how many keys of chunk g have value v in digit d, for every
// digit at once (the host skips the passes whose digit is the same for every key).
kernel void anycl_sort_count_all(global const K* keys, ulong off, ulong n, ulong chunk,
                                 global uint* hist, ulong flip) {
  uint counts[ANYCL_SORT_DIGITS * 256];
  for (uint i = 0; i < ANYCL_SORT_DIGITS * 256; ++i) counts[i] = 0;
  global const K* p = keys + off;
  ANYCL_SORT_FOR_CHUNK(k, n, chunk) {
    const KU b = anycl_sort_bits(p[k], flip);
    for (uint d = 0; d < ANYCL_SORT_DIGITS; ++d) ++counts[d * 256 + (uint)((b >> (8 * d)) & 0xFF)];
  }
  global uint* h = hist + (ulong)get_global_id(0) * ANYCL_SORT_DIGITS * 256;
  for (uint i = 0; i < ANYCL_SORT_DIGITS * 256; ++i) h[i] = counts[i];
}

// hist[g * 256 + v]: how many keys of chunk g have value v in the digit at `shift`.
kernel void anycl_sort_count(global const K* keys, ulong off, ulong n, ulong chunk, uint shift,
                             global uint* hist, ulong flip) {
  uint counts[256];
  for (uint i = 0; i < 256; ++i) counts[i] = 0;
  global const K* p = keys + off;
  ANYCL_SORT_FOR_CHUNK(k, n, chunk) { ++counts[anycl_sort_digit(p[k], shift, flip)]; }
  global uint* h = hist + (ulong)get_global_id(0) * 256;
  for (uint i = 0; i < 256; ++i) h[i] = counts[i];
}
#endif  // !ANYCL_SORT_VD

// Moves the keys (and values) of chunk g, in order, to dst at the offsets of their digit: all
// keys with a smaller digit, then those with this digit in earlier chunks. The counts of chunk c
// are hist[c * stride + first + v].
kernel void anycl_sort_scatter(global const K* src, ulong src_off, global K* dst, ulong dst_off,
#if defined(V) && !defined(ANYCL_SORT_IOTA)
                               global const V* vsrc, ulong vsrc_off,
#endif
#ifdef ANYCL_SORT_VD
                               global ANYCL_SORT_VD* vdst, ulong vdst_off,
#endif
                               ulong n, ulong chunk, uint shift, global const uint* hist,
                               ulong stride, ulong first, uint chunks, ulong flip) {
  const uint g = (uint)get_global_id(0);
  uint pos[256];
  uint total[256];
  for (uint v = 0; v < 256; ++v) pos[v] = total[v] = 0;
  for (uint c = 0; c < chunks; ++c) {
    global const uint* h = hist + c * stride + first;
    if (c < g) {
      for (uint v = 0; v < 256; ++v) {
        pos[v] += h[v];
        total[v] += h[v];
      }
    } else {
      for (uint v = 0; v < 256; ++v) total[v] += h[v];
    }
  }
  uint before = 0;
  for (uint v = 0; v < 256; ++v) {
    pos[v] += before;
    before += total[v];
  }
  global const K* s = src + src_off;
  global K* d = dst + dst_off;
#if defined(V) && !defined(ANYCL_SORT_IOTA)
  global const V* vs = vsrc + vsrc_off;
#endif
#ifdef ANYCL_SORT_VD
  vdst += vdst_off;
#endif
#ifdef ANYCL_CPU
  // Software write-combining: each digit's keys (and values) gather in a line-sized private
  // buffer and go out a line at a time, aligned to the destination's lines; single scattered
  // stores to 256 places per chunk spent most of their time waiting for memory.
  K kbuf[256 * ANYCL_SORT_W];
#ifdef ANYCL_SORT_VD
  ANYCL_SORT_VD vbuf[256 * ANYCL_SORT_W];
#endif
  uint begin[256];
  for (uint v = 0; v < 256; ++v) begin[v] = pos[v];
  ANYCL_SORT_FOR_CHUNK(k, n, chunk) {
    const K key = s[k];
    const uint v = anycl_sort_digit(key, shift, flip);
    const uint at = pos[v]++;
    const uint slot = at % ANYCL_SORT_W;
    kbuf[v * ANYCL_SORT_W + slot] = key;
#ifdef ANYCL_SORT_IOTA
    vbuf[v * ANYCL_SORT_W + slot] = (uint)k;
#elif defined(V)
    vbuf[v * ANYCL_SORT_W + slot] = vs[k];
#endif
    if (slot == ANYCL_SORT_W - 1) {
      const uint lo = at + 1 - ANYCL_SORT_W;
      if (lo >= begin[v]) {
        for (uint i = 0; i < ANYCL_SORT_W; ++i) d[lo + i] = kbuf[v * ANYCL_SORT_W + i];
#ifdef ANYCL_SORT_VD
        for (uint i = 0; i < ANYCL_SORT_W; ++i) vdst[lo + i] = vbuf[v * ANYCL_SORT_W + i];
#endif
      } else {
        for (uint i = begin[v]; i <= at; ++i) d[i] = kbuf[v * ANYCL_SORT_W + i % ANYCL_SORT_W];
#ifdef ANYCL_SORT_VD
        for (uint i = begin[v]; i <= at; ++i)
          vdst[i] = vbuf[v * ANYCL_SORT_W + i % ANYCL_SORT_W];
#endif
      }
    }
  }
  // What is left of each digit's last line.
  for (uint v = 0; v < 256; ++v) {
    const uint end = pos[v];
    if (end % ANYCL_SORT_W == 0 || end == begin[v]) continue;
    const uint lo = max(end - end % ANYCL_SORT_W, begin[v]);
    for (uint i = lo; i < end; ++i) d[i] = kbuf[v * ANYCL_SORT_W + i % ANYCL_SORT_W];
#ifdef ANYCL_SORT_VD
    for (uint i = lo; i < end; ++i) vdst[i] = vbuf[v * ANYCL_SORT_W + i % ANYCL_SORT_W];
#endif
  }
#else
  ANYCL_SORT_FOR_CHUNK(k, n, chunk) {
    const K key = s[k];
    const uint at = pos[anycl_sort_digit(key, shift, flip)]++;
    d[at] = key;
#ifdef ANYCL_SORT_IOTA
    vdst[at] = (uint)k;
#elif defined(V)
    vdst[at] = vs[k];
#endif
  }
#endif
}
