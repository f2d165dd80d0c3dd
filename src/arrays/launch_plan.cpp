// SPDX-License-Identifier: Apache-2.0
// Launch plans: how many work-items, of which chunk or stride, cover n elements on a device.
#include <algorithm>

#include "anycl/array.hpp"
#include "arrays/launch_plan.hpp"

namespace anycl::detail {

launch_plan plan_for(const device_profile& p, std::size_t n, std::size_t elem_bytes) {
  launch_plan plan;
  plan.cpu = p.cpu;
  if (n == 0) return plan;
  if (p.cpu) {
    // Each work-item a contiguous chunk of at least 16 KiB, at most 4 chunks per core.
    const std::size_t min_chunk =
        std::max<std::size_t>(64, 16384 / std::max<std::size_t>(1, elem_bytes));
    std::size_t items =
        std::min<std::size_t>((n + min_chunk - 1) / min_chunk, std::size_t{4} * p.compute_units);
    items = std::max<std::size_t>(1, items);
    std::size_t chunk = (n + items - 1) / items;
    chunk = (chunk + 15) / 16 * 16;
    plan.chunk = chunk;
    plan.global = (n + chunk - 1) / chunk;
    plan.local = 1;
  } else {
    plan.local = std::min<std::size_t>(256, p.max_work_group);
    std::size_t groups = (n + plan.local - 1) / plan.local;
    groups = std::min<std::size_t>(groups, std::size_t{16} * p.compute_units);
    plan.global = std::max<std::size_t>(1, groups) * plan.local;
    plan.chunk = 1;
  }
  return plan;
}

}  // namespace anycl::detail
