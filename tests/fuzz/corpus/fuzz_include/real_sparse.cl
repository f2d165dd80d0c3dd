// SPDX-License-Identifier: Apache-2.0
// Sparse matrix-vector products on CSR matrices with element type T (-DT=float etc.) and 32-bit
// unsigned indices. On a CPU (-DANYCL_CPU) work-item g takes the contiguous rows
// [part[g], part[g + 1]) (balanced by entries on the host); otherwise work-items take neighbouring
// rows in a grid-stride loop.
#include "loop.h"

#ifndef T
#define T float
#endif

// Row r's sum of val[k] * x[col[k]], in entry order.
inline T anycl_csr_row(global const uint* row_ptr, global const uint* col, global const T* val,
                       global const T* x, ulong r) {
  const uint k1 = row_ptr[r + 1];
  T sum = (T)0;
  for (uint k = row_ptr[r]; k < k1; ++k) sum += val[k] * x[col[k]];
  return sum;
}

// y[r] = alpha * (A x)[r] + beta * y[r] for every row r (y not read when `read_y` is 0); x and y
// start at element offsets x_off and y_off of their buffers.
kernel void anycl_spmv_csr(global const uint* row_ptr, global const uint* col, global const T* val,
                           global const T* x, ulong x_off, global T* y, ulong y_off,
                           global const uint* part, ulong rows, T alpha, T beta, int read_y) {
  x += x_off;
  y += y_off;
#ifdef ANYCL_CPU
  const ulong g = get_global_id(0);
  const ulong r0 = part[g], r1 = part[g + 1];
  for (ulong r = r0; r < r1; ++r) {
#else
  for (ulong r = get_global_id(0); r < rows; r += get_global_size(0)) {
#endif
    const T s = anycl_csr_row(row_ptr, col, val, x, r);
    y[r] = read_y ? alpha * s + beta * y[r] : alpha * s;
  }
}

// y[r] = beta * y[r] (a matrix without entries); y set to 0 when `read_y` is 0.
kernel void anycl_spmv_scale(global T* y, ulong y_off, ulong n, ulong chunk, T beta, int read_y) {
  ANYCL_FOR_EACH(k, n, chunk) { y[y_off + k] = read_y ? beta * y[y_off + k] : (T)0; }
}
