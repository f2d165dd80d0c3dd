// SPDX-License-Identifier: Apache-2.0
// Platforms, devices, typed queries and sub-devices on the device under test.
#include <algorithm>
#include <string>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {
std::string raw_device_string(cl_device_id id, cl_device_info param) {
  std::size_t size = 0;
  REQUIRE(clGetDeviceInfo(id, param, 0, nullptr, &size) == CL_SUCCESS);
  std::string s(size, '\0');
  REQUIRE(clGetDeviceInfo(id, param, size, &s[0], nullptr) == CL_SUCCESS);
  s.resize(s.find('\0'));
  return s;
}
}  // namespace

TEST_CASE("platform: all() lists every platform the loader reports", "[platform]") {
  cl_uint n = 0;
  REQUIRE(clGetPlatformIDs(0, nullptr, &n) == CL_SUCCESS);
  auto platforms = anycl::platform::all();
  REQUIRE(platforms.size() == n);
  for (const auto& p : platforms) {
    CHECK_FALSE(p.name().empty());
    CHECK_FALSE(p.vendor().empty());
    CHECK(p.version().rfind("OpenCL ", 0) == 0);
    CHECK((p.profile() == "FULL_PROFILE" || p.profile() == "EMBEDDED_PROFILE"));
    CHECK(p.has_extension("cl_khr_icd") ==
          (p.extensions().find("cl_khr_icd") != std::string::npos));
    CHECK_FALSE(p.has_extension(""));
  }
}

TEST_CASE("platform: devices by type partition the devices of the platform", "[platform]") {
  for (const auto& p : anycl::platform::all()) {
    auto all = p.devices();
    std::size_t typed = p.devices(anycl::device_type::cpu).size() +
                        p.devices(anycl::device_type::gpu).size() +
                        p.devices(anycl::device_type::accelerator).size() +
                        p.devices(anycl::device_type::custom).size();
    CHECK(typed >= all.size());
    for (const auto& d : all) CHECK(d.platform() == p);
  }
}

TEST_CASE("device: typed queries agree with the raw C API", "[device]") {
  anycl::test::env e;
  const cl_device_id id = e.dev.get();
  CHECK(e.dev.name() == raw_device_string(id, CL_DEVICE_NAME));
  CHECK(e.dev.vendor() == raw_device_string(id, CL_DEVICE_VENDOR));
  CHECK(e.dev.driver_version() == raw_device_string(id, CL_DRIVER_VERSION));
  CHECK(e.dev.version().rfind("OpenCL ", 0) == 0);
  CHECK(e.dev.opencl_c_version().rfind("OpenCL C ", 0) == 0);
  cl_uint units = 0;
  REQUIRE(clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr) == 0);
  CHECK(e.dev.compute_units() == units);
  CHECK(e.dev.info<cl_uint>(CL_DEVICE_MAX_COMPUTE_UNITS) == units);
  CHECK(e.dev.global_memory() >= e.dev.max_alloc());
  CHECK(e.dev.local_memory() > 0);
  CHECK(e.dev.max_work_group_size() > 0);
  auto items = e.dev.max_work_item_sizes();
  CHECK(items.size() == e.dev.info<cl_uint>(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS));
  CHECK(e.dev.fp64() == e.dev.has_extension("cl_khr_fp64"));
  auto [major, minor] = e.dev.version_number();
  CHECK((major > 1 || (major == 1 && minor >= 2)));
  CHECK(e.dev.info<std::string>(CL_DEVICE_NAME) == e.dev.name());
}

TEST_CASE("device: the typed escape hatch refuses a type of the wrong size", "[device]") {
  anycl::test::env e;
  REQUIRE_THROWS_WHAT(e.dev.info<cl_ulong>(CL_DEVICE_MAX_COMPUTE_UNITS), std::invalid_argument,
                      Contains("4 bytes") && Contains("8"));
  REQUIRE_THROWS_WHAT(e.dev.info_bytes(0x7fff), anycl::api_error,
                      Contains("clGetDeviceInfo") && Contains("CL_INVALID_VALUE"));
}

