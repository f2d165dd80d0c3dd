// SPDX-License-Identifier: Apache-2.0
// Stream compaction (compress, flatnonzero): the elements, or the flat indices, where a mask is
// non-zero, in order. Included by generated source that first defines the mask as an expression:
// ANYCL_EXPR_PARAMS (its parameters) and ANYCL_EXPR_AT(k) (its value at row-major element k);
// without them the mask is an array of T.
// Options: -DT=<element type of the values>, -DANYCL_COMPACT_INDEX to write the indices k (as
// ulong) instead of values. Part g of G handles elements [g * chunk, (g + 1) * chunk): the first
// kernel counts its selected elements, the host turns the counts into offsets, the second writes
// them from its offset on, so the order is kept. On a CPU (-DANYCL_CPU) a part is a work-item;
// elsewhere a work-group, whose work-items read neighbouring elements and place theirs by a scan
// in __local memory, `local` work-items at a time.
#include "loop.h"

#ifndef T
#define T float
#endif
// Without generated source: the mask is an array of T.
#ifndef ANYCL_EXPR_PARAMS
#define ANYCL_EXPR_PARAMS global const T *anycl_mask, ulong anycl_mask_off
#define ANYCL_EXPR_AT(k) anycl_mask[anycl_mask_off + (k)]
#endif

#ifdef ANYCL_COMPACT_INDEX
#define ANYCL_COMPACT_OUT global ulong* anycl_out
#define ANYCL_COMPACT_VALUE(k) (k)
#else
#define ANYCL_COMPACT_OUT global T *anycl_out, global const T *anycl_a, ulong anycl_a_off
#define ANYCL_COMPACT_VALUE(k) anycl_a[anycl_a_off + (k)]
#endif

#ifdef ANYCL_CPU
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

kernel void anycl_compact_write(ulong anycl_n, ulong anycl_chunk,
                                global const ulong* anycl_offsets, ANYCL_COMPACT_OUT,
                                ANYCL_EXPR_PARAMS) {
  const ulong anycl_g = get_global_id(0);
  const ulong anycl_begin = min(anycl_n, anycl_g * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ulong anycl_o = anycl_offsets[anycl_g];
  for (ulong anycl_k = anycl_begin; anycl_k < anycl_end; ++anycl_k) {
    if (ANYCL_EXPR_AT(anycl_k) != 0) anycl_out[anycl_o++] = ANYCL_COMPACT_VALUE(anycl_k);
  }
}

#else
// Work-group g's selected count; `scratch` holds a ulong per work-item.
kernel void anycl_compact_count(ulong anycl_n, ulong anycl_chunk, global ulong* anycl_counts,
                                local ulong* anycl_scratch, ANYCL_EXPR_PARAMS) {
  const ulong anycl_lid = get_local_id(0), anycl_l = get_local_size(0);
  const ulong anycl_begin = min(anycl_n, get_group_id(0) * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ulong anycl_c = 0;
  for (ulong anycl_k = anycl_begin + anycl_lid; anycl_k < anycl_end; anycl_k += anycl_l)
    anycl_c += ANYCL_EXPR_AT(anycl_k) != 0 ? 1 : 0;
  anycl_scratch[anycl_lid] = anycl_c;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (anycl_lid == 0) {
    ulong anycl_sum = 0;
    for (ulong anycl_i = 0; anycl_i < anycl_l; ++anycl_i) anycl_sum += anycl_scratch[anycl_i];
    anycl_counts[get_group_id(0)] = anycl_sum;
  }
}

// Work-group g writes its selection from offsets[g] on, `local` elements a round: each
// work-item's flag, their inclusive scan in `scratch` (a uint per work-item), its place.
kernel void anycl_compact_write(ulong anycl_n, ulong anycl_chunk,
                                global const ulong* anycl_offsets, ANYCL_COMPACT_OUT,
                                local uint* anycl_scratch, ANYCL_EXPR_PARAMS) {
  const ulong anycl_lid = get_local_id(0), anycl_l = get_local_size(0);
  const ulong anycl_begin = min(anycl_n, get_group_id(0) * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ulong anycl_o = anycl_offsets[get_group_id(0)];
  for (ulong anycl_base = anycl_begin; anycl_base < anycl_end; anycl_base += anycl_l) {
    const ulong anycl_k = anycl_base + anycl_lid;
    const uint anycl_f = anycl_k < anycl_end && ANYCL_EXPR_AT(anycl_k) != 0 ? 1 : 0;
    anycl_scratch[anycl_lid] = anycl_f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong anycl_d = 1; anycl_d < anycl_l; anycl_d <<= 1) {
      const uint anycl_v = anycl_lid >= anycl_d ? anycl_scratch[anycl_lid - anycl_d] : 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      anycl_scratch[anycl_lid] += anycl_v;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (anycl_f) anycl_out[anycl_o + anycl_scratch[anycl_lid] - 1] = ANYCL_COMPACT_VALUE(anycl_k);
    anycl_o += anycl_scratch[anycl_l - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif
