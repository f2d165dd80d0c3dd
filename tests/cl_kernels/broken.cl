// SPDX-License-Identifier: Apache-2.0
// A kernel with a compile error: the device tests check that the log reaches the exception.
__kernel void broken(__global int* a) {
  a[get_global_id(0)] = undeclared_identifier + 1;
}
