// SPDX-License-Identifier: Apache-2.0
// Consumer of an installed AnyCL: finds the shipped kernels in the install tree (argv[1] is where
// they must be found), runs saxpy and checks it against the host.
#include <cstdio>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"

int main(int argc, char** argv) {
  try {
    anycl::command_queue q = anycl::command_queue::from_spec("all");
    anycl::context ctx = q.context();
    anycl::kernel_loader loader(ctx);
    const std::string found = loader.locate("anycl/demo.cl");
    if (argc > 1 && found != argv[1]) {
      std::fprintf(stderr, "consumer: anycl/demo.cl found at '%s', expected '%s'\n", found.c_str(),
                   argv[1]);
      return 1;
    }
    anycl::program prog = loader.load("anycl/demo.cl");
    const cl_uint n = 100;
    std::vector<float> x(n, 2.0f), y(n, 1.0f);
    auto xb = anycl::buffer::from(ctx, x), yb = anycl::buffer::from(ctx, y);
    auto saxpy =
        prog.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
            "anycl_saxpy");
    saxpy(q, anycl::nd_range{n}, n, 3.0f, xb, yb);
    for (float v : q.read(anycl::buffer_view<float>(yb)))
      if (v != 7.0f) {
        std::fprintf(stderr, "consumer: wrong result %g\n", v);
        return 1;
      }
    std::printf("consumer: AnyCL %s works from the install tree, kernels from %s\n",
                anycl::version(), found.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
