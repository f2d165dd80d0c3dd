// SPDX-License-Identifier: Apache-2.0
// Array basics for element type T (built with -DT=float etc.): strided copy, strided fill, iota.
#include "loop.h"

#ifndef T
#define T float
#endif

// dst[k] = src[k] over row-major elements, each side with its own offset and strides.
kernel void anycl_copy_strided(global const T* src, ulong src_off, ulong4 src_st,
                               global T* dst, ulong dst_off, ulong4 dst_st, ulong4 ext,
                               ulong n, ulong chunk) {
  ANYCL_FOR_EACH(k, n, chunk) {
    dst[anycl_strided_index(k, ext, dst_st, dst_off)] =
        src[anycl_strided_index(k, ext, src_st, src_off)];
  }
}

// Every element of a strided view set to `value`.
kernel void anycl_fill_strided(global T* dst, ulong off, ulong4 st, ulong4 ext, ulong n,
                               ulong chunk, T value) {
  ANYCL_FOR_EACH(k, n, chunk) { dst[anycl_strided_index(k, ext, st, off)] = value; }
}

// dst[off + k] = start + k * step.
kernel void anycl_iota(global T* dst, ulong off, ulong n, ulong chunk, T start, T step) {
  ANYCL_FOR_EACH(k, n, chunk) { dst[off + k] = (T)(start + (T)k * step); }
}
