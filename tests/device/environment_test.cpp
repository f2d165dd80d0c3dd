// SPDX-License-Identifier: Apache-2.0
// Tests that need a special environment; CTest runs each in its own process with it set.
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

TEST_CASE("platform: no platform gives install advice", "[.no_platform]") {
  REQUIRE(std::getenv("OCL_ICD_VENDORS") != nullptr);
  const std::string vendors = std::getenv("OCL_ICD_VENDORS");
  REQUIRE_THROWS_WHAT(anycl::platform::all(), anycl::no_platform_error,
                      Contains("CL_PLATFORM_NOT_FOUND_KHR (-1001)") &&
                          Contains("pocl-opencl-icd") && Contains("OCL_ICD_VENDORS=" + vendors));
  REQUIRE_THROWS_AS(anycl::select_device(), anycl::no_platform_error);
  try {
    anycl::select_device("cpu");
  } catch (const anycl::api_error& err) {
    CHECK(err.status() == -1001);
    CHECK(err.call() == "clGetPlatformIDs");
  }
}

TEST_CASE("context: one context over two devices builds and runs on both", "[.multi]") {
  auto devs = anycl::select_devices("all");
  REQUIRE(devs.size() >= 2);  // POCL_DEVICES="pthread pthread"
  CHECK(anycl::select_device("0:1") == devs[1]);
  REQUIRE_THROWS_WHAT(anycl::command_queue(anycl::context(devs[0]), devs[1]), std::invalid_argument,
                      Contains("not a device of the context"));
  anycl::context ctx(std::vector<anycl::device>{devs[0], devs[1]});
  CHECK(ctx.devices().size() == 2);
  auto prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
  CHECK(prog.binaries().size() == 2);
  for (int d = 0; d < 2; ++d) {
    anycl::command_queue q(ctx, devs[d]);
    anycl::buffer out(ctx, 32 * sizeof(int));
    q.launch(prog.kernel("affine"), anycl::nd_range{32}, out, d + 2);
    auto v = q.read(anycl::buffer_view<int>(out));
    for (int i = 0; i < 32; ++i) CHECK(v[i] == (d + 2) * i);
  }
  // A failed build carries one log per device.
  anycl::program bad(ctx, anycl::test::read_source("tests/cl_kernels/broken.cl"), "broken.cl");
  try {
    bad.build();
    FAIL("broken.cl built");
  } catch (const anycl::build_error& err) {
    CHECK(err.logs().size() == 2);
  }
  // Building for one chosen device only.
  anycl::program one(ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
  one.build({}, {devs[1]});
  anycl::command_queue q1(ctx, devs[1]);
  anycl::buffer out(ctx, 4 * sizeof(int));
  q1.launch(one.kernel("affine"), anycl::nd_range{4}, out, 5);
  CHECK(q1.read(anycl::buffer_view<int>(out)) == std::vector<int>{0, 5, 10, 15});
}
