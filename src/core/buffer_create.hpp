// SPDX-License-Identifier: Apache-2.0
// clCreateBuffer behind every buffer constructor: the size limits and global-memory accounting
// checked first (catalogue row B-34), then the call.
#pragma once

#include <cstddef>

#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/context.hpp"

namespace anycl::detail {

/// CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY.
cl_mem_flags flags_of(memory_access access);

/// A new cl_mem of `bytes` (> 0) with `flags` and `data` as clCreateBuffer takes them; throws
/// api_error naming the limit a size exceeds, or the driver's status.
cl_mem create_buffer(const context& ctx, std::size_t bytes, cl_mem_flags flags, const void* data);

}  // namespace anycl::detail
