// SPDX-License-Identifier: Apache-2.0
// What copies of one event share: the cl_event, and the callbacks' pending count and exception.
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>

#include "anycl/detail/handle.hpp"

namespace anycl::detail {

struct event_state {
  handle<cl_event> h;
  std::mutex m;
  std::condition_variable cv;
  int pending = 0;           // callbacks registered through on_complete that have not run yet
  std::exception_ptr error;  // the first exception one of them threw
};

}  // namespace anycl::detail
