// SPDX-License-Identifier: Apache-2.0
// Several devices at once: every device a spec selects takes a share of the work, in proportion
// to its compute units, with a context, queue and kernel of its own; the host joins the parts.
//
//   11_several_devices [SPEC [CL_DIR]]    SPEC defaults to 'all' (every device of every platform)
//   POCL_DEVICES="pthread pthread" 11_several_devices cpu     two CPU devices from POCL
#include <anycl/anycl.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  const std::vector<anycl::device> devices = anycl::select_devices(argc > 1 ? argv[1] : "all");
  anycl::loader_options options;
  options.search_path = {argc > 2 ? argv[2] : EXAMPLE_CL_DIR};

  const cl_uint n = 1 << 22;
  std::vector<float> x(n), y(n);
  for (cl_uint i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1024);
    y[i] = static_cast<float>(i % 3);
  }
  cl_uint units = 0;
  for (const anycl::device& d : devices) units += d.compute_units();

  // Enqueue every device's share first, then collect: the devices run at the same time.
  struct part {
    anycl::command_queue queue;
    anycl::buffer x, y;  // kept until the results are in
    cl_uint begin, count;
    anycl::pending_read<float> result;
  };
  std::vector<part> parts;
  cl_uint begin = 0, units_before = 0;
  for (std::size_t d = 0; d < devices.size(); ++d) {
    units_before += devices[d].compute_units();
    const cl_uint end =
        d + 1 == devices.size() ? n : static_cast<cl_uint>(std::uint64_t{n} * units_before / units);
    const cl_uint count = end - begin;
    anycl::command_queue q(devices[d]);  // a context each: devices may be of other platforms
    auto saxpy =
        anycl::kernel_loader(q.context(), options)
            .function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
                "saxpy.cl", "saxpy");
    std::vector<float> xs(x.begin() + begin, x.begin() + end);
    std::vector<float> ys(y.begin() + begin, y.begin() + end);
    auto dx = anycl::buffer::from(q.context(), xs), dy = anycl::buffer::from(q.context(), ys);
    anycl::event k = saxpy(q, anycl::nd_range{count}, count, 2.0f, dx, dy);
    parts.push_back(
        {q, dx, dy, begin, count, q.enqueue_read(anycl::buffer_view<const float>(dy), k)});
    q.flush();
    begin = end;
  }
  std::vector<float> result(n);
  for (part& p : parts) {
    std::vector<float> r = p.result.get();
    std::copy(r.begin(), r.end(), result.begin() + p.begin);
    std::printf("%-40s elements %8u to %8u\n", p.queue.device().name().c_str(), p.begin,
                p.begin + p.count);
  }
  for (cl_uint i = 0; i < n; ++i)
    if (result[i] != 2.0f * x[i] + y[i]) {
      std::fprintf(stderr, "mismatch at %u: %g, expected %g\n", i, result[i], 2.0f * x[i] + y[i]);
      return 1;
    }
  std::printf("%zu device(s) computed saxpy of %u floats: ok\n", devices.size(), n);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
