// SPDX-License-Identifier: Apache-2.0
// The checks of a launch against what the device and the kernel allow, made before the driver
// sees it.
#pragma once

#include <cstdint>

#include "anycl/nd_range.hpp"
#include "core/internal.hpp"
#include "core/kernel_state.hpp"

namespace anycl::detail {

/// Checks a launch before the driver sees it (drivers abort or run forever on some of these):
/// work-item cap, offset overflow, divisibility, local limits, and `local_arg_bytes` of __local
/// arguments against local memory. Throws std::invalid_argument / std::out_of_range; `kernel` names
/// the kernel in messages.
ANYCL_INTERNAL void validate_launch(const nd_range& r, const launch_limits& limits,
                                    std::uint64_t local_arg_bytes, const char* kernel);

}  // namespace anycl::detail
