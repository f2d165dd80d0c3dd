// SPDX-License-Identifier: Apache-2.0
// Launch shapes of the array layer: what it knows of a device, and the plan that covers n
// elements with work-items of contiguous chunks (CPU) or grid-stride loops (GPU).
#pragma once

#include <cstddef>

#include "anycl/array.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// What the array layer needs to know about a device, asked once per device and context.
struct device_profile {
  /// The CPU launch shape: on CPU devices, or everywhere under ANYCL_LAUNCH_SHAPE=cpu (gpu: never).
  bool cpu = true;
  cl_uint compute_units = 1;
  std::size_t max_work_group = 1;
  bool fp64 = false;
  cl_ulong local_memory = 0;
  /// -DANYCL_CPU=1 or -DANYCL_GPU=1, and -DANYCL_FP64=1 where the device has doubles.
  build_options options;
};
ANYCL_INTERNAL device_profile profile(const command_queue& queue);

/// A launch over n elements shaped for the device: on a CPU few work-items, each a contiguous
/// chunk (what keeps a CPU's cores and vector units busy); on a GPU many work-items, each a
/// grid-stride loop so neighbouring work-items touch neighbouring elements (coalesced). Kernels
/// walk it with ANYCL_FOR_EACH from cl_kernels/anycl/loop.h.
struct launch_plan {
  std::size_t global = 1;  ///< work-items
  std::size_t local = 1;   ///< work-group size
  std::size_t chunk = 1;   ///< elements per work-item (CPU); 1 on a GPU (stride = global)
  bool cpu = true;
  nd_range range() const { return nd_range(global, local); }
};
/// The plan for `n` elements of `elem_bytes` each on a device of profile `p`.
ANYCL_INTERNAL launch_plan plan_for(const device_profile& p, std::size_t n, std::size_t elem_bytes);
/// The plan for `n` elements of `elem_bytes` each on `queue`'s device.
inline launch_plan plan_launch(const command_queue& queue, std::size_t n,
                               std::size_t elem_bytes = 4) {
  return plan_for(profile(queue), n, elem_bytes);
}
/// Build options every AnyCL library kernel gets on `queue`'s device (device_profile::options).
inline build_options library_options(const command_queue& queue) { return profile(queue).options; }

}  // namespace anycl::detail
