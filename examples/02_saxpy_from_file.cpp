// SPDX-License-Identifier: Apache-2.0
// saxpy from a .cl file shipped next to the program, found by kernel_loader on its search path.
//
//   02_saxpy_from_file [CL_DIR]    CL_DIR holds saxpy.cl (default: the examples' cl/ folder)
#include <anycl/anycl.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR  // set by examples/CMakeLists.txt; point it at your own kernel folder
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  const std::string cl_dir = argc > 1 ? argv[1] : EXAMPLE_CL_DIR;
  anycl::command_queue q(anycl::select_device());  // ANYCL_DEVICE, else the best device

  // The loader looks in search_path first, then ANYCL_KERNEL_PATH and AnyCL's own kernels. It
  // caches the built binary on disk (ANYCL_CACHE_DIR), so the second run skips the compiler.
  anycl::loader_options options;
  options.search_path = {cl_dir};
  anycl::kernel_loader loader(q.context(), options);
  std::printf("saxpy.cl found at %s\n", loader.locate("saxpy.cl").c_str());

  // The argument types are checked against the kernel's parameter count once, here; each call
  // converts its arguments to them (a raw pointer or a bool does not compile).
  auto saxpy =
      loader.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "saxpy.cl", "saxpy");

  const cl_uint n = 1 << 20;
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (cl_uint i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.001f;
    y[i] = static_cast<float>(i % 7);
  }
  auto dx = anycl::buffer::from(q.context(), x, anycl::memory_access::read_only);
  auto dy = anycl::buffer::from(q.context(), y);

  anycl::event done = saxpy(q, anycl::nd_range{n}, n, a, dx, dy);
  std::vector<float> result = q.read(anycl::buffer_view<float>(dy), {done});

  // The host computes the same thing; fma contraction may differ by one rounding.
  for (cl_uint i = 0; i < n; ++i) {
    const float expected = a * x[i] + y[i];
    if (std::fabs(result[i] - expected) > 1e-6f * (1.0f + std::fabs(expected))) {
      std::fprintf(stderr, "mismatch at %u: %g, expected %g\n", i, result[i], expected);
      return 1;
    }
  }
  std::printf("saxpy of %u floats: y[1] = %g, y[n-1] = %g: ok\n", n, result[1], result[n - 1]);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
