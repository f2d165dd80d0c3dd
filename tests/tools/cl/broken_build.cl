// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: a syntax error on line 3 (the tests expect broken_build.cl:3:).
__kernel void anycl_test_broken(__global float* x) { x[0] = 1.0f }
