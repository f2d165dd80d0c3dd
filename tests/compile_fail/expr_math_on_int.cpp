// SPDX-License-Identifier: Apache-2.0
// Must not compile: a floating-point math function of an integer array (CTest checks the
// static_assert text).
#include "anycl/anycl.hpp"
#include "anycl/elementwise.hpp"

anycl::array<int> root(const anycl::array<int>& i) { return anycl::sqrt(i); }
