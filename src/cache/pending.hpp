// SPDX-License-Identifier: Apache-2.0
// Saves of cache entries that run when a launch completes, and waiting for them (at exit and in
// anycl::wait_for_cache_writes).
#pragma once

#include <memory>

#include "anycl/cl.hpp"

namespace anycl::detail {

/// A save that runs when a launch completes (its CL_COMPLETE callback); exit and
/// wait_for_cache_writes() wait for every one begun. A driver may never run the callback of a
/// launch that failed because a command it waited for failed (POCL 3.1 does not), so the waiters
/// also look at the launch and abandon the save of one that failed.
struct pending_save {
  virtual ~pending_save() = default;
  /// Releases what the save holds; called at most once, when it will not run.
  virtual void abandon() noexcept = 0;
  cl_event launch = nullptr;  ///< kept valid by the save until it ends or is abandoned
};
/// Registers a save whose callback gets `save.get()`; throws std::bad_alloc.
void begin_pending_write(std::shared_ptr<pending_save> save);
/// For the callback: the save when it is to run now (end it afterwards), or null when it was
/// abandoned (then it is forgotten here).
std::shared_ptr<pending_save> claim_pending_write(pending_save* save) noexcept;
/// The save ran, or its callback could not be set.
void end_pending_write(pending_save* save) noexcept;

}  // namespace anycl::detail
