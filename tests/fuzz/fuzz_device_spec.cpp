// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the device-spec grammar (device_spec::parse), then matching the parsed spec against
// a fixed machine. A malformed spec must throw std::invalid_argument with the grammar's message;
// a spec that parses must print back to an equal spec, and match only devices that exist.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "anycl/device_selector.hpp"
#include "selection/inventory.hpp"

namespace {

using anycl::device_spec;
using anycl::device_type;
using anycl::spec_part;
using anycl::detail::inventory_platform;

[[noreturn]] void fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "fuzz_device_spec: %s for spec '%.*s'\n", what,
               static_cast<int>(input.size()), input.data());
  std::abort();
}

const std::vector<inventory_platform>& machine() {
  static const std::vector<inventory_platform> m = {
      {"Oclgrind",
       "University of Bristol",
       "OpenCL 1.2",
       {{"Oclgrind Simulator", device_type::gpu}}},
      {"Portable Computing Language",
       "The pocl project",
       "OpenCL 3.0 PoCL 3.1",
       {{"pthread-skylake-avx512", device_type::cpu}, {"pthread-haswell", device_type::cpu}}},
      {"Empty platform", "Nobody", "OpenCL 1.0", {}},
      {"Intel(R) FPGA SDK for OpenCL(TM)",
       "Intel(R) Corporation",
       "OpenCL 1.0",
       {{"de10_agilex : Agilex", device_type::accelerator}}},
  };
  return m;
}

std::string print(const spec_part& p) {
  switch (p.k) {
    case spec_part::kind::any:
      return "all";
    case spec_part::kind::index:
      return std::to_string(p.index);
    case spec_part::kind::type:
      switch (p.type) {
        case device_type::cpu:
          return "cpu";
        case device_type::gpu:
          return "gpu";
        case device_type::accelerator:
          return "accelerator";
        case device_type::custom:
          return "custom";
        default:
          break;
      }
      return "?";
    case spec_part::kind::name:
      return p.name;
  }
  return "?";
}

bool same(const spec_part& a, const spec_part& b) {
  return a.k == b.k && a.index == b.index && a.type == b.type && a.name == b.name;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  device_spec spec;
  try {
    spec = device_spec::parse(text);
  } catch (const std::invalid_argument& e) {
    if (std::strstr(e.what(), "malformed device spec") == nullptr)
      fail("invalid_argument without the grammar's message", text);
    return 0;
  }
  if (spec.text != text) fail("text not kept", text);
  std::size_t commas = 0;
  for (char c : text) commas += c == ',';
  if (spec.alternatives.size() != commas + 1) fail("one alternative per ','-separated part", text);

  // Printed back, the spec parses to the same parts.
  std::string printed;
  for (const auto& alt : spec.alternatives) {
    for (const spec_part* p : {&alt.platform, &alt.device}) {
      if (p->k == spec_part::kind::name) {
        if (p->name.empty()) fail("empty name", text);
        for (char c : p->name) {
          const auto u = static_cast<unsigned char>(c);
          if (std::iscntrl(u) || std::tolower(u) != u) fail("name not lower-case text", text);
        }
      }
    }
    if (!printed.empty()) printed += ',';
    if (alt.has_platform) printed += print(alt.platform) + ":";
    printed += print(alt.device);
  }
  device_spec again;
  try {
    again = device_spec::parse(printed);
  } catch (const std::invalid_argument&) {
    fail("the printed spec does not parse", text);
  }
  if (again.alternatives.size() != spec.alternatives.size()) fail("reprint changed the spec", text);
  for (std::size_t i = 0; i < spec.alternatives.size(); ++i) {
    const auto &a = spec.alternatives[i], &b = again.alternatives[i];
    if (a.has_platform != b.has_platform || !same(a.platform, b.platform) ||
        !same(a.device, b.device))
      fail("reprint changed the spec", text);
  }

  // Matching never throws and only picks devices that exist.
  const auto& m = machine();
  for (const auto& [p, d] : anycl::detail::match(spec, m))
    if (p >= m.size() || d >= m[p].devices.size())
      fail("matched a device that does not exist", text);
  const std::string msg = anycl::detail::not_found_message(text, "spec", m);
  if (msg.find(std::string(text)) == std::string::npos) fail("message lacks the spec", text);
  return 0;
}
