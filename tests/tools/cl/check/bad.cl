// SPDX-License-Identifier: Apache-2.0
// anycl-build --check fixture: an undeclared identifier on line 3.
__kernel void anycl_test_bad(__global float* x) { x[0] = undeclared_thing; }