TEST_CASE("device: sub-devices split equally and by counts, and run kernels", "[device][sub]") {
  anycl::test::env e;
  const cl_uint units = e.dev.compute_units();
  auto subs = e.dev.create_sub_devices_equally(1);
  REQUIRE(subs.size() == units);
  for (const auto& s : subs) {
    CHECK(s.is_sub_device());
    CHECK(s.compute_units() == 1);
    anycl::device copy = s;  // retains; both copies release
    CHECK(copy == s);
  }
  CHECK_FALSE(e.dev.is_sub_device());
  CHECK(anycl::device::retain(subs[0].get()).is_sub_device());

  // A context and a kernel on the first sub-device.
  anycl::context ctx(subs[0]);
  anycl::command_queue q(ctx, subs[0]);
  auto prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
  anycl::buffer buf(ctx, 16 * sizeof(int));
  q.fill(anycl::buffer_view<int>(buf), 41);
  q.launch(prog.kernel("add_one"), anycl::nd_range{16}, buf);
  for (int v : q.read(anycl::buffer_view<int>(buf))) CHECK(v == 42);

  if (units >= 2) {
    auto two = e.dev.create_sub_devices_by_counts({1, 1});
    REQUIRE(two.size() == 2);
    CHECK(two[0].compute_units() == 1);
  }
}

TEST_CASE("device: bad partitions are refused before the driver", "[device][sub]") {
  anycl::test::env e;
  REQUIRE_THROWS_WHAT(e.dev.create_sub_devices_equally(0), std::invalid_argument,
                      Contains("0 compute units"));
  REQUIRE_THROWS_WHAT(e.dev.create_sub_devices_by_counts({}), std::invalid_argument,
                      Contains("no counts"));
  REQUIRE_THROWS_WHAT(e.dev.create_sub_devices_by_counts({1, 0}), std::invalid_argument,
                      Contains("count is 0"));
  const unsigned too_many = e.dev.compute_units() + 1;
  REQUIRE_THROWS_WHAT(e.dev.create_sub_devices_by_counts({too_many}), std::invalid_argument,
                      Contains("compute units asked for"));
}

TEST_CASE("selection: specs select the devices the listing names", "[selection]") {
  auto platforms = anycl::platform::all();
  const std::string listing = anycl::describe_devices();
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    auto devs = platforms[p].devices();
    for (std::size_t d = 0; d < devs.size(); ++d) {
      const std::string spec = std::to_string(p) + ":" + std::to_string(d);
      CHECK_THAT(listing, Contains(spec) && Contains(devs[d].name()));
      CHECK(anycl::select_device(spec) == devs[d]);
    }
  }
  anycl::device cpu_or_any = anycl::select_device("cpu,all");
  CHECK(cpu_or_any);
  auto all = anycl::select_devices("all");
  CHECK(all.size() >= 1);
  CHECK(anycl::select_device(all[0].name()) == all[0]);
}

TEST_CASE("selection: a spec that matches nothing lists what exists", "[selection]") {
  REQUIRE_THROWS_WHAT(anycl::select_device("no-such-device-anywhere"), anycl::device_not_found,
                      Contains("no-such-device-anywhere") && Contains("0:0") &&
                          Contains(anycl::platform::all()[0].name()));
  REQUIRE_THROWS_WHAT(anycl::select_device("99"), anycl::device_not_found, Contains("'99'"));
  REQUIRE_THROWS_WHAT(anycl::select_device("cpu,,gpu"), std::invalid_argument,
                      Contains("empty alternative"));
  REQUIRE_THROWS_AS(anycl::context::from_spec("no-such-device-anywhere"), anycl::device_not_found);
}

TEST_CASE("selection: ANYCL_DEVICE picks the default device", "[selection][env]") {
  const char* old = std::getenv("ANYCL_DEVICE");
  std::string saved = old ? old : "";
  auto first = anycl::select_devices("all").front();
  setenv("ANYCL_DEVICE", "0", 1);
  CHECK(anycl::select_device() == first);
  setenv("ANYCL_DEVICE", "no-such-device-anywhere", 1);
  CHECK_THROWS_WITH(anycl::select_device(), Contains("ANYCL_DEVICE 'no-such-device-anywhere'"));
  setenv("ANYCL_DEVICE", "  ", 1);  // blank means unset
  CHECK(anycl::select_device());
  if (old) {
    setenv("ANYCL_DEVICE", saved.c_str(), 1);
  } else {
    unsetenv("ANYCL_DEVICE");
  }
}
