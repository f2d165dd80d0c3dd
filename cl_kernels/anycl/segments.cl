// SPDX-License-Identifier: Apache-2.0
// Segmented reductions (reduce_by_key): out[j] reduces the values of segment j, the elements
// [starts[j], starts[j + 1]) (the last one to n) of v. A segment a work-item, in order: sums of
// floating values compensated (TwoSum, as reduce.cl's), of integers in 64 bits; min and max as
// fmin and fmax (NaNs ignored) for floating values. Integer results are 64-bit (OUT).
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

kernel void anycl_reduce_segments(global const T* v, ulong v_off, global const ulong* starts,
                                  ulong starts_off, ulong segments, ulong n, global OUT* out,
                                  ulong chunk) {
  starts += starts_off;
  ANYCL_FOR_EACH(j, segments, chunk) {
    const ulong b = starts[j], e = j + 1 < segments ? starts[j + 1] : n;
#if ANYCL_SEGMENT_OP == 0 && defined(ANYCL_FLOATING)
    T s = 0, c = 0;
    for (ulong i = b; i < e; ++i) {
      const T x = v[v_off + i];
      const T t = s + x;
      const T bb = t - s;
      c += (s - (t - bb)) + (x - bb);
      s = t;
    }
    out[j] = s + c;
#elif ANYCL_SEGMENT_OP == 0
    OUT s = 0;
    for (ulong i = b; i < e; ++i) s += (OUT)v[v_off + i];
    out[j] = s;
#else
    T a = v[v_off + b];
    for (ulong i = b + 1; i < e; ++i) {
#if defined(ANYCL_FLOATING) && ANYCL_SEGMENT_OP == 1
      a = fmin(a, v[v_off + i]);
#elif defined(ANYCL_FLOATING)
      a = fmax(a, v[v_off + i]);
#elif ANYCL_SEGMENT_OP == 1
      a = min(a, v[v_off + i]);
#else
      a = max(a, v[v_off + i]);
#endif
    }
    out[j] = (OUT)a;
#endif
  }
}
