// SPDX-License-Identifier: Apache-2.0
// Must not compile: a raw host pointer as a kernel argument (CTest checks the static_assert text).
#include "anycl/anycl.hpp"

void launch_with_pointer(const anycl::command_queue& q, const anycl::kernel& k, float* p) {
  q.launch(k, anycl::nd_range{16}, p);
}
