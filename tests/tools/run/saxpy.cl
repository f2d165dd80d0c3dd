// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: y = a * x + y over the first n elements.
__kernel void saxpy(uint n, float a, __global const float* x, __global float* y) {
  const size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
