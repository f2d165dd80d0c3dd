// SPDX-License-Identifier: Apache-2.0
// Kernels of anycl-demo and the examples: saxpy, a sum in two stages (per-work-group partial sums,
// then the host), 3D vertices transformed by 4x4 matrices, and the assignment step of k-means.

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

// out[i] = M * in[i] for i < n, where M is matrix i / per_matrix of `matrices`: four float4
// columns each (column-major, as OpenGL stores them), so that the result is the sum of column c
// times component c of the vertex.
__kernel void anycl_transform_vertices(const uint n, const uint per_matrix,
                                       __global const float4* matrices, __global const float4* in,
                                       __global float4* out) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  __global const float4* m = matrices + 4 * (i / per_matrix);
  const float4 v = in[i];
  out[i] = m[0] * v.x + m[1] * v.y + m[2] * v.z + m[3] * v.w;
}

#define ANYCL_KMEANS_MAX_K 16

// One k-means assignment step over n 2-D points and k <= ANYCL_KMEANS_MAX_K centres. Work-item g
// of G (the global size) takes the points g, g + G, ...: it stores each point's nearest centre
// (the first one on ties) in assign[i] and adds the point to its own sums, written as
// partial[g * k + c] = (sum of x, sum of y, points, points whose centre changed) for centre c.
// The host adds the G partial sums of each centre to get the new centres.
__kernel void anycl_kmeans_assign(const uint n, const uint k, __global const float2* points,
                                  __global const float2* centres, __global uint* assign,
                                  __global float4* partial) {
  const uint g = get_global_id(0);
  const uint stride = get_global_size(0);
  float4 acc[ANYCL_KMEANS_MAX_K];
  for (uint c = 0; c < k; ++c) acc[c] = (float4)(0.0f);
  for (uint i = g; i < n; i += stride) {
    const float2 p = points[i];
    uint best = 0;
    float best_d = INFINITY;
    for (uint c = 0; c < k; ++c) {
      const float2 d = p - centres[c];
      const float dd = d.x * d.x + d.y * d.y;
      if (dd < best_d) {
        best_d = dd;
        best = c;
      }
    }
    const float changed = assign[i] != best ? 1.0f : 0.0f;
    assign[i] = best;
    acc[best] += (float4)(p.x, p.y, 1.0f, changed);
  }
  for (uint c = 0; c < k; ++c) partial[g * k + c] = acc[c];
}
