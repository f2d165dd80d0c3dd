// SPDX-License-Identifier: Apache-2.0
// The device-spec grammar, matching and the not-found listing, on fake platform inventories.
#include <catch2/catch.hpp>

#include <cstddef>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/device_selector.hpp"
#include "selection/inventory.hpp"

using anycl::device_spec;
using anycl::device_type;
using anycl::spec_part;
using anycl::detail::inventory_platform;
using Catch::Matchers::Contains;
using pick = std::pair<std::size_t, std::size_t>;
using picks = std::vector<pick>;

namespace {

/// One machine with three platforms: Oclgrind (a simulator reporting a GPU), POCL with two CPUs,
/// and an FPGA board. Global device order: 0 oclgrind, 1 pthread-a, 2 pthread-b, 3 fpga.
std::vector<inventory_platform> machine() {
  return {
      {"Oclgrind",
       "University of Bristol",
       "OpenCL 1.2 (Oclgrind 21.10)",
       {{"Oclgrind Simulator", device_type::gpu}}},
      {"Portable Computing Language",
       "The pocl project",
       "OpenCL 3.0 PoCL 5.0",
       {{"cpu-haswell-0", device_type::cpu}, {"cpu-skylake-1", device_type::cpu}}},
      {"Intel(R) FPGA SDK for OpenCL(TM)",
       "Intel(R) Corporation",
       "OpenCL 1.0 Intel(R) FPGA SDK",
       {{"de10_agilex : Agilex Reference Platform", device_type::accelerator}}},
  };
}

picks select(std::string_view spec, const std::vector<inventory_platform>& inv = machine()) {
  return anycl::detail::match(device_spec::parse(spec), inv);
}

/// The message of the std::invalid_argument that parsing `spec` throws ("" if it does not throw).
std::string parse_error(std::string_view spec) {
  try {
    (void)device_spec::parse(spec);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("device_spec: parses indices, types and names into parts", "[unit][selector]") {
  device_spec s = device_spec::parse("1:gpu");
  CHECK(s.text == "1:gpu");
  REQUIRE(s.alternatives.size() == 1);
  CHECK(s.alternatives[0].platform.k == spec_part::kind::index);
  CHECK(s.alternatives[0].platform.index == 1);
  CHECK(s.alternatives[0].device.k == spec_part::kind::type);
  CHECK(s.alternatives[0].device.type == device_type::gpu);

  s = device_spec::parse("NVIDIA:GeForce RTX");
  REQUIRE(s.alternatives.size() == 1);
  CHECK(s.alternatives[0].platform.k == spec_part::kind::name);
  CHECK(s.alternatives[0].platform.name == "nvidia");
  CHECK(s.alternatives[0].device.k == spec_part::kind::name);
  CHECK(s.alternatives[0].device.name == "geforce rtx");  // inner spaces stay, case folds

  s = device_spec::parse("42");
  CHECK(s.alternatives[0].platform.k == spec_part::kind::any);
  CHECK(s.alternatives[0].device.k == spec_part::kind::index);
  CHECK(s.alternatives[0].device.index == 42);
}

TEST_CASE("device_spec: type keywords are case-insensitive and fpga means accelerator",
          "[unit][selector]") {
  const std::pair<const char*, device_type> cases[] = {
      {"cpu", device_type::cpu},
      {"CPU", device_type::cpu},
      {"gpu", device_type::gpu},
      {"Gpu", device_type::gpu},
      {"accelerator", device_type::accelerator},
      {"ACCELERATOR", device_type::accelerator},
      {"fpga", device_type::accelerator},
      {"FPGA", device_type::accelerator},
      {"custom", device_type::custom},
  };
  for (const auto& [text, type] : cases) {
    INFO(text);
    device_spec s = device_spec::parse(text);
    REQUIRE(s.alternatives.size() == 1);
    CHECK(s.alternatives[0].device.k == spec_part::kind::type);
    CHECK(s.alternatives[0].device.type == type);
  }
  CHECK(device_spec::parse("ALL").alternatives[0].device.k == spec_part::kind::any);
}

TEST_CASE("device_spec: whitespace around parts and alternatives is trimmed", "[unit][selector]") {
  device_spec s = device_spec::parse("  1 :  0 ,\tgpu ,  pocl : Skylake  ");
  REQUIRE(s.alternatives.size() == 3);
  CHECK(s.alternatives[0].platform.index == 1);
  CHECK(s.alternatives[0].device.index == 0);
  CHECK(s.alternatives[1].platform.k == spec_part::kind::any);
  CHECK(s.alternatives[1].device.type == device_type::gpu);
  CHECK(s.alternatives[2].platform.name == "pocl");
  CHECK(s.alternatives[2].device.name == "skylake");
  CHECK(select(" 1 : 1 ") == picks{{1, 1}});
}

TEST_CASE("device_spec: the largest size_t index parses", "[unit][selector]") {
  const std::string max = std::to_string(static_cast<std::size_t>(-1));
  device_spec s = device_spec::parse(max);
  CHECK(s.alternatives[0].device.index == static_cast<std::size_t>(-1));
  CHECK(select(max).empty());
}

TEST_CASE("match: a type selects every device of that type in platform order", "[unit][selector]") {
  CHECK(select("cpu") == picks{{1, 0}, {1, 1}});
  CHECK(select("gpu") == picks{{0, 0}});
  CHECK(select("accelerator") == picks{{2, 0}});
  CHECK(select("fpga") == picks{{2, 0}});
  CHECK(select("custom").empty());
  CHECK(select("all") == picks{{0, 0}, {1, 0}, {1, 1}, {2, 0}});
}

TEST_CASE("match: without a platform part a device index counts across all platforms",
          "[unit][selector]") {
  CHECK(select("0") == picks{{0, 0}});
  CHECK(select("1") == picks{{1, 0}});
  CHECK(select("2") == picks{{1, 1}});
  CHECK(select("3") == picks{{2, 0}});
  CHECK(select("4").empty());
}

TEST_CASE("match: with a platform part a device index counts within that platform",
          "[unit][selector]") {
  CHECK(select("0:0") == picks{{0, 0}});
  CHECK(select("1:0") == picks{{1, 0}});
  CHECK(select("1:1") == picks{{1, 1}});
  CHECK(select("2:0") == picks{{2, 0}});
  CHECK(select("0:1").empty());  // Oclgrind has one device only
  CHECK(select("3:0").empty());  // no fourth platform
  CHECK(select("pocl:1") == picks{{1, 1}});
  CHECK(select("portable:0") == picks{{1, 0}});
  CHECK(select("intel:0") == picks{{2, 0}});
}

TEST_CASE("match: a platform part matches name or vendor, case-insensitively", "[unit][selector]") {
  CHECK(select("oclgrind:all") == picks{{0, 0}});
  CHECK(select("BRISTOL:all") == picks{{0, 0}});               // vendor
  CHECK(select("pocl project:cpu") == picks{{1, 0}, {1, 1}});  // vendor
  CHECK(select("Portable Computing:cpu") == picks{{1, 0}, {1, 1}});
  CHECK(select("pocl:gpu").empty());  // the platform exists but has no GPU
  CHECK(select("nvidia:all").empty());
  CHECK(select("all:cpu") == picks{{1, 0}, {1, 1}});
}

TEST_CASE("match: a device name is a case-insensitive substring", "[unit][selector]") {
  CHECK(select("SKYLAKE") == picks{{1, 1}});
  CHECK(select("cpu-") == picks{{1, 0}, {1, 1}});
  CHECK(select("simulator") == picks{{0, 0}});
  CHECK(select("agilex reference") == picks{{2, 0}});
  CHECK(select("geforce").empty());
  // A device part without a platform part is never matched against platform names.
  CHECK(select("portable").empty());
  CHECK(select("bristol").empty());
}

TEST_CASE("match: the first alternative that matches wins", "[unit][selector]") {
  // Oclgrind reports a GPU first; asking for a CPU before a GPU still gets POCL.
  CHECK(select("cpu,gpu") == picks{{1, 0}, {1, 1}});
  CHECK(select("gpu,cpu") == picks{{0, 0}});
  CHECK(select("nvidia:gpu,pocl:0") == picks{{1, 0}});
  CHECK(select("geforce,radeon,skylake,haswell") == picks{{1, 1}});
  CHECK(select("geforce,radeon").empty());
  CHECK(select("gpu,accelerator,cpu,all") == picks{{0, 0}});  // the default order
}

TEST_CASE("match: an empty inventory or platform selects nothing", "[unit][selector]") {
  CHECK(select("all", {}).empty());
  CHECK(select("0", {}).empty());
  std::vector<inventory_platform> inv = {
      {"Empty", "Nobody", "OpenCL 3.0", {}},
      {"Other", "Somebody", "OpenCL 1.2", {{"dev", device_type::cpu}}}};
  CHECK(select("0", inv) == picks{{1, 0}});  // global index skips the empty platform
  CHECK(select("0:0", inv).empty());
  CHECK(select("1:0", inv) == picks{{1, 0}});
}

TEST_CASE("device_spec: malformed specs throw invalid_argument naming the position",
          "[unit][selector]") {
  struct bad_spec {
    const char* spec;
    const char* problem;  // a word the message must contain
  };
  const bad_spec cases[] = {
      {"", "empty"},
      {"   ", "empty"},
      {",cpu", "empty alternative"},
      {"cpu,", "empty alternative"},
      {"cpu,,gpu", "empty alternative"},
      {"cpu, ,gpu", "empty alternative"},
      {":cpu", "empty platform part"},
      {"0:", "empty device part"},
      {"0: ", "empty device part"},
      {"a:b:c", "more than one ':'"},
      {"cpu:0", "device type, not a platform"},
      {"GPU:all", "device type, not a platform"},
      {"99999999999999999999999", "too large"},
      {"0:99999999999999999999999", "too large"},
      {"99999999999999999999999:0", "too large"},
      {"gp\x01u", "control character"},
      {"pocl:cpu\x7f", "control character"},
  };
  for (const auto& c : cases) {
    INFO("spec '" << c.spec << "'");
    const std::string m = parse_error(c.spec);
    REQUIRE_FALSE(m.empty());
    CHECK_THAT(m, Contains("position"));
    CHECK_THAT(m, Contains(c.problem));
  }
}

TEST_CASE("device_spec: the error position points at the problem", "[unit][selector]") {
  CHECK_THAT(parse_error("cpu,,gpu"), Contains("position 4"));
  CHECK_THAT(parse_error("a:b:c"), Contains("position 3"));
  CHECK_THAT(parse_error("gpu, pocl:cpu:x"), Contains("position 13"));
  CHECK_THAT(parse_error("gp\x01u"), Contains("position 2"));
  CHECK_THAT(parse_error("x, cpu:0"), Contains("position 3"));
}

TEST_CASE("describe: lists every platform and device with its specs", "[unit][selector]") {
  const std::string d = anycl::detail::describe(machine());
  CHECK_THAT(d, Contains("platform 0: Oclgrind (OpenCL 1.2 (Oclgrind 21.10))"));
  CHECK_THAT(d, Contains("platform 1: Portable Computing Language"));
  CHECK_THAT(d, Contains("platform 2: Intel(R) FPGA SDK for OpenCL(TM)"));
  CHECK_THAT(d, Contains("Oclgrind Simulator"));
  CHECK_THAT(d, Contains("cpu-haswell-0"));
  CHECK_THAT(d, Contains("cpu-skylake-1"));
  CHECK_THAT(d, Contains("de10_agilex : Agilex Reference Platform"));
  CHECK_THAT(anycl::detail::describe({}), Contains("(no platforms)"));
  CHECK_THAT(anycl::detail::describe({{"Empty", "Nobody", "OpenCL 3.0", {}}}),
             Contains("(no devices)"));
}

TEST_CASE("describe: each printed spec selects the device printed next to it", "[unit][selector]") {
  std::vector<inventory_platform> inv = machine();
  // A platform whose name would also match as a substring of other entries, and an empty one.
  inv.push_back({"Empty", "Nobody", "OpenCL 3.0", {}});
  inv.push_back({"NVIDIA CUDA",
                 "NVIDIA Corporation",
                 "OpenCL 3.0 CUDA 12.2",
                 {{"NVIDIA H200", device_type::gpu}, {"NVIDIA A100", device_type::gpu}}});
  const std::string d = anycl::detail::describe(inv);
  // Device lines read "<p>:<d> ... (or <flat>)  <type>  <name>".
  const std::regex line(R"(^\s+(\d+:\d+)\s+\(or (\d+)\)\s+(\S+)\s+(.+)$)");
  std::size_t devices_seen = 0;
  std::size_t pos = 0;
  while (pos < d.size()) {
    std::size_t end = d.find('\n', pos);
    if (end == std::string::npos) end = d.size();
    const std::string text = d.substr(pos, end - pos);
    pos = end + 1;
    std::smatch m;
    if (!std::regex_match(text, m, line)) continue;
    INFO("line '" << text << "'");
    const picks by_pair = select(m[1].str(), inv);
    REQUIRE(by_pair.size() == 1);
    const picks by_flat = select(m[2].str(), inv);
    REQUIRE(by_flat.size() == 1);
    CHECK(by_pair == by_flat);
    const auto [p, dev] = by_pair[0];
    CHECK(inv[p].devices[dev].name == m[4].str());
    CHECK(std::string(anycl::to_string(inv[p].devices[dev].type)) == m[3].str());
    CHECK(m[1].str() == std::to_string(p) + ":" + std::to_string(dev));
    ++devices_seen;
  }
  CHECK(devices_seen == 6);
}

TEST_CASE("not_found_message: names the spec and lists every device with its spec",
          "[unit][selector]") {
  const std::string m = anycl::detail::not_found_message("geforce", "ANYCL_DEVICE", machine());
  CHECK_THAT(m, Contains("ANYCL_DEVICE 'geforce'"));
  CHECK_THAT(m, Contains(anycl::detail::describe(machine())));
  for (const char* spec : {"0:0", "1:0", "1:1", "2:0"}) CHECK_THAT(m, Contains(spec));
  CHECK_THAT(m, !Contains("POCL_CACHE_DIR"));  // POCL lists its devices here
}

TEST_CASE("not_found_message: an empty POCL platform points at POCL_CACHE_DIR",
          "[unit][selector]") {
  std::vector<inventory_platform> inv = {
      {"Oclgrind",
       "University of Bristol",
       "OpenCL 1.2",
       {{"Oclgrind Simulator", device_type::gpu}}},
      {"Portable Computing Language", "The pocl project", "OpenCL 3.0 PoCL 5.0", {}},
  };
  const std::string m = anycl::detail::not_found_message("cpu", "spec", inv);
  CHECK_THAT(m, Contains("spec 'cpu'"));
  CHECK_THAT(m, Contains("POCL_CACHE_DIR"));
  CHECK_THAT(m, Contains("0:0"));
  CHECK_THAT(m, Contains("(no devices)"));
  // Another platform without devices is not mistaken for POCL.
  inv[1].name = "Some Other Platform";
  CHECK_THAT(anycl::detail::not_found_message("cpu", "spec", inv), !Contains("POCL_CACHE_DIR"));
}

TEST_CASE("match: a device reporting several types is selected by each of them",
          "[unit][selector]") {
  const auto several = static_cast<device_type>(CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                                CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR);
  const std::vector<inventory_platform> inv = {
      {"Oclgrind", "University of Bristol", "OpenCL 1.2", {{"Oclgrind Simulator", several}}},
      {"Portable Computing Language",
       "The pocl project",
       "OpenCL 3.0",
       {{"cpu-0", device_type::cpu}}},
  };
  CHECK(select("gpu", inv) == picks{{0, 0}});
  CHECK(select("cpu", inv) == picks{{0, 0}, {1, 0}});
  CHECK(select("accelerator", inv) == picks{{0, 0}});
  CHECK(select("custom", inv).empty());
}
