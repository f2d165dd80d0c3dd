// SPDX-License-Identifier: Apache-2.0
// The one kernel of anycl-cache-child: a program of one kernel, so that the many builds from
// scratch of the process suite cost what the cache's behaviour needs and no more.

// y[i] = a * x[i] + y[i] for i < n.
__kernel void anycl_saxpy(const uint n, const float a, __global const float* x,
                          __global float* y) {
  const uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
