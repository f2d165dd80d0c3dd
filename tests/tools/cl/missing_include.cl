// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: the #include on line 3 names a file that does not exist.
#include "no_such_header.h"

__kernel void anycl_test_nothing(__global float* x) { x[0] = 0.0f; }
