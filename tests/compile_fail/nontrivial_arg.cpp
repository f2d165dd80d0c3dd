// SPDX-License-Identifier: Apache-2.0
// Must not compile: a non-trivially-copyable type as a typed kernel argument.
#include <string>

#include "anycl/anycl.hpp"

void launch_with_string(const anycl::command_queue& q, const anycl::program& p) {
  auto f = p.function<std::string>("k");
  f(q, anycl::nd_range{16}, std::string("x"));
}
