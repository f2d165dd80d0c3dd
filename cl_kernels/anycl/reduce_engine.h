// SPDX-License-Identifier: Apache-2.0
// One instance of the reduction engine: included (no include guard) once per reduction, after
// defining
//   ANYCL_R_KERNEL(s)   the kernel names, e.g. `anycl_sum_##s` gives anycl_sum_partial/_final
//   ANYCL_R_ACC         the accumulator type
//   ANYCL_R_OP(a, b)    combines two accumulators (associative)
//   ANYCL_R_NEUTRAL     its neutral element (an expression of type ANYCL_R_ACC)
//   ANYCL_R_MAP(i)      the value of element i (always invoked with a parenthesised index)
//   ANYCL_R_PARAMS      the kernel's own parameters, after the engine's
//   ANYCL_R_PROLOGUE    statements run first in the partial kernel (e.g. `x += x__off;`)
// and optionally ANYCL_R_LOAD(v) (an element's value as an accumulator), which adds the axis
// kernels ANYCL_R_KERNEL(axis) and ANYCL_R_KERNEL(axis_final), writing ANYCL_R_OUT elements
// (ANYCL_R_STORE(acc) of an accumulator; by default the accumulator itself; with -DANYCL_EXPR
// the axis kernels exist without ANYCL_R_LOAD and read ANYCL_R_AXIS_MAP(k, j), element k at
// index j along the axis, by default ANYCL_R_MAP(k)), and
// ANYCL_R_NO_PARTIAL when the includer writes ANYCL_R_KERNEL(partial) itself. It #undefs them all at the end.
// -DANYCL_ONLY_WHOLE leaves the axis kernels out, -DANYCL_ONLY_AXIS the partial and final ones;
// ANYCL_NO_FINAL (defined by the includer, for all its instances) the final ones, for partials
// that the host combines.
// Built with -DANYCL_REDUCE_GROUPED the partial kernel has the GPU shape (grid-stride loops, a
// local-memory tree per work-group); without it each work-item reduces one contiguous chunk (the
// CPU shape).
#include "reduce.h"

#ifndef ANYCL_ONLY_AXIS
#ifdef ANYCL_R_NO_PARTIAL
// The includer defines ANYCL_R_KERNEL(partial) itself.
#elif !defined(ANYCL_REDUCE_GROUPED)

