// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: fine itself, but includes a header with a syntax error.
#include "broken_header.h"

__kernel void anycl_test_twice_all(__global float* x) { x[0] = anycl_test_twice(x[0]); }
