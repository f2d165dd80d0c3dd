// SPDX-License-Identifier: Apache-2.0
// A kernel whose static __local array size comes from -DWORDS, to test local-memory limits.
__kernel void big_local(__global int* out) {
  __local int scratch[WORDS];
  scratch[get_local_id(0)] = (int)get_global_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_id(0)];
}
