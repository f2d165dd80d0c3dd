// SPDX-License-Identifier: Apache-2.0
// saxpy for the examples: y[i] = a * x[i] + y[i] for i < n.

__kernel void saxpy(const uint n, const float a, __global const float* x, __global float* y) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
