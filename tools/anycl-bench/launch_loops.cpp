// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the AnyCL and raw C API launch loops, written the way a user of each would.
#include <stdexcept>
#include <string>

#include "launch_loops.hpp"

namespace anycl::bench {

const char* const kernel_source = R"CLC(
__kernel void anycl_bench_empty(void) {}

__kernel void anycl_bench_one(__global float* a) { a[get_global_id(0)] += 1.0f; }
)CLC";

namespace {

const char* kernel_name(kernel_kind k) {
  return k == kernel_kind::empty ? "anycl_bench_empty" : "anycl_bench_one";
}

// Kept out of line so the raw loop's fast path stays as small as hand-written C.
[[noreturn]] __attribute__((noinline)) void raw_failed(const char* call, cl_int status) {
  throw std::runtime_error(std::string("raw path: ") + call +
                           " failed: " + std::string(anycl::status_name(status)) + " (" +
                           std::to_string(status) + ")");
}

inline void raw_check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) raw_failed(call, status);
}

}  // namespace

launch_loop anycl_loop(const fixture& f, kernel_kind k) {
  // Each launch builds its nd_range and drops the returned event, as user code does.
  const anycl::command_queue queue = f.queue;
  const std::size_t global = f.global;
  launch_loop l;
  l.finish = [queue] { queue.finish(); };
  if (k == kernel_kind::empty) {
    auto fn = f.program.function<>(kernel_name(k));
    l.launch = [fn, queue, global](std::size_t launches) {
      for (std::size_t i = 0; i < launches; ++i) fn(queue, anycl::nd_range{global});
    };
  } else {
    auto fn = f.program.function<anycl::buffer>(kernel_name(k));
    const anycl::buffer buf = f.buffer;
    l.launch = [fn, queue, buf, global](std::size_t launches) {
      for (std::size_t i = 0; i < launches; ++i) fn(queue, anycl::nd_range{global}, buf);
    };
  }
  return l;
}

launch_loop raw_loop(const fixture& f, kernel_kind k) {
  // AnyCL always returns an event, so the raw path asks for one too and releases it at once: both
  // sides pay for event creation and release. (Passing a null event pointer would be the cheapest
  // raw launch; it is not what AnyCL does, so it would not compare like with like.) The argument is
  // set on every launch, as AnyCL does. The anycl:: objects captured below only keep the OpenCL
  // objects alive; the loops use the raw handles alone.
  const anycl::kernel owner(f.program, kernel_name(k));
  const anycl::command_queue queue_owner = f.queue;
  const anycl::buffer buffer_owner = f.buffer;
  const cl_kernel kernel = owner.get();
  const cl_command_queue queue = f.queue.get();
  const cl_mem mem = f.buffer.get();
  const std::size_t global = f.global;
  launch_loop l;
  l.finish = [queue_owner, queue] { raw_check(clFinish(queue), "clFinish"); };
  if (k == kernel_kind::empty) {
    l.launch = [owner, queue_owner, kernel, queue, global](std::size_t launches) {
      for (std::size_t i = 0; i < launches; ++i) {
        cl_event ev = nullptr;
        raw_check(
            clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel");
        raw_check(clReleaseEvent(ev), "clReleaseEvent");
      }
    };
  } else {
    l.launch = [owner, queue_owner, buffer_owner, kernel, queue, mem,
                global](std::size_t launches) {
      for (std::size_t i = 0; i < launches; ++i) {
        raw_check(clSetKernelArg(kernel, 0, sizeof(cl_mem), &mem), "clSetKernelArg");
        cl_event ev = nullptr;
        raw_check(
            clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &ev),
            "clEnqueueNDRangeKernel");
        raw_check(clReleaseEvent(ev), "clReleaseEvent");
      }
    };
  }
  return l;
}

}  // namespace anycl::bench
