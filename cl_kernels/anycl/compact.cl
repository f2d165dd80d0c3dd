// SPDX-License-Identifier: Apache-2.0
// Stream compaction (compress, flatnonzero): the elements, or the flat indices, where a mask is
// non-zero, in order. Included by generated source that first defines the mask as an expression:
// ANYCL_EXPR_PARAMS (its parameters) and ANYCL_EXPR_AT(k) (its value at row-major element k);
// without them the mask is an array of T.
// Options: -DT=<element type of the values>, -DANYCL_COMPACT_INDEX to write the indices k (as
// ulong) instead of values. Work-item g of G handles elements [g * chunk, (g + 1) * chunk): the
// first kernel counts its selected elements, the host turns the counts into offsets, the second
// writes them from its offset on, so the order is kept.
#include "loop.h"

#ifndef T
#define T float
#endif
// Without generated source: the mask is an array of T.
#ifndef ANYCL_EXPR_PARAMS
#define ANYCL_EXPR_PARAMS global const T *anycl_mask, ulong anycl_mask_off
#define ANYCL_EXPR_AT(k) anycl_mask[anycl_mask_off + (k)]
#endif

kernel void anycl_compact_count(ulong anycl_n, ulong anycl_chunk, global ulong* anycl_counts,
                                ANYCL_EXPR_PARAMS) {
  const ulong anycl_g = get_global_id(0);
  const ulong anycl_begin = min(anycl_n, anycl_g * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ulong anycl_c = 0;
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k)
    anycl_c += ANYCL_EXPR_AT(anycl_k) != 0 ? 1 : 0;
  anycl_counts[anycl_g] = anycl_c;
}

#ifdef ANYCL_COMPACT_INDEX
kernel void anycl_compact_write(ulong anycl_n, ulong anycl_chunk,
                                global const ulong* anycl_offsets, global ulong* anycl_out,
                                ANYCL_EXPR_PARAMS) {
#else
kernel void anycl_compact_write(ulong anycl_n, ulong anycl_chunk,
                                global const ulong* anycl_offsets, global T* anycl_out,
                                global const T* anycl_a, ulong anycl_a_off, ANYCL_EXPR_PARAMS) {
#endif
  const ulong anycl_g = get_global_id(0);
  const ulong anycl_begin = min(anycl_n, anycl_g * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ulong anycl_o = anycl_offsets[anycl_g];
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k) {
    if (ANYCL_EXPR_AT(anycl_k) == 0) continue;
#ifdef ANYCL_COMPACT_INDEX
    anycl_out[anycl_o++] = anycl_k;
#else
    anycl_out[anycl_o++] = anycl_a[anycl_a_off + anycl_k];
#endif
  }
}
