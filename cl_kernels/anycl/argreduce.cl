// SPDX-License-Identifier: Apache-2.0
// argmin and argmax of arrays of T, or of an expression's values: the row-major index of the
// smallest or largest value, the first one on ties. A NaN (floating T) counts as both the
// smallest and the largest, so the first NaN's index is the result where there is one, as numpy's.
//   anycl_argmin_partial, anycl_argmax_partial (the host combines the partials), and with
//   -DANYCL_EXPR -DANYCL_ONLY_AXIS anycl_arg{min,max}_{axis,axis_final}: the index along an axis
//   of each line of an expression's values (reduce_engine.h)
// Options: -DT=<element type>, -DANYCL_LOWEST/-DANYCL_HIGHEST for integer T (as reduce.cl),
// -DANYCL_STRIDED or -DANYCL_EXPR (reduce_access.h), -DANYCL_REDUCE_GROUPED (the GPU shape), and
// -DANYCL_ARG_OP=0 (argmin) or 1 (argmax) for one kernel a program, and -DANYCL_MASK16=<the
// signed integer vector of 16 lanes of T's size> (int16 for float) for the vectorised CPU shape.
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

#if !defined(ANYCL_REDUCE_GROUPED) && !defined(ANYCL_STRIDED) && defined(ANYCL_MASK16) && \
    !defined(ANYCL_ONLY_AXIS)
// The CPU shape, explicitly vectorised: each work-item keeps the best of 16 lanes over its
// contiguous chunk (a later element replaces a lane's only when strictly better, so each lane
// keeps its first), then combines the lanes in the total order above. Compilers do not vectorise
// the (value, index) form by themselves.
#ifdef __clang__
// Its 16-lane builtins (vload16, select, isnan) log clang's -Wpsabi note on CPUs without AVX-512:
// a warning about calls between objects built for other targets, which a kernel's builtins are
// not, so it is turned off here rather than the lanes narrowed.
#pragma clang diagnostic ignored "-Wpsabi"
#endif
#define ANYCL_CAT_(a, b) a##b
#define ANYCL_CAT(a, b) ANYCL_CAT_(a, b)
#define T16 ANYCL_CAT(T, 16)
#ifdef ANYCL_EXPR
#define ANYCL_ARG16(i)                                                                            \
  ((T16)(ANYCL_X((i)), ANYCL_X((i) + 1), ANYCL_X((i) + 2), ANYCL_X((i) + 3), ANYCL_X((i) + 4),   \
         ANYCL_X((i) + 5), ANYCL_X((i) + 6), ANYCL_X((i) + 7), ANYCL_X((i) + 8),                  \
         ANYCL_X((i) + 9), ANYCL_X((i) + 10), ANYCL_X((i) + 11), ANYCL_X((i) + 12),               \
         ANYCL_X((i) + 13), ANYCL_X((i) + 14), ANYCL_X((i) + 15)))
#else
#define ANYCL_ARG16(i) vload16(0, x + (i))
#endif
// Lanes where v is strictly better than the lane's best b (a NaN first for floating T).
#ifdef ANYCL_HIGHEST
#define ANYCL_ARG_TAKE(v, b, cmp) ((v)cmp(b))
#else
#define ANYCL_ARG_TAKE(v, b, cmp) (((v)cmp(b)) | (isnan(v) & ~isnan(b)))
#endif
#define ANYCL_ARG_PARTIAL(name, OP, CMP, NEUTRAL)                                                \
  kernel void name(ulong n, ulong chunk, global anycl_arg* part, ulong part_off,                \
                   local anycl_arg* scratch, ANYCL_X_PARAMS) {                                  \
    ANYCL_X_PROLOGUE(void) scratch;                                                             \
    const ulong g = get_global_id(0);                                                           \
    const ulong begin = min(n, g * chunk), end = min(n, begin + chunk);                         \
    const long16 lane = (long16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);          \
    anycl_arg acc = NEUTRAL;                                                                    \
    ulong i = begin;                                                                            \
    if (i + 16 <= end) {                                                                        \
      T16 bv = ANYCL_ARG16(i);                                                                  \
      long16 bi = lane + (long)i;                                                               \
      for (i += 16; i + 16 <= end; i += 16) {                                                   \
        const T16 v = ANYCL_ARG16(i);                                                           \
        const ANYCL_MASK16 take = ANYCL_ARG_TAKE(v, bv, CMP);                                   \
        bv = select(bv, v, take);                                                               \
        bi = select(bi, lane + (long)i, convert_long16(take));                                  \
      }                                                                                         \
      T lv[16];                                                                                 \
      long li[16];                                                                              \
      vstore16(bv, 0, lv);                                                                      \
      vstore16(bi, 0, li);                                                                      \
      for (uint k = 0; k < 16; ++k) acc = OP(acc, anycl_arg_at(lv[k], (ulong)li[k]));           \
    }                                                                                           \
    for (; i < end; ++i) acc = OP(acc, anycl_arg_at(ANYCL_X(i), i));                            \
    part[part_off + g] = acc;                                                                   \
  }
#define ANYCL_ARG_FAST
#endif

#if !defined(ANYCL_ARG_OP) || ANYCL_ARG_OP == 0
#ifdef ANYCL_ARG_FAST
ANYCL_ARG_PARTIAL(anycl_argmin_partial, anycl_argmin_op, <, ANYCL_ARG_MIN_NEUTRAL)
#define ANYCL_R_NO_PARTIAL
#endif
#define ANYCL_R_KERNEL(s) anycl_argmin_##s
#define ANYCL_R_ACC anycl_arg
#define ANYCL_R_OP(a, b) anycl_argmin_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_ARG_MIN_NEUTRAL
#define ANYCL_R_MAP(i) anycl_arg_at(ANYCL_X(i), (i))
// Along an axis (expressions): the index along the axis, the first on ties.
#define ANYCL_R_AXIS_MAP(k, j) anycl_arg_at(ANYCL_X(k), (j))
#define ANYCL_R_OUT ulong
#define ANYCL_R_STORE(v) ((v).i)
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#if !defined(ANYCL_ARG_OP) || ANYCL_ARG_OP == 1
#ifdef ANYCL_ARG_FAST
ANYCL_ARG_PARTIAL(anycl_argmax_partial, anycl_argmax_op, >, ANYCL_ARG_MAX_NEUTRAL)
#define ANYCL_R_NO_PARTIAL
#endif
#define ANYCL_R_KERNEL(s) anycl_argmax_##s
#define ANYCL_R_ACC anycl_arg
#define ANYCL_R_OP(a, b) anycl_argmax_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_ARG_MAX_NEUTRAL
#define ANYCL_R_MAP(i) anycl_arg_at(ANYCL_X(i), (i))
// Along an axis (expressions): the index along the axis, the first on ties.
#define ANYCL_R_AXIS_MAP(k, j) anycl_arg_at(ANYCL_X(k), (j))
#define ANYCL_R_OUT ulong
#define ANYCL_R_STORE(v) ((v).i)
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif
