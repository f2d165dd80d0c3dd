// SPDX-License-Identifier: Apache-2.0
// The consumer's own kernel: y[i] = x[i]^2 - 3 x[i] + 0.5 for i < n.
__kernel void consumer_poly(const uint n, __global const float* x, __global float* y) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = x[i] * x[i] - 3.0f * x[i] + 0.5f;
}
