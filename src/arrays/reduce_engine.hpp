// SPDX-License-Identifier: Apache-2.0
// The reduction engine: the source it generates for a reduction_spec and its two-kernel launch.
#pragma once

#include <cstddef>
#include <string>

#include "anycl/reduce.hpp"
#include "arrays/launch_plan.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// The OpenCL C source the engine builds for `spec`.
ANYCL_INTERNAL std::string reduction_source(const reduction_spec& spec);

/// Reduces elements 0..n-1 of `spec` on `queue`: `args` (`count` of them) are the values of
/// spec.params in order, the kernel waits for `deps`, and the result (spec.acc_size bytes) is
/// written to element `out_index` of `out` (a buffer of acc_type elements). Two kernels: one
/// partial per work-item (CPU shape: detail::plan_launch's contiguous chunks) or per work-group
/// (GPU shape: grid-stride loops and a local-memory tree), then one work-group combines the
/// partials pairwise on the device (skipped when there is one). `plan` overrides plan_launch (a
/// GPU-shaped plan runs the GPU code on any device). Returns the last kernel's event: callers
/// record() it on every array they passed. Throws build_error for bad expressions,
/// std::invalid_argument for an empty spec field.
ANYCL_INTERNAL event enqueue_reduction(const command_queue& queue, const reduction_spec& spec,
                                       std::size_t n, kernel_arg* args, std::size_t count,
                                       const wait_list& deps, const anycl::buffer& out,
                                       std::size_t out_index, const launch_plan* plan = nullptr);
/// enqueue_reduction into a scratch buffer, then a blocking read of the result into `result`
/// (spec.acc_size bytes). Returns the reduction's event (complete on return).
ANYCL_INTERNAL event run_reduction(const command_queue& queue, const reduction_spec& spec,
                                   std::size_t n, kernel_arg* args, std::size_t count,
                                   const wait_list& deps, void* result,
                                   const launch_plan* plan = nullptr);

}  // namespace anycl::detail
