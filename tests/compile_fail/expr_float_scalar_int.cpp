// SPDX-License-Identifier: Apache-2.0
// Must not compile: a floating-point scalar next to an integer array would be truncated
// (CTest checks the static_assert text).
#include "anycl/anycl.hpp"
#include "anycl/elementwise.hpp"

anycl::array<int> scale(const anycl::array<int>& i) { return i * 0.5; }
