// SPDX-License-Identifier: Apache-2.0
// What the queue's transfer files share: the empty-queue check and the waits of blocking and
// zero-size transfers.
#pragma once

#include "anycl/command_queue.hpp"

namespace anycl::detail {

/// Throws std::invalid_argument for an empty queue (and refuses a forked child's handles).
void require(const command_queue& q);
/// Waits for the event of a blocking transfer `call`, and releases it on every path.
void wait_raw(const char* call, cl_event ev);
/// A zero-size transfer is a no-op that still respects its wait list.
void wait_list_only(const wait_list& waits);

}  // namespace anycl::detail
