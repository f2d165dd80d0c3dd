// SPDX-License-Identifier: Apache-2.0
// Several devices at once: a device_group over every device a spec selects (one queue each), a
// weight measured on each device, and parallel_for_each_device running saxpy from a .cl file on
// every device's share at the same time; each share lands in its slice of one host vector.
//
//   11_several_devices [SPEC [CL_DIR]]    SPEC defaults to 'all' (every device of every platform)
//   POCL_DEVICES="pthread pthread" 11_several_devices pthread     two CPU devices from POCL
#include <anycl/anycl.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  const auto group = anycl::device_group::from_spec(argc > 1 ? argv[1] : "all");
  anycl::loader_options options;
  options.search_path = {argc > 2 ? argv[2] : EXAMPLE_CL_DIR};
  // One loader per context: devices of one platform share a context, and so the built program.
  std::vector<anycl::kernel_loader> loaders;
  for (const anycl::context& c : group.contexts()) loaders.emplace_back(c, options);

  const cl_uint n = 1 << 22;
  std::vector<float> x(n), y(n), result(n);
  for (cl_uint i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1024);
    y[i] = static_cast<float>(i % 3);
  }
  // A faster device gets a larger share: elements per second of y = 2x + y on each device.
  const std::vector<double> weights = anycl::measure_weights(group);

  std::vector<anycl::index_range> shares(group.size());
  anycl::parallel_for_each_device(
      group, n, weights, [&](std::size_t i, const anycl::command_queue& q, anycl::index_range r) {
        anycl::kernel_loader* loader = &loaders[0];
        for (auto& l : loaders)
          if (l.context() == q.context()) loader = &l;  // read-only: safe on every thread
        auto saxpy = loader->function<cl_uint, float, anycl::buffer_view<const float>,
                                      anycl::buffer_view<float>>("saxpy.cl", "saxpy");
        const auto count = static_cast<cl_uint>(r.size());
        const std::size_t bytes = r.size() * sizeof(float);
        anycl::buffer dx(q.context(), x.data() + r.begin, bytes);
        anycl::buffer dy(q.context(), y.data() + r.begin, bytes);
        anycl::event k = saxpy(q, anycl::nd_range{count}, count, 2.0f, dx, dy);
        q.read(anycl::buffer_view<const float>(dy), result.data() + r.begin, {k});
        shares[i] = r;  // a slot per device: no lock needed
      });

  for (std::size_t i = 0; i < group.size(); ++i)
    std::printf("%-40s weight %10.3g  elements %8zu to %8zu\n", group.device(i).name().c_str(),
                weights[i], shares[i].begin, shares[i].end);
  for (cl_uint i = 0; i < n; ++i)
    if (result[i] != 2.0f * x[i] + y[i]) {
      std::fprintf(stderr, "mismatch at %u: %g, expected %g\n", i, result[i], 2.0f * x[i] + y[i]);
      return 1;
    }
  std::printf("%zu device(s) computed saxpy of %u floats: ok\n", group.size(), n);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
