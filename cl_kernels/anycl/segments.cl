// SPDX-License-Identifier: Apache-2.0
// Segmented reductions (reduce_by_key): out[j] reduces the values of segment j, the elements
// [starts[j], starts[j + 1]) (the last one to n) of v: a segment a work-item, in order, or (GPU
// shape, segments of 64 elements or more on average) a segment a work-group. Sums of floating
// values compensated (TwoSum, as reduce.cl's), of integers in 64 bits; min and max as fmin and
// fmax (NaNs ignored) for floating values. Integer results are 64-bit (OUT).
// Options: -DT=<value type> -DOUT=<result type> -DANYCL_SEGMENT_OP=0 (sum), 1 (min) or 2 (max),
// -DANYCL_FLOATING for floating T.
#include "loop.h"

#ifndef T
#define T float
#endif
#ifndef OUT
#define OUT T
#endif
#ifndef ANYCL_SEGMENT_OP
#define ANYCL_SEGMENT_OP 0
#endif

// min or max of two values (floating ones ignore NaNs).
#if defined(ANYCL_FLOATING) && ANYCL_SEGMENT_OP == 1
#define ANYCL_SEGMENT_PICK(a, b) fmin(a, b)
#elif defined(ANYCL_FLOATING)
#define ANYCL_SEGMENT_PICK(a, b) fmax(a, b)
#elif ANYCL_SEGMENT_OP == 1
#define ANYCL_SEGMENT_PICK(a, b) min(a, b)
#else
#define ANYCL_SEGMENT_PICK(a, b) max(a, b)
#endif

#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
// s + x into the compensated pair (s, c).
#define ANYCL_TWO_SUM(s, c, x)            \
  do {                                    \
    const T anycl_x = (x);                \
    const T anycl_t = s + anycl_x;        \
    const T anycl_b = anycl_t - s;        \
    c += (s - (anycl_t - anycl_b)) + (anycl_x - anycl_b); \
    s = anycl_t;                          \
  } while (0)
#endif

kernel void anycl_reduce_segments(global const T* v, ulong v_off, global const ulong* starts,
                                  ulong starts_off, ulong segments, ulong n, global OUT* out,
                                  ulong chunk) {
  starts += starts_off;
  ANYCL_FOR_EACH(j, segments, chunk) {
    const ulong b = starts[j], e = j + 1 < segments ? starts[j + 1] : n;
#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
    T s = 0, c = 0;
    for (ulong i = b; i < e; ++i) ANYCL_TWO_SUM(s, c, v[v_off + i]);
    out[j] = s + c;
#elif ANYCL_SEGMENT_OP == 0
    OUT s = 0;
    for (ulong i = b; i < e; ++i) s += (OUT)v[v_off + i];
    out[j] = s;
#else
    T a = v[v_off + b];
    for (ulong i = b + 1; i < e; ++i) a = ANYCL_SEGMENT_PICK(a, v[v_off + i]);
    out[j] = (OUT)a;
#endif
  }
}

#ifndef ANYCL_CPU
// The GPU shape for long segments: work-group j reduces segment j, its work-items taking
// neighbouring elements, then a tree over `scratch` (two OUTs per work-item; the work-group size
// a power of two) combines theirs. Min and max start every work-item at the segment's first
// element, so one with no elements changes nothing.
kernel void anycl_reduce_segments_group(global const T* v, ulong v_off,
                                        global const ulong* starts, ulong starts_off,
                                        ulong segments, ulong n, global OUT* out,
                                        local OUT* scratch) {
  starts += starts_off;
  v += v_off;
  const ulong j = get_group_id(0), lid = get_local_id(0), l = get_local_size(0);
  const ulong b = starts[j], e = j + 1 < segments ? starts[j + 1] : n;
  local OUT* comp = scratch + l;
#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
  T s = 0, c = 0;
  for (ulong i = b + lid; i < e; i += l) ANYCL_TWO_SUM(s, c, v[i]);
  comp[lid] = c;
#elif ANYCL_SEGMENT_OP == 0
  OUT s = 0;
  for (ulong i = b + lid; i < e; i += l) s += (OUT)v[i];
#else
  T s = v[b];
  for (ulong i = b + lid; i < e; i += l) s = ANYCL_SEGMENT_PICK(s, v[i]);
#endif
  scratch[lid] = (OUT)s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (ulong d = l / 2; d > 0; d >>= 1) {
    if (lid < d) {
#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
      T hs = scratch[lid], hc = comp[lid] + comp[lid + d];
      ANYCL_TWO_SUM(hs, hc, scratch[lid + d]);
      scratch[lid] = hs;
      comp[lid] = hc;
#elif ANYCL_SEGMENT_OP == 0
      scratch[lid] += scratch[lid + d];
#else
      scratch[lid] = (OUT)ANYCL_SEGMENT_PICK((T)scratch[lid], (T)scratch[lid + d]);
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
  if (lid == 0) out[j] = scratch[0] + comp[0];
#else
  if (lid == 0) out[j] = scratch[0];
#endif
}
#endif
