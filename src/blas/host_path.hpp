// SPDX-License-Identifier: Apache-2.0
// anycl::blas on the host's CBLAS: a checked call, as a native kernel of its queue. Private to
// src/blas.
#pragma once

#include "anycl/command_queue.hpp"
#include "anycl/event.hpp"
#include "blas/call.hpp"

namespace anycl::detail {

/// Whether the call goes to the host's CBLAS: blas::uses_host_library(queue's device) and every
/// size, leading dimension and increment of the plan fits CBLAS's int.
bool host_path_serves(const blas_call& c, const blas_plan& p, const command_queue& queue);

/// Enqueues c's CBLAS call after `waits` on `queue`; its event completes when the result is in
/// the buffers.
event enqueue_host_blas(const blas_call& c, const blas_plan& p, const command_queue& queue,
                        const wait_list& waits);

}  // namespace anycl::detail
