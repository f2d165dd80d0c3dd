// SPDX-License-Identifier: Apache-2.0
// ANYCL_LAUNCH_SHAPE: which launch shape the array layer gives every algorithm (the CPU shape of
// few work-items with contiguous chunks, or the GPU shape of work-groups, local-memory trees and
// grid-stride loops), so that either can run on any device.
#pragma once

#include "anycl/device.hpp"

namespace anycl::detail {

enum class launch_shape { automatic, cpu, gpu };

/// ANYCL_LAUNCH_SHAPE: unset or empty or "auto" = automatic, "cpu", "gpu"; anything else throws
/// std::invalid_argument naming the value and the valid ones.
launch_shape launch_shape_from_env();

/// True where the array layer takes the CPU shape on `dev` under `shape` (automatic: the CPU
/// shape on CPU devices only).
bool takes_cpu_shape(launch_shape shape, const device& dev);

}  // namespace anycl::detail
