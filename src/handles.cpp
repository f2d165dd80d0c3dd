// SPDX-License-Identifier: Apache-2.0
// Retain and release for every reference-counted cl_* type; nothing is released in a forked child.
#include "anycl/detail/handle.hpp"
#include "process.hpp"

namespace anycl::detail {

#define ANYCL_DEFINE_HANDLE_TRAITS(raw_type, retain_fn, release_fn)      \
  const char* const handle_traits<raw_type>::retain_call = #retain_fn;   \
  const char* const handle_traits<raw_type>::release_call = #release_fn; \
  cl_int handle_traits<raw_type>::retain(raw_type raw) noexcept {        \
    if (in_forked_child()) return CL_SUCCESS;                            \
    return retain_fn(raw);                                               \
  }                                                                      \
  cl_int handle_traits<raw_type>::release(raw_type raw) noexcept {       \
    if (in_forked_child()) return CL_SUCCESS;                            \
    return release_fn(raw);                                              \
  }

ANYCL_DEFINE_HANDLE_TRAITS(cl_device_id, clRetainDevice, clReleaseDevice)
ANYCL_DEFINE_HANDLE_TRAITS(cl_context, clRetainContext, clReleaseContext)
ANYCL_DEFINE_HANDLE_TRAITS(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
ANYCL_DEFINE_HANDLE_TRAITS(cl_mem, clRetainMemObject, clReleaseMemObject)
ANYCL_DEFINE_HANDLE_TRAITS(cl_program, clRetainProgram, clReleaseProgram)
ANYCL_DEFINE_HANDLE_TRAITS(cl_kernel, clRetainKernel, clReleaseKernel)
ANYCL_DEFINE_HANDLE_TRAITS(cl_event, clRetainEvent, clReleaseEvent)
#undef ANYCL_DEFINE_HANDLE_TRAITS

}  // namespace anycl::detail
