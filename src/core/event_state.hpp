// SPDX-License-Identifier: Apache-2.0
// What copies of one event share: the cl_event, and the callbacks' pending count and exception.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>

#include "anycl/detail/handle.hpp"

namespace anycl::detail {

/// Exists only for events with callbacks. Guarded by the process-wide callback_sync(): callbacks
/// are rare next to launches, which therefore allocate and lock nothing for them.
struct event_state {
  int pending = 0;           // callbacks registered through on_complete that have not run yet
  std::exception_ptr error;  // the first exception one of them threw
};

struct callback_sync_t {
  std::mutex m;  // guards every event_state's pending and error
  std::condition_variable cv;
};
callback_sync_t& callback_sync();

/// Throws std::logic_error when called from inside an on_complete() callback: OpenCL leaves
/// blocking calls there undefined (catalogue row B-45), and a wait on the callback's own event
/// would never return, as wait() waits for the callbacks too. `what` names the blocking call.
void check_not_in_callback(const char* what);

/// Waits for `ev`; if the command failed, throws api_error{call} with the command's own status
/// (clWaitForEvents only says that some event failed) and `detail`.
void wait_for_event(cl_event ev, const char* call, const char* detail);

}  // namespace anycl::detail
