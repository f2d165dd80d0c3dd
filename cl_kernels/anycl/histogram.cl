// SPDX-License-Identifier: Apache-2.0
// Histograms (bincount, histogram): part p of P counts the bins of elements [p * chunk,
// (p + 1) * chunk) into its own row of `part` (P rows of `bins` uints): on a CPU (-DANYCL_CPU)
// one work-item a part with plain increments, elsewhere one work-group a part with atomics; the
// second kernel adds each bin's column into a ulong count. Included by generated source that
// first defines ANYCL_EXPR_PARAMS and ANYCL_EXPR_AT(k), the value of element k (of type T);
// without them the values are an array of T.
// Options: -DT=<value type>; -DANYCL_HISTOGRAM_EDGES for histogram: value x goes to bin i with
// edges[i] <= x < edges[i + 1] (the last bin also takes edges[bins]; values outside, and NaN,
// are skipped); without it the bin is the value itself (bincount; outside [0, bins) skipped).
#include "loop.h"

#ifndef T
#define T int
#endif
#ifndef ANYCL_EXPR_PARAMS
#define ANYCL_EXPR_PARAMS global const T *anycl_x, ulong anycl_x_off
#define ANYCL_EXPR_AT(k) anycl_x[anycl_x_off + (k)]
#endif

#ifdef ANYCL_HISTOGRAM_EDGES
// Counts x into its bin of `row`: edges[i] <= x < edges[i + 1] (the last bin also takes
// edges[bins]); x outside [lo, hi] = [edges[0], edges[bins]], or NaN, is skipped. A first guess
// from the even spacing, then moved to the exact edges (the guess may be off by one where
// rounding meets an edge). The guess is in [0, top], top the last bin as a T (rounded down):
// fmin also turns a NaN guess (0 * inf, where inv overflowed) into top. x >= edges[0] ends the
// downward search.
#define ANYCL_COUNT(row, k)                                                        \
  do {                                                                             \
    const T anycl_v = ANYCL_EXPR_AT(k);                                            \
    if (anycl_v >= anycl_lo && anycl_v <= anycl_hi) {                              \
      long anycl_i = (long)fmin((anycl_v - anycl_lo) * anycl_inv, anycl_top);      \
      while (anycl_v < anycl_edges[anycl_i]) --anycl_i;                            \
      while (anycl_i < anycl_last && anycl_v >= anycl_edges[anycl_i + 1]) ++anycl_i; \
      ANYCL_INC(row + anycl_i);                                                    \
    }                                                                              \
  } while (0)
#else
// Counts value i into bin i; values outside [0, bins) are skipped.
#define ANYCL_COUNT(row, k)                                        \
  do {                                                             \
    const long anycl_i = (long)(ANYCL_EXPR_AT(k));                 \
    if (anycl_i >= 0 && anycl_i <= anycl_last) ANYCL_INC(row + anycl_i); \
  } while (0)
#endif

// The range and the guess's top, per work-item.
#ifdef ANYCL_HISTOGRAM_EDGES
#define ANYCL_HISTOGRAM_SETUP                                                 \
  const long anycl_last = (long)anycl_bins - 1;                               \
  const T anycl_lo = anycl_edges[0], anycl_hi = anycl_edges[anycl_bins];      \
  T anycl_top = (T)anycl_last;                                                \
  if ((long)anycl_top > anycl_last) anycl_top = nextafter(anycl_top, (T)0)
#else
#define ANYCL_HISTOGRAM_SETUP                   \
  const long anycl_last = (long)anycl_bins - 1; \
  (void)anycl_edges;                            \
  (void)anycl_inv
#endif

#ifdef ANYCL_CPU
// The CPU shape: one work-item per part, counting into its row with plain increments.
#define ANYCL_INC(p) (++*(p))
kernel void anycl_histogram_part(ulong anycl_n, ulong anycl_chunk, ulong anycl_parts,
                                 ulong anycl_bins, global uint* anycl_part,
                                 global const T* anycl_edges, T anycl_inv, ANYCL_EXPR_PARAMS) {
  const ulong anycl_p = get_global_id(0);
  if (anycl_p >= anycl_parts) return;
  ANYCL_HISTOGRAM_SETUP;
  global uint* anycl_row = anycl_part + anycl_p * anycl_bins;
  for (ulong anycl_b = 0; anycl_b < anycl_bins; ++anycl_b) anycl_row[anycl_b] = 0;
  const ulong anycl_begin = min(anycl_n, anycl_p * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  // Unrolled: the loop is most of a histogram's time (docs/5-arrays-and-algorithms.md).
#pragma unroll 8
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k)
    ANYCL_COUNT(anycl_row, anycl_k);
}

#undef ANYCL_INC

#else
// The GPU shape: work-group g of G (parts) counts elements [g * chunk, (g + 1) * chunk), its
// work-items reading neighbouring elements, with atomics into a row of __local memory (`local`,
// bins uints) that it then copies to row g; with use_local 0 (too many bins for __local memory)
// it counts into row g itself with global atomics. Rows of other groups are never touched.
#define ANYCL_INC(p) atomic_inc(p)
kernel void anycl_histogram_group(uint anycl_use_local, local uint* anycl_local, ulong anycl_n,
                                  ulong anycl_chunk, ulong anycl_parts, ulong anycl_bins,
                                  global uint* anycl_part, global const T* anycl_edges,
                                  T anycl_inv, ANYCL_EXPR_PARAMS) {
  (void)anycl_parts;
  ANYCL_HISTOGRAM_SETUP;
  const ulong anycl_lid = get_local_id(0), anycl_l = get_local_size(0);
  global uint* anycl_row = anycl_part + get_group_id(0) * anycl_bins;
  const ulong anycl_begin = min(anycl_n, get_group_id(0) * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  if (anycl_use_local) {
    for (ulong anycl_b = anycl_lid; anycl_b < anycl_bins; anycl_b += anycl_l)
      anycl_local[anycl_b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong anycl_k = anycl_begin + anycl_lid; anycl_k < anycl_end; anycl_k += anycl_l)
      ANYCL_COUNT(anycl_local, anycl_k);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong anycl_b = anycl_lid; anycl_b < anycl_bins; anycl_b += anycl_l)
      anycl_row[anycl_b] = anycl_local[anycl_b];
  } else {
    for (ulong anycl_b = anycl_lid; anycl_b < anycl_bins; anycl_b += anycl_l)
      anycl_row[anycl_b] = 0;
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (ulong anycl_k = anycl_begin + anycl_lid; anycl_k < anycl_end; anycl_k += anycl_l)
      ANYCL_COUNT(anycl_row, anycl_k);
  }
}
#undef ANYCL_INC
#endif

// out[b] = the sum over the parts of part[p * bins + b].
kernel void anycl_histogram_sum(global const uint* part, ulong parts, ulong bins,
                                global ulong* out, ulong chunk) {
  ANYCL_FOR_EACH(b, bins, chunk) {
    ulong c = 0;
    for (ulong p = 0; p < parts; ++p) c += part[p * bins + b];
    out[b] = c;
  }
}
