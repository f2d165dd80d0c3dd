// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: a build error on line 5.
__kernel void broken(__global int* out) {
  const size_t i = get_global_id(0);
  out[i] = undeclared_thing;
}
