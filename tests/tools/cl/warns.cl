// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: builds, with a warning on line 3 (shown with --verbose).
#warning "anycl-build verbose test"
__kernel void anycl_test_zero(__global float* x) { x[get_global_id(0)] = 0.0f; }
