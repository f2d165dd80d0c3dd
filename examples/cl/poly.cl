// SPDX-License-Identifier: Apache-2.0
// The helper part of example 16's linked program: poly(x) = A x^2 + B, A and B from the build
// options. kernel_loader::link compiles it apart from apply_poly.cl, whose kernel calls it.

float poly(float x) { return A * x * x + B; }
