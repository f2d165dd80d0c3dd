// SPDX-License-Identifier: Apache-2.0
// Must not compile (catalogue row B-24): a typed kernel call with an argument left unset.
#include "anycl/anycl.hpp"

void launch_missing(const anycl::command_queue& q, const anycl::program& p,
                    const anycl::buffer& b) {
  auto f = p.function<anycl::buffer_view<int>, int>("affine");
  f(q, anycl::nd_range{16}, b);
}
