// SPDX-License-Identifier: Apache-2.0
// Must not compile: an expression of one element type assigned to an array of another
// (CTest checks the static_assert text).
#include "anycl/anycl.hpp"
#include "anycl/elementwise.hpp"

void store(anycl::array<float>& y, const anycl::array<double>& d) { y = d * 2.0; }
