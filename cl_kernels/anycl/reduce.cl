// SPDX-License-Identifier: Apache-2.0
// The built-in reductions of arrays of T, one program per element type and layout holding every
// operation of a kind (one build serves sum, min, max, dot, any and all of whole arrays, another
// the reductions along an axis):
//   anycl_{sum,min,max,dot,any,all}_partial, anycl_{sum,min,max}_{axis,axis_final}
// Options:
//   -DT=<element type>  -DACC=<sum and dot accumulator>
//   -DACC2=<float2 or double2> for floating T: sums and dots compensated, as (sum, error) pairs
//   -DANYCL_LOWEST=<macro> -DANYCL_HIGHEST=<macro> for integer T (e.g. CHAR_MIN, CHAR_MAX)
//   -DANYCL_STRIDED     inputs addressed through their strides (views that are not contiguous);
//                       the axis kernels exist only without it (they take strides themselves)
//   -DANYCL_ONLY_COUNT  only anycl_count_partial, for generated source that first defines
//                       `int anycl_predicate(T x)` (count_if)
//   -DANYCL_EXPR        elements computed by a generated expression (anycl::sum(x * y)): the
//                       generated source defines ANYCL_EXPR_PARAMS (its parameters) and
//                       ANYCL_EXPR_AT(k) (the value of element k, row-major) before including
//                       this file; no dot; with -DANYCL_EXPR_OP=<n> only one operation's
//                       kernels (0 sum, 1 min, 2 max, 3 any, 4 all), so each expression's
//                       program holds the kernels its call launches. Its axis kernels (with
//                       ANYCL_ONLY_AXIS) also count (ANYCL_ONLY_COUNT), and any/all give int
//   -DANYCL_ONLY_WHOLE  only the whole-array kernels (_partial); -DANYCL_ONLY_AXIS only the
//                       axis kernels (_axis, _axis_final). The library builds one or the other, so
//                       a program holds the kernels one kind of call uses: POCL compiles every
//                       kernel of a program when its binary is saved, GPU compilers at the build.
// Sums and dots of integers accumulate in ulong (the host passes -DACC=ulong for signed types as
// well: the bits are the two's-complement int64 sum, wrapping modulo 2^64 with no undefined
// signed overflow). min/max of floats use fmin/fmax, whose neutral element is NaN: NaNs are
// ignored, and only an all-NaN input gives NaN.
#include "loop.h"
#include "reduce.h"

// The host combines the whole-array partials (detail::stages_to_host): no final kernels. The axis
// reductions keep theirs (their results stay on the device).
#define ANYCL_NO_FINAL

#ifndef T
#define T float
#endif
#ifndef ACC
#define ACC T
#endif

#include "reduce_access.h"

// --- the operations ---
inline ACC anycl_sum_op(ACC a, ACC b) { return a + b; }
#ifdef ACC2
// Compensated sums of floating T: (sum, compensation) pairs combined with Knuth's branch-free
// TwoSum, so every lane, tree level and partial carries its rounding error along; the result
// sum + compensation is the correctly rounded sum in all but extreme cases (needs no
// -cl-fast-relaxed-math, which would fold the compensation away). An infinite or NaN sum drops
// the compensation (NaN by then), so that infinities come through as they would unpaired.
inline ACC2 anycl_csum_op(ACC2 a, ACC2 b) {
  const ACC s = a.x + b.x;
  const ACC bb = s - a.x;
  const ACC e = (a.x - (s - bb)) + (b.x - bb);
  return (ACC2)(s, isfinite(s) ? (a.y + b.y) + e : (ACC)0);
}

#if !defined(ANYCL_STRIDED) && !defined(ANYCL_REDUCE_GROUPED) && !defined(ANYCL_ONLY_AXIS)
#define ANYCL_CAT_(a, b) a##b
#define ANYCL_CAT(a, b) ANYCL_CAT_(a, b)
#define T16 ANYCL_CAT(T, 16)
// 16 lanes loaded and stored element by element, which the compiler turns into vector moves:
// vload16/vstore16 of 512-bit vectors log clang's -Wpsabi warnings on CPUs without AVX-512, and
// Oclgrind 21.10's --uninitialized check crashes on the 4-wide pieces and conversions of them.
#define ANYCL_LOAD_LANES(p)                                                                     \
  ((ANYCL_LANE16)(ANYCL_LANE((p)[0]), ANYCL_LANE((p)[1]), ANYCL_LANE((p)[2]),                    \
                  ANYCL_LANE((p)[3]), ANYCL_LANE((p)[4]), ANYCL_LANE((p)[5]),                    \
                  ANYCL_LANE((p)[6]), ANYCL_LANE((p)[7]), ANYCL_LANE((p)[8]),                    \
                  ANYCL_LANE((p)[9]), ANYCL_LANE((p)[10]), ANYCL_LANE((p)[11]),                  \
                  ANYCL_LANE((p)[12]), ANYCL_LANE((p)[13]), ANYCL_LANE((p)[14]),                 \
                  ANYCL_LANE((p)[15])))
