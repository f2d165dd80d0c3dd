// SPDX-License-Identifier: Apache-2.0
// How the whole-array reductions (reduce.cl, argreduce.cl) read element i of their input x (and y):
// contiguous from an offset, through strides (-DANYCL_STRIDED), or as the value of a generated
// expression (-DANYCL_EXPR: the includer defines ANYCL_EXPR_PARAMS and ANYCL_EXPR_AT(k)). Defines
// ANYCL_X(i), ANYCL_Y(i), their kernel parameters ANYCL_X_PARAMS, ANYCL_XY_PARAMS and the
// statements ANYCL_X_PROLOGUE, ANYCL_XY_PROLOGUE that apply the offsets.
#pragma once

#include "loop.h"

#if defined(ANYCL_EXPR)
#define ANYCL_X(i) ANYCL_EXPR_AT(i)
#define ANYCL_X_PARAMS ANYCL_EXPR_PARAMS
#define ANYCL_X_PROLOGUE
#elif defined(ANYCL_STRIDED)
#define ANYCL_X(i) x[anycl_strided_index((i), ext, x_st, x_off)]
#define ANYCL_Y(i) y[anycl_strided_index((i), ext, y_st, y_off)]
#define ANYCL_X_PARAMS ulong4 ext, global const T *x, ulong x_off, ulong4 x_st
#define ANYCL_XY_PARAMS ANYCL_X_PARAMS, global const T *y, ulong y_off, ulong4 y_st
#define ANYCL_X_PROLOGUE
#define ANYCL_XY_PROLOGUE
#else
#define ANYCL_X(i) x[i]
#define ANYCL_Y(i) y[i]
#define ANYCL_X_PARAMS global const T *x, ulong x_off
#define ANYCL_XY_PARAMS ANYCL_X_PARAMS, global const T *y, ulong y_off
#define ANYCL_X_PROLOGUE x += x_off;
#define ANYCL_XY_PROLOGUE \
  x += x_off;             \
  y += y_off;
#endif
