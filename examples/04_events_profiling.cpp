// SPDX-License-Identifier: Apache-2.0
// Events: dependencies between commands, a host-controlled gate, callbacks and profiling times.
//
//   04_events_profiling [CL_DIR]    CL_DIR holds saxpy.cl (default: the examples' cl/ folder)
#include <anycl/anycl.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  // Profiling times need a queue made with profiling on; out_of_order lets commands run as soon
  // as the events they wait for complete, so the wait lists below are the only ordering.
  anycl::queue_properties props;
  props.profiling = true;
  props.out_of_order = true;
  anycl::command_queue q(anycl::select_device(), props);
  anycl::loader_options options;
  options.search_path = {argc > 1 ? argv[1] : EXAMPLE_CL_DIR};
  auto saxpy =
      anycl::kernel_loader(q.context(), options)
          .function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
              "saxpy.cl", "saxpy");

  const cl_uint n = 1 << 22;
  anycl::buffer x(q.context(), n * sizeof(float)), y(q.context(), n * sizeof(float));

  // A user event is completed by the host: nothing that waits for it starts before.
  anycl::user_event gate(q.context());
  anycl::event wx =
      q.enqueue_write(anycl::buffer_view<float>(x), std::vector<float>(n, 1.0f), gate);
  anycl::event wy =
      q.enqueue_write(anycl::buffer_view<float>(y), std::vector<float>(n, 2.0f), gate);
  anycl::event k = saxpy(q, anycl::nd_range{n}, {wx, wy}, n, 3.0f, x, y);  // after both writes
  auto read = q.enqueue_read(anycl::buffer_view<const float>(y), k);

  std::atomic<bool> called{false};
  k.on_complete([&](cl_int status) { called = (status == CL_COMPLETE); });
  q.flush();
  const bool held = k.status() != anycl::event_status::complete;  // the gate is still closed
  gate.set_complete();
  std::vector<float> result = read.get();  // waits for the read, which waits for the kernel
  k.wait();                                // also waits for the callback to have run

  for (cl_uint i = 0; i < n; ++i)
    if (result[i] != 3.0f * 1.0f + 2.0f) {
      std::fprintf(stderr, "mismatch at %u: %g, expected 5\n", i, result[i]);
      return 1;
    }
  if (!held || !called) {
    std::fprintf(stderr, "the gate did not hold the kernel, or the callback did not run\n");
    return 1;
  }
  // Device times (ns on the device clock) for each command, after it completed.
  auto us = [](std::chrono::nanoseconds t) { return static_cast<double>(t.count()) / 1e3; };
  std::printf("write x  %9.1f us\n", us(wx.duration()));
  std::printf("write y  %9.1f us\n", us(wy.duration()));
  std::printf("saxpy    %9.1f us (%.2f GB/s)\n", us(k.duration()),
              3.0 * n * sizeof(float) / static_cast<double>(k.duration().count()));
  std::printf("read y   %9.1f us\n", us(read.event().duration()));
  std::printf("kernel started %.1f us after the later write ended\n",
              us(k.start_time() - std::max(wx.end_time(), wy.end_time())));
  std::printf("events: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