#define ANYCL_STORE_LANES(v, p)                                                               \
  (p)[0] = (v).s0, (p)[1] = (v).s1, (p)[2] = (v).s2, (p)[3] = (v).s3, (p)[4] = (v).s4,          \
  (p)[5] = (v).s5, (p)[6] = (v).s6, (p)[7] = (v).s7, (p)[8] = (v).s8, (p)[9] = (v).s9,          \
  (p)[10] = (v).sa, (p)[11] = (v).sb, (p)[12] = (v).sc, (p)[13] = (v).sd, (p)[14] = (v).se,     \
  (p)[15] = (v).sf
// The signature of the CPU-shape sum kernels, and work-item g's chunk [begin, end). The
// parameters come last: their list has commas.
#define ANYCL_CSUM_HEAD(name, PROLOGUE, ...)                                               \
  kernel void name(ulong n, ulong chunk, global ACC2* part, ulong part_off,                \
                   local ACC2* scratch, __VA_ARGS__) {                                    \
    PROLOGUE(void) scratch;                                                                \
    const ulong g = get_global_id(0);                                                      \
    const ulong begin = min(n, g * chunk), end = min(n, begin + chunk);
#if defined(ANYCL_WIDE_SUM) && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// The CPU shape of float sums where the device has doubles (the host defines ANYCL_WIDE_SUM for
// float T): each work-item adds its contiguous chunk in 16 double lanes. Every float, and every
// product of two floats, is exact in double, so the only rounding is that of the double sums,
// 2^-53 of the partial sums and far below a float ulp of the result, at the speed of a plain
// float sum (TwoSum per element costs a CPU's dot a third of its speed). The lanes combine
// pairwise; the result leaves as the (sum, error) float pair of the compensated kernels.
#define ANYCL_LANE16 double16
#define ANYCL_LANE(v) ((double)(v))
#define ANYCL_CSUM_PARTIAL(name, LOAD16, LOAD1, PARAMS, PROLOGUE)                               \
  ANYCL_CSUM_HEAD(name, PROLOGUE, PARAMS)                                                       \
    double16 s = (double16)0;                                                                   \
    ulong i = begin;                                                                            \
    for (; i + 16 <= end; i += 16) s += LOAD16(i);                                              \
    double l[16];                                                                               \
    ANYCL_STORE_LANES(s, l);                                                                    \
    for (uint h = 8; h > 0; h /= 2)                                                             \
      for (uint k = 0; k < h; ++k) l[k] += l[k + h];                                            \
    double t = l[0];                                                                            \
    for (; i < end; ++i) t += LOAD1(i);                                                         \
    const float hi = (float)t;                                                                  \
    part[part_off + g] = (ACC2)(hi, isfinite(hi) ? (float)(t - hi) : 0.0f);                     \
  }
#else
// The CPU shape of compensated sums, explicitly vectorised: each work-item keeps 16 lanes of
// (sum, error) in two T16 vectors over its contiguous chunk (TwoSum per element), then combines
// the lanes pairwise. Written out because compilers do not vectorise the pair form by themselves.
#define ANYCL_LANE16 T16
#define ANYCL_LANE(v) (v)
#define ANYCL_CSUM_PARTIAL(name, LOAD16, LOAD1, PARAMS, PROLOGUE)                               \
  ANYCL_CSUM_HEAD(name, PROLOGUE, PARAMS)                                                       \
    T16 s = (T16)0, c = (T16)0;                                                                 \
    ulong i = begin;                                                                            \
    for (; i + 16 <= end; i += 16) {                                                            \
      const T16 v = LOAD16(i);                                                                  \
      const T16 t = s + v;                                                                      \
      const T16 bb = t - s;                                                                     \
      c += (s - (t - bb)) + (v - bb);                                                           \
      s = t;                                                                                    \
    }                                                                                           \
    T ls[16], lc[16];                                                                           \
    ANYCL_STORE_LANES(s, ls);                                                                   \
    ANYCL_STORE_LANES(c, lc);                                                                   \
    ACC2 l[16];                                                                                 \
    for (uint k = 0; k < 16; ++k) l[k] = (ACC2)(ls[k], lc[k]);                                  \
    for (uint h = 8; h > 0; h /= 2)                                                             \
      for (uint k = 0; k < h; ++k) l[k] = anycl_csum_op(l[k], l[k + h]);                        \
    ACC2 acc = l[0];                                                                            \
    for (; i < end; ++i) acc = anycl_csum_op(acc, (ACC2)(LOAD1(i), 0));                        \
    part[part_off + g] = acc;                                                                   \
  }