// Work-item g reduces elements [g * chunk, min(n, (g + 1) * chunk)) into partials[part_off + g].
kernel void ANYCL_R_KERNEL(partial)(ulong anycl_n, ulong anycl_chunk, global ANYCL_R_ACC* anycl_part,
                                 ulong anycl_part_off, local ANYCL_R_ACC* anycl_scratch,
                                 ANYCL_R_PARAMS) {
  ANYCL_R_PROLOGUE
  (void)anycl_scratch;
  const ulong anycl_g = get_global_id(0);
  const ulong anycl_begin = min(anycl_n, anycl_g * anycl_chunk);
  const ulong anycl_end = min(anycl_n, anycl_begin + anycl_chunk);
  ANYCL_R_ACC anycl_stack[ANYCL_R_STACK];
  uint anycl_top = 0;
  ulong anycl_count = 0;
  ulong anycl_i = anycl_begin;
  for (; anycl_i + ANYCL_R_BLOCK <= anycl_end; anycl_i += ANYCL_R_BLOCK) {
    ANYCL_R_ACC anycl_l[16];
    ANYCL_R_UNROLL
    for (uint anycl_k = 0; anycl_k < 16; ++anycl_k) anycl_l[anycl_k] = ANYCL_R_MAP((anycl_i + anycl_k));
    ANYCL_R_UNROLL
    for (uint anycl_r = 1; anycl_r < ANYCL_R_ROUNDS; ++anycl_r) {
      const ulong anycl_b = anycl_i + 16 * anycl_r;
      ANYCL_R_UNROLL
      for (uint anycl_k = 0; anycl_k < 16; ++anycl_k)
        anycl_l[anycl_k] = ANYCL_R_OP(anycl_l[anycl_k], ANYCL_R_MAP((anycl_b + anycl_k)));
    }
    ANYCL_R_UNROLL
    for (uint anycl_h = 8; anycl_h > 0; anycl_h /= 2)
      ANYCL_R_UNROLL
      for (uint anycl_k = 0; anycl_k < anycl_h; ++anycl_k)
        anycl_l[anycl_k] = ANYCL_R_OP(anycl_l[anycl_k], anycl_l[anycl_k + anycl_h]);
    ANYCL_R_PUSH(anycl_stack, anycl_top, anycl_count, anycl_l[0]);
  }
  // The tail (fewer than a block) pairwise as well, in blocks of 8.
  while (anycl_i < anycl_end) {
    const ulong anycl_e = min(anycl_end, anycl_i + 8);
    ANYCL_R_ACC anycl_t = ANYCL_R_MAP((anycl_i));
    for (++anycl_i; anycl_i < anycl_e; ++anycl_i)
      anycl_t = ANYCL_R_OP(anycl_t, ANYCL_R_MAP((anycl_i)));
    ANYCL_R_PUSH(anycl_stack, anycl_top, anycl_count, anycl_t);
  }
  ANYCL_R_ACC anycl_acc = ANYCL_R_NEUTRAL;
  if (anycl_top > 0) anycl_acc = anycl_stack[--anycl_top];
  while (anycl_top > 0) anycl_acc = ANYCL_R_OP(anycl_stack[--anycl_top], anycl_acc);
  anycl_part[anycl_part_off + anycl_g] = anycl_acc;
}

#else

// Work-item g takes elements g, g + G, g + 2G, ... (G = global size), pairwise in blocks of 8;
// the work-group then combines its work-items in local memory into partials[part_off + group].
kernel void ANYCL_R_KERNEL(partial)(ulong anycl_n, ulong anycl_chunk, global ANYCL_R_ACC* anycl_part,
                                 ulong anycl_part_off, local ANYCL_R_ACC* anycl_scratch,
                                 ANYCL_R_PARAMS) {
  ANYCL_R_PROLOGUE
  (void)anycl_chunk;
  const ulong anycl_stride = get_global_size(0);
  ANYCL_R_ACC anycl_stack[ANYCL_R_STACK];
  uint anycl_top = 0;
  ulong anycl_count = 0;
  ulong anycl_i = get_global_id(0);
  while (anycl_i < anycl_n) {
    ANYCL_R_ACC anycl_t = ANYCL_R_MAP((anycl_i));
    anycl_i += anycl_stride;
    for (uint anycl_r = 1; anycl_r < 8 && anycl_i < anycl_n; ++anycl_r, anycl_i += anycl_stride)
      anycl_t = ANYCL_R_OP(anycl_t, ANYCL_R_MAP((anycl_i)));
    ANYCL_R_PUSH(anycl_stack, anycl_top, anycl_count, anycl_t);
  }
  ANYCL_R_ACC anycl_acc = ANYCL_R_NEUTRAL;
  if (anycl_top > 0) anycl_acc = anycl_stack[--anycl_top];
  while (anycl_top > 0) anycl_acc = ANYCL_R_OP(anycl_stack[--anycl_top], anycl_acc);

  const uint anycl_lid = get_local_id(0);
  anycl_scratch[anycl_lid] = anycl_acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint anycl_m = get_local_size(0); anycl_m > 1;) {
    const uint anycl_h = (anycl_m + 1) / 2;
    if (anycl_lid + anycl_h < anycl_m)
      anycl_scratch[anycl_lid] =
          ANYCL_R_OP(anycl_scratch[anycl_lid], anycl_scratch[anycl_lid + anycl_h]);
    barrier(CLK_LOCAL_MEM_FENCE);
    anycl_m = anycl_h;
  }
  if (anycl_lid == 0) anycl_part[anycl_part_off + get_group_id(0)] = anycl_scratch[0];
}

