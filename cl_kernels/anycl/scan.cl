// SPDX-License-Identifier: Apache-2.0
// Prefix scans (reduce, then scan) over element type T (-DT=float etc.) with an associative
// operator: a built-in one chosen by -DANYCL_SCAN_BUILTIN=0..3 (plus, multiplies, min, max) or a
// custom one a generated source defines as ANYCL_SCAN_OP(a, b) and ANYCL_SCAN_IDENTITY before it
// includes this file. `a` is always the earlier part of the sequence, so the operator need not be
// commutative.
//
// The n elements are cut into streams of `sub` elements (the last one shorter); work-item g owns
// streams g * ANYCL_SCAN_STREAMS ... and walks them side by side, which keeps that many
// independent operator chains in flight (a single chain is bound by the operator's latency, not
// by memory). The host cuts large arrays into blocks that stay in the last-level cache between
// the two launches per block: totals of every stream, then each stream scanned from its offset.
#include "loop.h"

#ifndef T
#define T float
#endif

#ifndef ANYCL_SCAN_STREAMS
#define ANYCL_SCAN_STREAMS 8
#endif

#ifndef ANYCL_SCAN_OP
#if !defined(ANYCL_SCAN_BUILTIN) || ANYCL_SCAN_BUILTIN == 0
#define ANYCL_SCAN_OP(a, b) ((a) + (b))
#define ANYCL_SCAN_IDENTITY 0
#elif ANYCL_SCAN_BUILTIN == 1
#define ANYCL_SCAN_OP(a, b) ((a) * (b))
#define ANYCL_SCAN_IDENTITY 1
#elif ANYCL_SCAN_BUILTIN == 2
// The host defines ANYCL_SCAN_IDENTITY as T's largest value (INFINITY for floats).
#define ANYCL_SCAN_OP(a, b) ((b) < (a) ? (b) : (a))
#else
// The host defines ANYCL_SCAN_IDENTITY as T's lowest value (-INFINITY for floats).
#define ANYCL_SCAN_OP(a, b) ((a) < (b) ? (b) : (a))
#endif
#endif

#define ANYCL_SCAN_COMBINE(a, b) ((T)(ANYCL_SCAN_OP(a, b)))

// The operator on two T values, as a function so that its arguments are evaluated once and have
// type T even where the expression names them several times.
inline T anycl_scan_op(T a, T b) { return ANYCL_SCAN_COMBINE(a, b); }
inline T anycl_scan_identity(void) { return (T)(ANYCL_SCAN_IDENTITY); }

// totals[s] = the operator over stream s, for the streams of this work-item.
kernel void anycl_scan_reduce(global const T* in, ulong in_off, ulong n, ulong sub,
                              global T* totals) {
  const ulong first = (ulong)get_global_id(0) * ANYCL_SCAN_STREAMS;
  ulong start[ANYCL_SCAN_STREAMS], len[ANYCL_SCAN_STREAMS];
  T acc[ANYCL_SCAN_STREAMS];
  ulong common = sub;
#pragma unroll
  for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
    start[j] = min(n, (first + j) * sub);
    len[j] = min(n - start[j], sub);
    common = min(common, len[j]);
    acc[j] = anycl_scan_identity();
  }
  global const T* p = in + in_off;
  for (ulong i = 0; i < common; ++i) {
#pragma unroll
    for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) acc[j] = anycl_scan_op(acc[j], p[start[j] + i]);
  }
  const ulong streams = (n + sub - 1) / sub;
#pragma unroll
  for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
    for (ulong i = common; i < len[j]; ++i) acc[j] = anycl_scan_op(acc[j], p[start[j] + i]);
    if (first + j < streams) totals[first + j] = acc[j];
  }
}

// Scans every stream of this work-item from its offset: the carry into this block (`init` or the
// identity for block 0, else carries[block]) combined with the totals of the streams before it.
// The work-item holding the last stream stores the carry out of the block in carries[block + 1].
// `exclusive` writes the value before each element is combined in. In place (out == in) is fine:
// each element is read before it is written, by the same work-item.
kernel void anycl_scan_apply(global const T* in, ulong in_off, global T* out, ulong out_off,
                             ulong n, ulong sub, global const T* totals, global T* carries,
                             ulong block, T init, int exclusive) {
  const ulong first = (ulong)get_global_id(0) * ANYCL_SCAN_STREAMS;
  const ulong streams = (n + sub - 1) / sub;
  if (first >= streams) return;
  T c = block ? carries[block] : exclusive ? init : anycl_scan_identity();
  for (ulong s = 0; s < first; ++s) c = anycl_scan_op(c, totals[s]);
  ulong start[ANYCL_SCAN_STREAMS], len[ANYCL_SCAN_STREAMS];
  T acc[ANYCL_SCAN_STREAMS];
  ulong common = sub;
#pragma unroll
  for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
    start[j] = min(n, (first + j) * sub);
    len[j] = min(n - start[j], sub);
    common = min(common, len[j]);
    acc[j] = c;
    if (first + j < streams) c = anycl_scan_op(c, totals[first + j]);
  }
  if (first + ANYCL_SCAN_STREAMS >= streams) carries[block + 1] = c;
  global const T* p = in + in_off;
  global T* q = out + out_off;
  if (exclusive) {
    for (ulong i = 0; i < common; ++i) {
#pragma unroll
      for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
        const T x = p[start[j] + i];
        q[start[j] + i] = acc[j];
        acc[j] = anycl_scan_op(acc[j], x);
      }
    }
#pragma unroll
    for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
      for (ulong i = common; i < len[j]; ++i) {
        const T x = p[start[j] + i];
        q[start[j] + i] = acc[j];
        acc[j] = anycl_scan_op(acc[j], x);
      }
    }
  } else {
    for (ulong i = 0; i < common; ++i) {
#pragma unroll
      for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
        acc[j] = anycl_scan_op(acc[j], p[start[j] + i]);
        q[start[j] + i] = acc[j];
      }
    }
#pragma unroll
    for (int j = 0; j < ANYCL_SCAN_STREAMS; ++j) {
      for (ulong i = common; i < len[j]; ++i) {
        acc[j] = anycl_scan_op(acc[j], p[start[j] + i]);
        q[start[j] + i] = acc[j];
      }
    }
  }
}
