// SPDX-License-Identifier: Apache-2.0
// What the queue's transfer files and command buffers share: the empty-queue check, the waits of
// blocking and zero-size transfers, and the checks of copies and fills.
#pragma once

#include <cstddef>

#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"

namespace anycl::detail {

/// Throws std::invalid_argument for an empty queue (and refuses a forked child's handles).
void require(const command_queue& q);
/// Waits for the event of a blocking transfer `call`, and releases it on every path.
void wait_raw(const char* call, cl_event ev);
/// A zero-size transfer is a no-op that still respects its wait list.
void wait_list_only(const wait_list& waits);
/// The cl_map_flags of `access`.
cl_map_flags map_flags(map_access access);
/// The checks of a buffer copy before the driver: both ranges inside their buffers, no overlap
/// within one buffer (std::out_of_range, std::invalid_argument).
void check_copy(const buffer& src, std::size_t src_offset, const buffer& dst,
                std::size_t dst_offset, std::size_t bytes);
/// The checks of a fill's pattern: a power of two up to 128 bytes dividing `offset` and `bytes`,
/// and pattern memory (`what` names the caller).
void check_pattern(const char* what, std::size_t offset, std::size_t bytes, const void* pattern,
                   std::size_t pattern_size);
/// The checks of a fill: the range, a pattern of a power of two up to 128 bytes dividing offset
/// and size, and pattern memory.
void check_fill(const buffer& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                std::size_t pattern_size);

}  // namespace anycl::detail
