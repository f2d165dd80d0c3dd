// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: __local memory, vector values, byte buffers, __constant and void* buffers.

// out[group] = the sum of the group's elements of in, added up in __local memory.
__kernel void group_sum(__global const int* in, __global int* out, __local int* scratch) {
  const size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    int sum = 0;
    for (size_t k = 0; k < n; ++k) sum += scratch[k];
    out[get_group_id(0)] = sum;
  }
}

// out[i] = ab.x * i + ab.y
__kernel void affine(uint2 ab, __global uint* out) {
  const uint i = (uint)get_global_id(0);
  out[i] = ab.x * i + ab.y;
}

// out[i] = s * i, a float4 per work-item.
__kernel void scale4(float4 s, __global float4* out) {
  const size_t i = get_global_id(0);
  out[i] = s * (float)i;
}

// out[i] = v.x + v.y + v.z + i: a 3-vector value takes 16 bytes.
__kernel void sum3(float3 v, __global float* out) {
  const size_t i = get_global_id(0);
  out[i] = v.x + v.y + v.z + (float)i;
}

// out[i] = in[i] + 1, bytes.
__kernel void bytes_plus_one(__global const uchar* in, __global uchar* out) {
  const size_t i = get_global_id(0);
  out[i] = (uchar)(in[i] + 1);
}

// out[i] = c[i % 4] * k: a __constant table and an int value.
__kernel void from_constant(__constant int* c, int k, __global int* out) {
  const size_t i = get_global_id(0);
  out[i] = c[i % 4] * k;
}

// Clears any buffer: a void* parameter takes every element type.
__kernel void clear_bytes(__global void* p, uint bytes) {
  const size_t i = get_global_id(0);
  if (i < bytes) ((__global uchar*)p)[i] = 0;
}

// out[i] = i * 2 in a 2D range, row-major: checks 2D global and local sizes.
__kernel void index2d(__global uint* out) {
  const size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = (uint)(y * get_global_size(0) + x) * 2u;
}