#endif

#ifndef ANYCL_NO_FINAL
// One work-group combines partials[0, m) pairwise in place and writes the result to out[out_off].
kernel void ANYCL_R_KERNEL(final)(ulong anycl_m, global ANYCL_R_ACC* anycl_part,
                               global ANYCL_R_ACC* anycl_out, ulong anycl_out_off) {
  const ulong anycl_lid = get_local_id(0);
  const ulong anycl_l = get_local_size(0);
  for (ulong anycl_s = 1; anycl_s < anycl_m; anycl_s *= 2) {
    for (ulong anycl_j = anycl_lid * 2 * anycl_s; anycl_j + anycl_s < anycl_m;
         anycl_j += anycl_l * 2 * anycl_s)
      anycl_part[anycl_j] = ANYCL_R_OP(anycl_part[anycl_j], anycl_part[anycl_j + anycl_s]);
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
  if (anycl_lid == 0) anycl_out[anycl_out_off] = anycl_part[0];
}
#endif  // !ANYCL_NO_FINAL
#endif  // !ANYCL_ONLY_AXIS

#if (defined(ANYCL_R_LOAD) || defined(ANYCL_EXPR)) && !defined(ANYCL_ONLY_WHOLE)
#ifndef ANYCL_R_OUT
#define ANYCL_R_OUT ANYCL_R_ACC
#define ANYCL_R_STORE(v) (v)
#endif
// Task w (of `tasks` = outputs * splits) reduces part w % splits of output o = w / splits: the
// elements j in [s * seg, min(len, (s + 1) * seg)) of its line along the axis, pairwise in
// blocks of 8. With splits == 1 the results are final (out is ANYCL_R_OUT[]), otherwise
// partials (out is ANYCL_R_ACC[]) for the axis_final kernel. The line of output o:
// - of an array: x[base(o) + j * ast], base(o) the position of output o (row-major over the
//   extents `oext` of the output, with the input's strides `ost` of those axes) in x;
// - of an expression (-DANYCL_EXPR): the values ANYCL_R_AXIS_MAP(k, j) at row-major element
//   k = (o / inner) * len * inner + j * inner + o % inner of its shape, the axis of extent len
//   with `inner` elements after it.
// The split is taken as w - o * splits rather than w % splits: a division and a remainder of the
// same operands make LLVM emit a `freeze` instruction, which Oclgrind 21.10's --uninitialized check
// cannot run ("Unsupported instruction: freeze": the kernel stops), and CI runs every shipped
// kernel under that check.
#ifdef ANYCL_EXPR
#ifndef ANYCL_R_AXIS_MAP
#define ANYCL_R_AXIS_MAP(k, j) ANYCL_R_MAP(k)
#endif
#define ANYCL_R_AXIS_HEAD ulong anycl_inner, ulong anycl_len,
#define ANYCL_R_AXIS_TAIL , ANYCL_R_PARAMS
#define ANYCL_R_AXIS_PROLOGUE ANYCL_R_PROLOGUE
#define ANYCL_R_AXIS_LINE(o)                                  \
  const ulong anycl_outer = (o) / anycl_inner;                \
  const ulong anycl_base =                                    \
      anycl_outer * anycl_len * anycl_inner + ((o) - anycl_outer * anycl_inner);
#define ANYCL_R_AXIS_AT(j) ANYCL_R_AXIS_MAP((anycl_base + (j) * anycl_inner), (j))
#else
#define ANYCL_R_AXIS_HEAD \
  global const T *x, ulong x_off, ulong4 oext, ulong4 ost, ulong anycl_len, ulong ast,
#define ANYCL_R_AXIS_TAIL
#define ANYCL_R_AXIS_PROLOGUE
#define ANYCL_R_AXIS_LINE(o) global const T* anycl_p = x + anycl_strided_index((o), oext, ost, x_off);
#define ANYCL_R_AXIS_AT(j) ANYCL_R_LOAD(anycl_p[(j) * ast])
#endif
kernel void ANYCL_R_KERNEL(axis)(ANYCL_R_AXIS_HEAD ulong anycl_splits, ulong anycl_seg,
                                 ulong anycl_tasks, ulong anycl_chunk, global uchar* anycl_out,
                                 ulong anycl_out_off ANYCL_R_AXIS_TAIL) {
  ANYCL_R_AXIS_PROLOGUE
  ANYCL_FOR_EACH(anycl_w, anycl_tasks, anycl_chunk) {
    const ulong anycl_o = anycl_w / anycl_splits;
    const ulong anycl_j0 = (anycl_w - anycl_o * anycl_splits) * anycl_seg;
    const ulong anycl_j1 = min(anycl_len, anycl_j0 + anycl_seg);
    ANYCL_R_AXIS_LINE(anycl_o)
    ANYCL_R_ACC anycl_stack[ANYCL_R_STACK];
    uint anycl_top = 0;
    ulong anycl_count = 0;
    ulong anycl_j = anycl_j0;
    while (anycl_j < anycl_j1) {
      const ulong anycl_e = min(anycl_j1, anycl_j + 8);
      ANYCL_R_ACC anycl_t = ANYCL_R_AXIS_AT(anycl_j);
      for (++anycl_j; anycl_j < anycl_e; ++anycl_j)
        anycl_t = ANYCL_R_OP(anycl_t, ANYCL_R_AXIS_AT(anycl_j));
      ANYCL_R_PUSH(anycl_stack, anycl_top, anycl_count, anycl_t);
    }
    ANYCL_R_ACC anycl_acc = ANYCL_R_NEUTRAL;
    if (anycl_top > 0) anycl_acc = anycl_stack[--anycl_top];
    while (anycl_top > 0) anycl_acc = ANYCL_R_OP(anycl_stack[--anycl_top], anycl_acc);
    if (anycl_splits == 1)
      ((global ANYCL_R_OUT*)anycl_out)[anycl_out_off + anycl_w] = ANYCL_R_STORE(anycl_acc);
    else
      ((global ANYCL_R_ACC*)anycl_out)[anycl_out_off + anycl_w] = anycl_acc;
  }
}
#undef ANYCL_R_AXIS_HEAD
#undef ANYCL_R_AXIS_TAIL
#undef ANYCL_R_AXIS_PROLOGUE
#undef ANYCL_R_AXIS_LINE
#undef ANYCL_R_AXIS_AT

// Output o combines its `splits` partials part[o * splits ...] pairwise (in place) into out[o].
kernel void ANYCL_R_KERNEL(axis_final)(global ANYCL_R_ACC* part, ulong splits, ulong outputs,
                                       ulong chunk, global ANYCL_R_OUT* out, ulong out_off) {
  ANYCL_FOR_EACH(o, outputs, chunk) {
    global ANYCL_R_ACC* p = part + o * splits;
    for (ulong s = 1; s < splits; s *= 2)
      for (ulong j = 0; j + s < splits; j += 2 * s) p[j] = ANYCL_R_OP(p[j], p[j + s]);
    out[out_off + o] = ANYCL_R_STORE(p[0]);
  }
}
#endif

#undef ANYCL_R_KERNEL
#undef ANYCL_R_ACC
#undef ANYCL_R_OP
#undef ANYCL_R_NEUTRAL
#undef ANYCL_R_MAP
#undef ANYCL_R_AXIS_MAP
#undef ANYCL_R_PARAMS
#undef ANYCL_R_PROLOGUE
#undef ANYCL_R_LOAD
#undef ANYCL_R_OUT
#undef ANYCL_R_STORE
#undef ANYCL_R_NO_PARTIAL
