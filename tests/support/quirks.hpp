// SPDX-License-Identifier: Apache-2.0
// Known driver bugs the device tests work around, as named predicates with the upstream report.
#pragma once

#include <string>

#include "anycl/device.hpp"

namespace anycl::test::quirks {

inline bool is_pocl(const anycl::device& d) {
  return d.platform().name().find("Portable Computing Language") != std::string::npos;
}

/// POCL 3.1 never calls the CL_COMPLETE callbacks of a user event set to a negative status (the
/// spec says they run on failure too), so their data is never freed.
inline bool no_callbacks_on_failed_user_event(const anycl::device& d) { return is_pocl(d); }

}  // namespace anycl::test::quirks
