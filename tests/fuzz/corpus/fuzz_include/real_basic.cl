// SPDX-License-Identifier: Apache-2.0
// Small kernels the device tests check against host references.

__kernel void add_one(__global int* a) { a[get_global_id(0)] += 1; }

__kernel void saxpy(const uint n, const float a, __global const float* x, __global float* y) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

// out[i] = the global id, so launches with an offset show where they ran.
__kernel void write_index(__global int* out) {
  const size_t i = get_global_id(0);
  out[i] = (int)i;
}

// out[y * width + x] = 1000 * y + x.
__kernel void index_2d(__global int* out, const uint width) {
  const size_t x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] = (int)(1000 * y + x);
}

// out[(z * h + y) * w + x] = 10000 * z + 100 * y + x.
__kernel void index_3d(__global int* out) {
  const size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  const size_t w = get_global_size(0), h = get_global_size(1);
  out[(z * h + y) * w + x] = (int)(10000 * z + 100 * y + x);
}

// out[group] = sum of in over the work-group, through __local scratch (power-of-two local size).
__kernel void group_sum(__global const int* in, __global int* out, __local int* scratch) {
  const uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// out[i] = value * i + extra, where EXTRA comes from the build options (0 if not given).
#ifndef EXTRA
#define EXTRA 0
#endif
__kernel void affine(__global int* out, const int value) {
  const int i = (int)get_global_id(0);
  out[i] = value * i + EXTRA;
}

__kernel void empty(void) {}
