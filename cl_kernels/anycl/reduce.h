// SPDX-License-Identifier: Apache-2.0
// Helpers of the reduction engine (reduce_engine.h) behind anycl::sum/min/max/dot/count_if/
// any/all and reduction_kernel.
//
// Accuracy: inside a work-item elements are combined pairwise (blocks of 128 elements as 16 lanes
// of 8, a tree over the lanes, then a binary-counter stack of block results), partials are
// combined pairwise too, so a float sum has the error of a pairwise sum (O(log n) ulps), not the
// O(n) of one running sum. The order of the operands is kept on the CPU shape. (The built-in
// float sums go further: reduce.cl runs them on compensated (sum, error) pairs.)
#pragma once

#include "loop.h"

// A block on the CPU shape: 16 lanes (16 floats: one AVX-512 or two AVX2 vectors) of 8 rounds.
#define ANYCL_R_ROUNDS 8
#define ANYCL_R_BLOCK (16 * ANYCL_R_ROUNDS)
// The CPU-shape block is unrolled for contiguous inputs, where it becomes vector loads. A strided
// input's index arithmetic unrolled 128 times made its kernels slow to compile (docs/testing.md),
// for no gain: its loads are gathers anyway.
#ifdef ANYCL_STRIDED
#define ANYCL_R_UNROLL
#else
#define ANYCL_R_UNROLL _Pragma("unroll")
#endif
// Enough stack levels for 2^64 blocks.
#define ANYCL_R_STACK 64

// Pushes block result `v` (of block number `count`) onto the pairwise stack: equal-sized
// neighbours are combined as in a binary counter, so the stack holds at most log2(blocks) entries.
// Uses the ANYCL_R_ACC and ANYCL_R_OP in force where it is expanded.
#define ANYCL_R_PUSH(stack, top, count, v)                        \
  do {                                                            \
    ANYCL_R_ACC anycl_v = (v);                                    \
    for (ulong anycl_c = (count); anycl_c & 1; anycl_c >>= 1)     \
      anycl_v = ANYCL_R_OP(stack[--top], anycl_v);                \
    stack[top++] = anycl_v;                                                              \
    ++(count);                                                                           \
  } while (0)
