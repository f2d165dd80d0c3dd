// SPDX-License-Identifier: Apache-2.0
// The demo's kernels: saxpy, and a sum in two stages (per-work-group partial sums, then the host).

// y[i] = a * x[i] + y[i] for i < n.
__kernel void anycl_saxpy(const uint n, const float a, __global const float* x,
                          __global float* y) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

// Each work-group adds a strided share of x into partial[group]; the local size must be a power of
// two and scratch must hold one float per work-item.
__kernel void anycl_sum_partial(const uint n, __global const float* x, __global float* partial,
                                __local float* scratch) {
  const uint lid = get_local_id(0);
  const uint stride = get_global_size(0);
  float acc = 0.0f;
  for (uint i = get_global_id(0); i < n; i += stride) acc += x[i];
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
