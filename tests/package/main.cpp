// SPDX-License-Identifier: Apache-2.0
// A program that uses AnyCL as a dependency (find_package, add_subdirectory, FetchContent or
// pkg-config): runs a kernel from its own .cl file, found on the loader's search path
// (CONSUMER_KERNEL_DIR), and one from AnyCL's shipped kernels, and checks both against the host.
// argv[1], when given, is where anycl/demo.cl must be found.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"

#ifndef CONSUMER_KERNEL_DIR
#error "CONSUMER_KERNEL_DIR must name the folder holding consumer/poly.cl"
#endif

namespace {

bool check(const char* what, const std::vector<float>& got, const std::vector<float>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-4f * (1.0f + std::fabs(want[i]))) {
      std::fprintf(stderr, "consumer: %s[%zu] = %g, expected %g\n", what, i, got[i], want[i]);
      return false;
    }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    anycl::command_queue q = anycl::command_queue::from_spec("all");
    anycl::context ctx = q.context();
    anycl::loader_options options;
    options.search_path = {CONSUMER_KERNEL_DIR};
    anycl::kernel_loader loader(ctx, options);

    const cl_uint n = 1000;
    std::vector<float> x(n), y(n);
    for (cl_uint i = 0; i < n; ++i) {
      x[i] = 0.01f * static_cast<float>(i) - 4.0f;
      y[i] = static_cast<float>(i % 7);
    }
    auto xb = anycl::buffer::from(ctx, x);

    // The consumer's own kernel.
    const std::string own = loader.locate("consumer/poly.cl");
    anycl::buffer pb(ctx, n * sizeof(float));
    auto poly = loader.load("consumer/poly.cl")
                    .function<cl_uint, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
                        "consumer_poly");
    poly(q, anycl::nd_range{n}, n, xb, pb);
    std::vector<float> want(n);
    for (cl_uint i = 0; i < n; ++i) want[i] = x[i] * x[i] - 3.0f * x[i] + 0.5f;
    if (!check("poly", q.read(anycl::buffer_view<float>(pb)), want)) return 1;

    // A kernel AnyCL ships.
    const std::string shipped = loader.locate("anycl/demo.cl");
    if (argc > 1 && shipped != argv[1]) {
      std::fprintf(stderr, "consumer: anycl/demo.cl found at '%s', expected '%s'\n",
                   shipped.c_str(), argv[1]);
      return 1;
    }
    auto yb = anycl::buffer::from(ctx, y);
    auto saxpy =
        loader.load("anycl/demo.cl")
            .function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
                "anycl_saxpy");
    saxpy(q, anycl::nd_range{n}, n, 2.5f, xb, yb);
    for (cl_uint i = 0; i < n; ++i) want[i] = 2.5f * x[i] + y[i];
    if (!check("saxpy", q.read(anycl::buffer_view<float>(yb)), want)) return 1;

    std::printf("consumer: AnyCL %s on %s; own kernel from %s, shipped kernel from %s\n",
                anycl::version(), q.device().name().c_str(), own.c_str(), shipped.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
