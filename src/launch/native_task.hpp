// SPDX-License-Identifier: Apache-2.0
// Host functions as commands of a queue: the buffers they use are mapped (non-blocking, after the
// wait list), the function runs as a native kernel on the mapped addresses, and the buffers are
// unmapped after it; the returned event completes with the last unmap. On a device that computes
// in host memory the maps copy nothing. The host-library paths of anycl::blas use them.
//
// The addresses come from maps, not from clEnqueueNativeKernel's memory list: POCL 3.1 fills that
// list's addresses in when the command is enqueued, before a buffer has device memory (a buffer
// first used by a pending command gets the address of another one), and refuses sub-buffers.
#pragma once

#include <cstddef>
#include <type_traits>

#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/event.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// Whether a host task may use `b`: it is not empty and its host access is not restricted
/// (CL_MEM_HOST_NO_ACCESS, _READ_ONLY or _WRITE_ONLY forbid the read-write map).
ANYCL_INTERNAL bool host_task_can_map(const anycl::buffer& b);

/// Enqueues fn(copy of the `size` bytes at `args`) after `waits`: before the copy is made, each
/// of `count` buffers is mapped once (a sub-buffer through its parent) and `*addresses[i]` is set
/// to bufs[i]'s first byte. addresses point into args. Throws api_error naming the call that
/// failed, with every map made so far undone.
ANYCL_INTERNAL event enqueue_host_task(const command_queue& q, void (*fn)(void*), void* args,
                                       std::size_t size, std::size_t count,
                                       const anycl::buffer* const* bufs, void** const* addresses,
                                       const wait_list& waits);

/// The typed form: Task is trivially copyable.
template <class Task>
event enqueue_host_task(const command_queue& q, void (*fn)(void*), Task& task, std::size_t count,
                        const anycl::buffer* const* bufs, void** const* addresses,
                        const wait_list& waits) {
  static_assert(std::is_trivially_copyable_v<Task>, "a host task is copied as bytes");
  return enqueue_host_task(q, fn, &task, sizeof task, count, bufs, addresses, waits);
}

}  // namespace anycl::detail
