// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: a header with a syntax error on line 4 (the tests expect
// broken_header.h:4:).
inline float anycl_test_twice(float v) { return 2.0f * v }
