// SPDX-License-Identifier: Apache-2.0
// Live-handle accounting: how many OpenCL object references AnyCL's handles own right now, so
// tests (and users hunting a leak) can check that everything was released.
#pragma once

#include <string>

#include "anycl/export.hpp"

namespace anycl::debug {

/// References owned by AnyCL handle objects, per OpenCL object type. A reference counts from the
/// clCreate*/clRetain* that gave it to the handle until the handle's release (failed releases
/// included: the handle no longer owns it).
struct ANYCL_EXPORT handle_counts {
  long devices = 0;
  long contexts = 0;
  long queues = 0;
  long mems = 0;
  long programs = 0;
  long kernels = 0;
  long events = 0;
  long samplers = 0;

  /// The sum over all types.
  long total() const noexcept {
    return devices + contexts + queues + mems + programs + kernels + events + samplers;
  }
  /// "cl_context 1, cl_mem 2" listing the non-zero types; "none" when all are zero.
  std::string to_string() const;
};

/// True when the library was built with ANYCL_HANDLE_COUNTERS (the default); otherwise
/// live_handles() always reads zero.
ANYCL_EXPORT bool handle_counting() noexcept;

/// The references AnyCL's handles own at this moment, across all threads.
ANYCL_EXPORT handle_counts live_handles() noexcept;

}  // namespace anycl::debug
