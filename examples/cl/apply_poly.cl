// SPDX-License-Identifier: Apache-2.0
// The kernel part of example 16's linked program: it only declares poly(), which poly.cl
// defines; the linker joins the two.

float poly(float x);

__kernel void apply(__global float* y) {
  const size_t i = get_global_id(0);
  y[i] = poly(y[i]);
}
