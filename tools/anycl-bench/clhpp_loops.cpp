// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the same launches through the Khronos C++ bindings (cl::KernelFunctor).
#include "launch_loops.hpp"

#if __has_include(<CL/opencl.hpp>)
#define ANYCL_BENCH_HAVE_CLHPP 1
#define CL_HPP_TARGET_OPENCL_VERSION 300
// 110, not 120: Debian 12's opencl.hpp does not compile with minimum 120 and target 300
// (getContextPlatformVersion is missing; KhronosGroup/OpenCL-CLHPP#108, fixed upstream by #245).
// Nothing measured here depends on it: the loops only set arguments, enqueue and finish.
#define CL_HPP_MINIMUM_OPENCL_VERSION 110
#define CL_HPP_ENABLE_EXCEPTIONS
// opencl.hpp is not ours: its warnings must not fail a -Werror build.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <CL/opencl.hpp>
#pragma GCC diagnostic pop
#endif

namespace anycl::bench {

#ifdef ANYCL_BENCH_HAVE_CLHPP
launch_loop clhpp_loop(const fixture& f, kernel_kind k) {
  // Written as CLHPP's documentation does: an EnqueueArgs per call and the returned cl::Event
  // dropped. The functor takes its arguments by value, so each call copies (retains and releases)
  // the cl::Buffer, and EnqueueArgs copies the queue; that is the peer's own cost.
  const cl::Program program(f.program.get(), true);
  cl::CommandQueue queue(f.queue.get(), true);  // EnqueueArgs wants a non-const reference
  const std::size_t global = f.global;
  launch_loop l;
  l.finish = [queue] { queue.finish(); };
  if (k == kernel_kind::empty) {
    cl::KernelFunctor<> fn(program, "anycl_bench_empty");
    l.launch = [fn, queue, global](std::size_t launches) mutable {
      for (std::size_t i = 0; i < launches; ++i) fn(cl::EnqueueArgs(queue, cl::NDRange(global)));
    };
  } else {
    cl::KernelFunctor<cl::Buffer> fn(program, "anycl_bench_one");
    const cl::Buffer buf(f.buffer.get(), true);
    l.launch = [fn, queue, buf, global](std::size_t launches) mutable {
      for (std::size_t i = 0; i < launches; ++i)
        fn(cl::EnqueueArgs(queue, cl::NDRange(global)), buf);
    };
  }
  return l;
}
bool clhpp_available() { return true; }
#else
launch_loop clhpp_loop(const fixture&, kernel_kind) { return {}; }
bool clhpp_available() { return false; }
#endif

}  // namespace anycl::bench
