// SPDX-License-Identifier: Apache-2.0
// An asynchronous pipeline on two queues: one uploads chunks while the other computes and
// downloads the chunks already there; events carry the dependencies between the queues.
//
//   05_async_pipeline [CL_DIR]    CL_DIR holds saxpy.cl (default: the examples' cl/ folder)
#include <anycl/anycl.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  const anycl::device dev = anycl::select_device();
  anycl::context ctx(dev);  // both queues share one context: buffers, events
  anycl::command_queue upload(ctx, dev), compute(ctx, dev);
  anycl::loader_options options;
  options.search_path = {argc > 1 ? argv[1] : EXAMPLE_CL_DIR};
  auto saxpy =
      anycl::kernel_loader(ctx, options)
          .function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
              "saxpy.cl", "saxpy");

  const cl_uint chunks = 8, chunk = 1 << 18;
  std::vector<float> x(std::size_t{chunks} * chunk), y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i % 4096);
    y[i] = 1.0f;
  }
  const auto start = std::chrono::steady_clock::now();
  // Nothing below blocks: the host enqueues everything, then waits for the reads only.
  std::vector<anycl::pending_read<float>> reads;
  std::vector<anycl::buffer> buffers;  // kept until the end, as the commands use them
  for (cl_uint c = 0; c < chunks; ++c) {
    // One buffer pair per chunk (a kernel argument is a whole buffer, not a view with an offset).
    anycl::buffer dx(ctx, chunk * sizeof(float)), dy(ctx, chunk * sizeof(float));
    buffers.insert(buffers.end(), {dx, dy});
    auto part = [&](const std::vector<float>& v) {
      return std::vector<float>(v.begin() + std::size_t{c} * chunk,
                                v.begin() + std::size_t{c + 1} * chunk);
    };
    // The upload queue keeps the host data alive until each write completes.
    anycl::event wx = upload.enqueue_write(anycl::buffer_view<float>(dx), part(x));
    anycl::event wy = upload.enqueue_write(anycl::buffer_view<float>(dy), part(y));
    // The compute queue waits for this chunk's writes only: chunk c + 1 uploads meanwhile.
    anycl::event k = saxpy(compute, anycl::nd_range{chunk}, {wx, wy}, chunk, 0.5f, dx, dy);
    reads.push_back(compute.enqueue_read(anycl::buffer_view<const float>(dy), k));
  }
  upload.flush();
  compute.flush();

  std::vector<float> result;
  for (auto& r : reads) {
    std::vector<float> part = r.get();
    result.insert(result.end(), part.begin(), part.end());
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  for (std::size_t i = 0; i < x.size(); ++i)
    if (result[i] != 0.5f * x[i] + y[i]) {  // exact: x[i] / 2 + 1 is representable
      std::fprintf(stderr, "mismatch at %zu: %g, expected %g\n", i, result[i], 0.5f * x[i] + y[i]);
      return 1;
    }
  std::printf("%u chunks of %u floats through upload -> compute -> download in %.1f ms\n", chunks,
              chunk, ms);
  std::printf("pipeline: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
