// SPDX-License-Identifier: Apache-2.0
// Histograms (bincount, histogram): part p of P counts the bins of elements [p * chunk,
// (p + 1) * chunk) into its own row of `part` (P rows of `bins` uints), with no atomics; the
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
      ++row[anycl_i];                                                              \
    }                                                                              \
  } while (0)
#else
// Counts value i into bin i; values outside [0, bins) are skipped.
#define ANYCL_COUNT(row, k)                                        \
  do {                                                             \
    const long anycl_i = (long)(ANYCL_EXPR_AT(k));                 \
    if (anycl_i >= 0 && anycl_i <= anycl_last) ++row[anycl_i];     \
  } while (0)
#endif

kernel void anycl_histogram_part(ulong anycl_n, ulong anycl_chunk, ulong anycl_parts,
                                 ulong anycl_bins, global uint* anycl_part,
                                 global const T* anycl_edges, T anycl_inv, ANYCL_EXPR_PARAMS) {
  const ulong anycl_p = get_global_id(0);
  if (anycl_p >= anycl_parts) return;
  const long anycl_last = (long)anycl_bins - 1;
#ifdef ANYCL_HISTOGRAM_EDGES
  const T anycl_lo = anycl_edges[0], anycl_hi = anycl_edges[anycl_bins];
  T anycl_top = (T)anycl_last;
  if ((long)anycl_top > anycl_last) anycl_top = nextafter(anycl_top, (T)0);
#else
  (void)anycl_edges;
  (void)anycl_inv;
#endif
  global uint* anycl_row = anycl_part + anycl_p * anycl_bins;
  for (ulong anycl_b = 0; anycl_b < anycl_bins; ++anycl_b) anycl_row[anycl_b] = 0;
  const ulong anycl_begin = min(anycl_n, anycl_p * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  // Unrolled: the loop is most of a histogram's time (docs/5-arrays-and-algorithms.md).
#pragma unroll 8
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k)
    ANYCL_COUNT(anycl_row, anycl_k);
}

// out[b] = the sum over the parts of part[p * bins + b].
kernel void anycl_histogram_sum(global const uint* part, ulong parts, ulong bins,
                                global ulong* out, ulong chunk) {
  ANYCL_FOR_EACH(b, bins, chunk) {
    ulong c = 0;
    for (ulong p = 0; p < parts; ++p) c += part[p * bins + b];
    out[b] = c;
  }
}
