// SPDX-License-Identifier: Apache-2.0
// Must not compile: for_each_part with a function whose parameters do not take one part of each
// partitioned array (CTest checks the static_assert text).
#include "anycl/partitioned_array.hpp"

void run(const anycl::partitioned_array<float>& x) {
  anycl::for_each_part([](const anycl::array<int>&) {}, x);
}
