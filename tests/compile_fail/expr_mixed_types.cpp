// SPDX-License-Identifier: Apache-2.0
// Must not compile: arrays of different element types in one expression without cast<U>
// (CTest checks the static_assert text).
#include "anycl/anycl.hpp"
#include "anycl/elementwise.hpp"

anycl::array<float> add_mixed(const anycl::array<float>& x, const anycl::array<int>& i) {
  return x + i;
}