#endif
#ifdef ANYCL_EXPR
// 16 neighbouring values of the expression, which the compiler turns into vector loads where its
// operands are contiguous.
#define ANYCL_X_LANE(i) ANYCL_LANE(ANYCL_X((i)))
#define ANYCL_SUM16(i)                                                                       \
  ((ANYCL_LANE16)(ANYCL_X_LANE(i), ANYCL_X_LANE((i) + 1), ANYCL_X_LANE((i) + 2),             \
                  ANYCL_X_LANE((i) + 3), ANYCL_X_LANE((i) + 4), ANYCL_X_LANE((i) + 5),       \
                  ANYCL_X_LANE((i) + 6), ANYCL_X_LANE((i) + 7), ANYCL_X_LANE((i) + 8),       \
                  ANYCL_X_LANE((i) + 9), ANYCL_X_LANE((i) + 10), ANYCL_X_LANE((i) + 11),     \
                  ANYCL_X_LANE((i) + 12), ANYCL_X_LANE((i) + 13), ANYCL_X_LANE((i) + 14),    \
                  ANYCL_X_LANE((i) + 15)))
#define ANYCL_SUM1(i) ANYCL_X_LANE(i)
#else
#define ANYCL_SUM16(i) ANYCL_LOAD_LANES(x + (i))
#define ANYCL_SUM1(i) ANYCL_LANE(x[i])
#endif
#define ANYCL_DOT16(i) (ANYCL_LOAD_LANES(x + (i)) * ANYCL_LOAD_LANES(y + (i)))
#define ANYCL_DOT1(i) (ANYCL_LANE(x[i]) * ANYCL_LANE(y[i]))
#define ANYCL_CSUM_FAST
#endif
#endif
inline uint anycl_or_op(uint a, uint b) { return a | b; }
inline uint anycl_and_op(uint a, uint b) { return a & b; }
inline ulong anycl_count_op(ulong a, ulong b) { return a + b; }
#ifdef ANYCL_HIGHEST
inline T anycl_min_op(T a, T b) { return min(a, b); }
inline T anycl_max_op(T a, T b) { return max(a, b); }
#define ANYCL_MIN_NEUTRAL ((T)ANYCL_HIGHEST)
#define ANYCL_MAX_NEUTRAL ((T)ANYCL_LOWEST)
#else
inline T anycl_min_op(T a, T b) { return fmin(a, b); }
inline T anycl_max_op(T a, T b) { return fmax(a, b); }
#define ANYCL_MIN_NEUTRAL ((T)NAN)
#define ANYCL_MAX_NEUTRAL ((T)NAN)
#endif

#ifndef ANYCL_ONLY_COUNT

// Whether operation `op` (ANYCL_EXPR_OP's numbering) has its kernels in this program.
#ifdef ANYCL_EXPR_OP
#define ANYCL_HAS_OP(op) (ANYCL_EXPR_OP == (op))
#else
#define ANYCL_HAS_OP(op) 1
#endif

#if ANYCL_HAS_OP(0)
#ifdef ACC2
#ifdef ANYCL_CSUM_FAST
ANYCL_CSUM_PARTIAL(anycl_sum_partial, ANYCL_SUM16, ANYCL_SUM1, ANYCL_X_PARAMS, ANYCL_X_PROLOGUE)
#define ANYCL_R_NO_PARTIAL
#endif
#define ANYCL_R_KERNEL(s) anycl_sum_##s
#define ANYCL_R_ACC ACC2
#define ANYCL_R_OP(a, b) anycl_csum_op(a, b)
#define ANYCL_R_NEUTRAL ((ACC2)(0, 0))
#ifndef ANYCL_STRIDED
#define ANYCL_R_LOAD(v) ((ACC2)((v), 0))
#endif
#define ANYCL_R_OUT T
#define ANYCL_R_STORE(v) ((v).x + (v).y)
#define ANYCL_R_MAP(i) ((ACC2)(ANYCL_X(i), 0))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#else
#define ANYCL_R_KERNEL(s) anycl_sum_##s
#define ANYCL_R_ACC ACC
#define ANYCL_R_OP(a, b) anycl_sum_op(a, b)
#define ANYCL_R_NEUTRAL ((ACC)0)
#ifndef ANYCL_STRIDED
#define ANYCL_R_LOAD(v) ((ACC)(v))
#endif
#define ANYCL_R_MAP(i) ((ACC)ANYCL_X(i))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"

