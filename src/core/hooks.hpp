// SPDX-License-Identifier: Apache-2.0
// The once-per-program hook run at the first launch of any of its kernels.
#pragma once

#include <atomic>

#include "anycl/cl.hpp"

namespace anycl::detail {

struct first_launch_hook {
  virtual ~first_launch_hook() = default;
  /// Called by the first launch to claim the hook; later launches see true and skip it.
  std::atomic<bool> fired{false};
  /// `ev` is the launch's event (the callee retains it if it keeps it). Never throws.
  virtual void launched(cl_event ev) noexcept = 0;
};

}  // namespace anycl::detail
