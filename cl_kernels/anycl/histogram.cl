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
// The bin of x: a first guess from the even spacing, then moved to the exact edges (the guess
// may be off by one where rounding meets an edge); -1 outside [edges[0], edges[bins]] or NaN.
inline long anycl_bin(T x, global const T* edges, ulong bins, T inv) {
  if (!(x >= edges[0] && x <= edges[bins])) return -1;
  long i = (long)((x - edges[0]) * inv);
  const long last = (long)bins - 1;
  i = i < 0 ? 0 : (i > last ? last : i);
  while (i > 0 && x < edges[i]) --i;
  while (i < last && x >= edges[i + 1]) ++i;
  return i;
}
#define ANYCL_BIN(k) anycl_bin(ANYCL_EXPR_AT(k), anycl_edges, anycl_bins, anycl_inv)
#else
#define ANYCL_BIN(k) ((long)(ANYCL_EXPR_AT(k)))
#endif

kernel void anycl_histogram_part(ulong anycl_n, ulong anycl_chunk, ulong anycl_parts,
                                 ulong anycl_bins, global uint* anycl_part,
                                 global const T* anycl_edges, T anycl_inv, ANYCL_EXPR_PARAMS) {
  (void)anycl_edges;
  (void)anycl_inv;
  const ulong anycl_p = get_global_id(0);
  if (anycl_p >= anycl_parts) return;
  global uint* anycl_row = anycl_part + anycl_p * anycl_bins;
  for (ulong anycl_b = 0; anycl_b < anycl_bins; ++anycl_b) anycl_row[anycl_b] = 0;
  const ulong anycl_begin = min(anycl_n, anycl_p * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k) {
    const long anycl_i = ANYCL_BIN(anycl_k);
    if (anycl_i >= 0 && (ulong)anycl_i < anycl_bins) ++anycl_row[anycl_i];
  }
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
