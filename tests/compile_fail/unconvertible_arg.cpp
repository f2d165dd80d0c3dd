// SPDX-License-Identifier: Apache-2.0
// Must not compile: a buffer passed where the kernel_function declares a scalar.
#include "anycl/anycl.hpp"

void launch_with_wrong_type(const anycl::command_queue& q, const anycl::program& p,
                            const anycl::buffer& b) {
  auto f = p.function<cl_uint>("k");
  f(q, anycl::nd_range{16}, b);
}
