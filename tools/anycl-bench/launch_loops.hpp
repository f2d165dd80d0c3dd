// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the measured launch loops (AnyCL, raw C API, Khronos C++ bindings) over one setup.
#pragma once

#include <cstddef>
#include <functional>

#include "anycl/anycl.hpp"

namespace anycl::bench {

/// What every launch path shares: one context, queue, built program and buffer.
struct fixture {
  anycl::context context;
  anycl::command_queue queue;
  anycl::program program;
  anycl::buffer buffer;     ///< `global` floats, the argument of the one-buffer kernel
  std::size_t global = 64;  ///< work-items per launch
};

/// The OpenCL C 1.2 source of the two kernels below.
extern const char* const kernel_source;

/// Which kernel a loop launches.
enum class kernel_kind {
  empty,      ///< anycl_bench_empty(void): no arguments, nothing to do
  one_buffer  ///< anycl_bench_one(__global float*): one clSetKernelArg per launch
};

/// One way of launching: `launch(n)` enqueues the kernel n times, `finish()` waits for the queue
/// (clFinish), each in that library's own idiom. Both throw on failure.
struct launch_loop {
  std::function<void(std::size_t launches)> launch;
  std::function<void()> finish;
  explicit operator bool() const { return static_cast<bool>(launch); }
};

/// Typed AnyCL launches: `f(queue, anycl::nd_range{global}, buf)`, the returned event dropped.
launch_loop anycl_loop(const fixture& f, kernel_kind k);
/// clSetKernelArg + clEnqueueNDRangeKernel asking for an event, then clReleaseEvent.
launch_loop raw_loop(const fixture& f, kernel_kind k);
/// cl::KernelFunctor calls; an empty loop when built without <CL/opencl.hpp>.
launch_loop clhpp_loop(const fixture& f, kernel_kind k);
/// Whether this build has the Khronos C++ bindings (clhpp_loop is not empty).
bool clhpp_available();

}  // namespace anycl::bench
