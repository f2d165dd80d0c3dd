// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: builds everywhere.
__kernel void anycl_test_scale(const uint n, const float a, __global float* x) {
  const uint i = get_global_id(0);
  if (i < n) x[i] *= a;
}