#endif
#endif  // sum

#if ANYCL_HAS_OP(1)
#define ANYCL_R_KERNEL(s) anycl_min_##s
#define ANYCL_R_ACC T
#define ANYCL_R_OP(a, b) anycl_min_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_MIN_NEUTRAL
#ifndef ANYCL_STRIDED
#define ANYCL_R_LOAD(v) (v)
#endif
#define ANYCL_R_MAP(i) ANYCL_X(i)
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#if ANYCL_HAS_OP(2)
#define ANYCL_R_KERNEL(s) anycl_max_##s
#define ANYCL_R_ACC T
#define ANYCL_R_OP(a, b) anycl_max_op(a, b)
#define ANYCL_R_NEUTRAL ANYCL_MAX_NEUTRAL
#ifndef ANYCL_STRIDED
#define ANYCL_R_LOAD(v) (v)
#endif
#define ANYCL_R_MAP(i) ANYCL_X(i)
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#if ANYCL_HAS_OP(3)
#define ANYCL_R_KERNEL(s) anycl_any_##s
#define ANYCL_R_ACC uint
#define ANYCL_R_OP(a, b) anycl_or_op(a, b)
#define ANYCL_R_NEUTRAL 0u
#define ANYCL_R_MAP(i) (ANYCL_X(i) != (T)0 ? 1u : 0u)
// Along an axis (expressions): int 0 or 1, as comparisons give.
#define ANYCL_R_OUT int
#define ANYCL_R_STORE(v) ((int)(v))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#if ANYCL_HAS_OP(4)
#define ANYCL_R_KERNEL(s) anycl_all_##s
#define ANYCL_R_ACC uint
#define ANYCL_R_OP(a, b) anycl_and_op(a, b)
#define ANYCL_R_NEUTRAL 1u
#define ANYCL_R_MAP(i) (ANYCL_X(i) != (T)0 ? 1u : 0u)
// Along an axis (expressions): int 0 or 1, as comparisons give.
#define ANYCL_R_OUT int
#define ANYCL_R_STORE(v) ((int)(v))
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"
#endif

#ifndef ANYCL_EXPR
#ifdef ANYCL_CSUM_FAST
ANYCL_CSUM_PARTIAL(anycl_dot_partial, ANYCL_DOT16, ANYCL_DOT1, ANYCL_XY_PARAMS, ANYCL_XY_PROLOGUE)
#define ANYCL_R_NO_PARTIAL
#endif
#define ANYCL_R_KERNEL(s) anycl_dot_##s
#ifdef ACC2
#define ANYCL_R_ACC ACC2
#define ANYCL_R_OP(a, b) anycl_csum_op(a, b)
#define ANYCL_R_NEUTRAL ((ACC2)(0, 0))
#define ANYCL_R_MAP(i) ((ACC2)(ANYCL_X(i) * ANYCL_Y(i), 0))
#else
#define ANYCL_R_ACC ACC
#define ANYCL_R_OP(a, b) anycl_sum_op(a, b)
#define ANYCL_R_NEUTRAL ((ACC)0)
#define ANYCL_R_MAP(i) ((ACC)ANYCL_X(i) * (ACC)ANYCL_Y(i))
#endif
#define ANYCL_R_PARAMS ANYCL_XY_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_XY_PROLOGUE
#include "reduce_engine.h"
#endif  // !ANYCL_EXPR

#else  // ANYCL_ONLY_COUNT

#ifndef ANYCL_HAVE_PREDICATE
inline int anycl_predicate(T x) { return x != (T)0; }
#endif

#define ANYCL_R_KERNEL(s) anycl_count_##s
#define ANYCL_R_ACC ulong
#define ANYCL_R_OP(a, b) anycl_count_op(a, b)
#define ANYCL_R_NEUTRAL 0ul
#define ANYCL_R_MAP(i) (anycl_predicate(ANYCL_X(i)) ? 1ul : 0ul)
#define ANYCL_R_PARAMS ANYCL_X_PARAMS
#define ANYCL_R_PROLOGUE ANYCL_X_PROLOGUE
#include "reduce_engine.h"

#endif
