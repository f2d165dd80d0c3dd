// SPDX-License-Identifier: Apache-2.0
// argmin and argmax of arrays of T, or of an expression's values: the row-major index of the
// smallest or largest value, the first one on ties. A NaN (floating T) counts as both the
// smallest and the largest, so the first NaN's index is the result where there is one, as numpy's.
//   anycl_argmin_partial, anycl_argmax_partial (the host combines the partials)
// Options: -DT=<element type>, -DANYCL_LOWEST/-DANYCL_HIGHEST for integer T (as reduce.cl),
// -DANYCL_STRIDED or -DANYCL_EXPR (reduce_access.h), -DANYCL_REDUCE_GROUPED (the GPU shape), and
// -DANYCL_ARG_OP=0 (argmin) or 1 (argmax) for one kernel a program.
#include "loop.h"
#include "reduce.h"

#define ANYCL_NO_FINAL

#ifndef T
#define T float
#endif

#include "reduce_access.h"

// A candidate: a value and its index. 16 bytes for every T (the host reads v at 0, i at 8).
typedef struct {
  T v;
  ulong i;
} anycl_arg;

inline anycl_arg anycl_arg_at(T v, ulong i) {
  anycl_arg a;
  a.v = v;
  a.i = i;
  return a;
}

// Whether `a` wins over `b`: a NaN first, then the larger (largest) or smaller value, then the
// smaller index. A total order, so combining candidates in any grouping gives the same result.
inline bool anycl_arg_wins(anycl_arg a, anycl_arg b, bool largest) {
#ifndef ANYCL_HIGHEST
  if (isnan(a.v) || isnan(b.v)) return isnan(a.v) && (!isnan(b.v) || a.i < b.i);
#endif
  if (a.v != b.v) return largest ? a.v > b.v : a.v < b.v;
  return a.i < b.i;
}

inline anycl_arg anycl_argmin_op(anycl_arg a, anycl_arg b) {
  return anycl_arg_wins(b, a, false) ? b : a;
}
inline anycl_arg anycl_argmax_op(anycl_arg a, anycl_arg b) {
  return anycl_arg_wins(b, a, true) ? b : a;
}

// Neutral candidates lose to every element: the worst value at the last index.
#ifdef ANYCL_HIGHEST
#define ANYCL_ARG_MIN_NEUTRAL anycl_arg_at((T)ANYCL_HIGHEST, ULONG_MAX)
#define ANYCL_ARG_MAX_NEUTRAL anycl_arg_at((T)ANYCL_LOWEST, ULONG_MAX)
#else
#define ANYCL_ARG_MIN_NEUTRAL anycl_arg_at((T)INFINITY, ULONG_MAX)
#define ANYCL_ARG_MAX_NEUTRAL anycl_arg_at((T)(-INFINITY), ULONG_MAX)
#endif

#if !defined(ANYCL_ARG_OP) || ANYCL_ARG_OP == 0
#define ANYCL_R_KERNEL(s) anycl_argmin_##s
#define ANYCL_R_ACC anycl_arg
#define ANYCL_R_OP(a, b) anycl_argmin_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_ARG_MIN_NEUTRAL
#define ANYCL_R_MAP(i) anycl_arg_at(ANYCL_X(i), (i))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#if !defined(ANYCL_ARG_OP) || ANYCL_ARG_OP == 1
#define ANYCL_R_KERNEL(s) anycl_argmax_##s
#define ANYCL_R_ACC anycl_arg
#define ANYCL_R_OP(a, b) anycl_argmax_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_ARG_MAX_NEUTRAL
#define ANYCL_R_MAP(i) anycl_arg_at(ANYCL_X(i), (i))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif
