// SPDX-License-Identifier: Apache-2.0
// The element loop every AnyCL array kernel uses, shaped per device type by the host
// (detail::plan_launch): built with -DANYCL_CPU=1 each work-item walks a contiguous chunk of
// `chunk` elements (what a CPU's cores and vector units want); otherwise work-items take
// neighbouring elements in a grid-stride loop (coalesced on a GPU).
#pragma once

#ifdef ANYCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#include "anycl/complex.h"

#ifdef ANYCL_CPU
#define ANYCL_FOR_EACH(k, n, chunk)                                                     \
  for (ulong k = (ulong)get_global_id(0) * (chunk), k##_end = min((ulong)(n), k + (chunk)); \
       k < k##_end; ++k)
#else
#define ANYCL_FOR_EACH(k, n, chunk) \
  for (ulong k = get_global_id(0); k < (ulong)(n); k += get_global_size(0))
#endif

// x rounded to the nearest half (ties to even) and widened back: cast<half> in an expression. A
// private ushort holds the half, since a half variable needs cl_khr_fp16.
inline float anycl_half_f(float x) {
  ushort h;
  vstore_half_rte(x, 0, (private half*)&h);
  return vload_half(0, (private const half*)&h);
}
#ifdef ANYCL_FP64
// The same from a double, rounded once (not through float).
inline float anycl_half_d(double x) {
  ushort h;
  vstore_half_rte(x, 0, (private half*)&h);
  return vload_half(0, (private const half*)&h);
}
#endif

// The offset in elements of row-major element k of an array with 4-D extents `ext` (leading
// extents 1 for fewer dimensions) and strides `st`, starting at `off`.
inline ulong anycl_strided_index(ulong k, ulong4 ext, ulong4 st, ulong off) {
  const ulong i3 = k % ext.w;
  k /= ext.w;
  const ulong i2 = k % ext.z;
  k /= ext.z;
  const ulong i1 = k % ext.y;
  const ulong i0 = k / ext.y;
  return off + i0 * st.x + i1 * st.y + i2 * st.z + i3 * st.w;
}

// The same for up to 8 dimensions (leading extents 1).
inline ulong anycl_strided_index8(ulong k, ulong8 ext, ulong8 st, ulong off) {
  const ulong e[8] = {ext.s0, ext.s1, ext.s2, ext.s3, ext.s4, ext.s5, ext.s6, ext.s7};
  const ulong s[8] = {st.s0, st.s1, st.s2, st.s3, st.s4, st.s5, st.s6, st.s7};
  for (int i = 7; i > 0; --i) {
    off += (k % e[i]) * s[i];
    k /= e[i];
  }
  return off + k * s[0];
}
