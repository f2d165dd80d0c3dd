// SPDX-License-Identifier: Apache-2.0
// Must not compile (catalogue row B-37): read-only and write-only at once; memory_access is one
// value, not a set of CL_MEM_* bits, so the contradiction cannot be written.
#include "anycl/anycl.hpp"

anycl::buffer make(const anycl::context& ctx) {
  return anycl::buffer(ctx, 64, anycl::memory_access::read_only | anycl::memory_access::write_only);
}
