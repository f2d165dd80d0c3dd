// SPDX-License-Identifier: Apache-2.0
// The device-spec grammar, matching against what the machine has, and the not-found listing.
#include "anycl/device_selector.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "anycl/error.hpp"
#include "selection/inventory.hpp"

namespace anycl {

// --- parsing ---
namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

/// [begin, end) of `s` with surrounding spaces removed.
std::pair<std::size_t, std::size_t> trim(std::string_view s, std::size_t begin, std::size_t end) {
  while (begin < end && is_space(s[begin])) ++begin;
  while (end > begin && is_space(s[end - 1])) --end;
  return {begin, end};
}

[[noreturn]] void malformed(std::string_view text, std::size_t pos, const std::string& what) {
  throw std::invalid_argument(
      "malformed device spec '" + std::string(text) + "' at position " + std::to_string(pos) +
      ": " + what +
      " (expected [platform:]device, alternatives separated by ','; "
      "parts are an index, cpu/gpu/accelerator/fpga/custom/all, or a name)");
}

spec_part parse_part(std::string_view text, std::size_t begin, std::size_t end, bool is_platform) {
  auto [b, e] = trim(text, begin, end);
  const char* which = is_platform ? "platform" : "device";
  if (b == e) malformed(text, begin, std::string("empty ") + which + " part");
  std::string_view word = text.substr(b, e - b);
  spec_part p;
  if (std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    std::size_t v = 0;
    for (char c : word) {
      std::size_t digit = static_cast<std::size_t>(c - '0');
      if (v > (std::numeric_limits<std::size_t>::max() - digit) / 10)
        malformed(text, b, std::string(which) + " index '" + std::string(word) + "' is too large");
      v = v * 10 + digit;
    }
    p.k = spec_part::kind::index;
    p.index = v;
    return p;
  }
  std::string w = lower(word);
  if (w == "all") return p;  // kind::any
  device_type t = device_type::all;
  bool is_type = true;
  if (w == "cpu") {
    t = device_type::cpu;
  } else if (w == "gpu") {
    t = device_type::gpu;
  } else if (w == "accelerator" || w == "fpga") {
    t = device_type::accelerator;
  } else if (w == "custom") {
    t = device_type::custom;
  } else {
    is_type = false;
  }
  if (is_type) {
    if (is_platform)
      malformed(text, b,
                "'" + std::string(word) + "' is a device type, not a platform; write 'platform:" +
                    std::string(word) + "' or just '" + std::string(word) + "'");
    p.k = spec_part::kind::type;
    p.type = t;
    return p;
  }
  for (std::size_t i = b; i < e; ++i)
    if (std::iscntrl(static_cast<unsigned char>(text[i])))
      malformed(text, i, "control character in a name");
  p.k = spec_part::kind::name;
  p.name = std::move(w);
  return p;
}
}  // namespace

device_spec device_spec::parse(std::string_view text) {
  device_spec spec;
  spec.text = std::string(text);
  auto [tb, te] = trim(text, 0, text.size());
  if (tb == te) malformed(text, 0, "the spec is empty");
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    auto [b, e] = trim(text, start, end);
    if (b == e) malformed(text, start, "empty alternative");
    std::size_t colon = text.find(':', b);
    spec_alternative alt;
    if (colon != std::string_view::npos && colon < e) {
      std::size_t second = text.find(':', colon + 1);
      if (second != std::string_view::npos && second < e)
        malformed(text, second, "more than one ':' in an alternative");
      alt.platform = parse_part(text, b, colon, true);
      alt.has_platform = true;
      alt.device = parse_part(text, colon + 1, e, false);
    } else {
      alt.device = parse_part(text, b, e, false);
    }
    spec.alternatives.push_back(std::move(alt));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return spec;
}

// --- matching ---
namespace detail {
namespace {
bool contains(const std::string& haystack, const std::string& lower_needle) {
  return lower(haystack).find(lower_needle) != std::string::npos;
}

bool platform_matches(const spec_part& p, std::size_t index, const inventory_platform& plat) {
  switch (p.k) {
    case spec_part::kind::any:
      return true;
    case spec_part::kind::index:
      return p.index == index;
    case spec_part::kind::name:
      return contains(plat.name, p.name) || contains(plat.vendor, p.name);
    case spec_part::kind::type:
      return false;  // refused by the parser
  }
  return false;
}

bool device_matches(const spec_part& p, std::size_t index, const inventory_device& dev) {
  switch (p.k) {
    case spec_part::kind::any:
      return true;
    case spec_part::kind::index:
      return p.index == index;
    case spec_part::kind::type:
      return (static_cast<cl_device_type>(dev.type) & static_cast<cl_device_type>(p.type)) != 0;
    case spec_part::kind::name:
      return contains(dev.name, p.name);
  }
  return false;
}
}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> match(const device_spec& spec,
                                                       const std::vector<inventory_platform>& inv) {
  for (const auto& alt : spec.alternatives) {
    std::vector<std::pair<std::size_t, std::size_t>> found;
    const bool global_index = !alt.has_platform;
    std::size_t flat = 0;
    for (std::size_t p = 0; p < inv.size(); ++p) {
      const bool plat_ok = platform_matches(alt.platform, p, inv[p]);
      for (std::size_t d = 0; d < inv[p].devices.size(); ++d, ++flat) {
        if (!plat_ok) continue;
        if (device_matches(alt.device, global_index ? flat : d, inv[p].devices[d]))
          found.emplace_back(p, d);
      }
    }
    if (!found.empty()) return found;
  }
  return {};
}

std::string describe(const std::vector<inventory_platform>& inv) {
  std::string out;
  std::size_t flat = 0;
  for (std::size_t p = 0; p < inv.size(); ++p) {
    out += "  platform " + std::to_string(p) + ": " + inv[p].name + " (" + inv[p].version + ")\n";
    if (inv[p].devices.empty()) out += "    (no devices)\n";
    for (std::size_t d = 0; d < inv[p].devices.size(); ++d, ++flat) {
      const auto& dev = inv[p].devices[d];
      std::string spec = std::to_string(p) + ":" + std::to_string(d);
      out += "    " + spec + std::string(spec.size() < 6 ? 6 - spec.size() : 1, ' ') + "(or " +
             std::to_string(flat) + ")  " + std::string(to_string(dev.type)) + "  " + dev.name +
             "\n";
    }
  }
  if (inv.empty()) out += "  (no platforms)\n";
  return out;
}

std::string not_found_message(std::string_view spec, std::string_view source,
                              const std::vector<inventory_platform>& inv) {
  std::string m = "no OpenCL device matches " + std::string(source) + " '" + std::string(spec) +
                  "'. Available devices, with the spec that selects each:\n" + describe(inv);
  for (const auto& p : inv)
    if (p.devices.empty() && lower(p.name).find("portable computing language") != std::string::npos)
      m += std::string(
               "POCL lists no device: it hides its devices when it cannot create its cache "
               "folder (check that POCL_CACHE_DIR or ~/.cache/pocl is writable) or when "
               "POCL_DEVICES names no driver it has (POCL_DEVICES=") +
           (std::getenv("POCL_DEVICES") ? std::getenv("POCL_DEVICES") : "<unset>") +
           "; 'pthread' is the CPU driver).\n";
  m += "Select with ANYCL_DEVICE=<spec> or --device <spec>; 'anycl-info' shows details.";
  return m;
}
}  // namespace detail

// --- selection on this machine ---
namespace {
struct machine {
  std::vector<platform> platforms;
  std::vector<std::vector<device>> devices;
  std::vector<detail::inventory_platform> inventory;
};

machine scan() {
  machine m;
  m.platforms = platform::all();
  for (const platform& p : m.platforms) {
    detail::inventory_platform ip{p.name(), p.vendor(), p.version(), {}};
    std::vector<device> devs = p.devices();
    // Every type bit: a device may report several (Oclgrind: cpu, gpu and accelerator).
    for (const device& d : devs)
      ip.devices.push_back(
          {d.name(), static_cast<device_type>(d.info<cl_device_type>(CL_DEVICE_TYPE))});
    m.devices.push_back(std::move(devs));
    m.inventory.push_back(std::move(ip));
  }
  return m;
}

std::vector<device> select(std::string_view text, std::string_view source) {
  device_spec spec = device_spec::parse(text);
  machine m = scan();
  auto found = detail::match(spec, m.inventory);
  if (found.empty()) throw device_not_found(detail::not_found_message(text, source, m.inventory));
  std::vector<device> out;
  for (auto [p, d] : found) out.push_back(m.devices[p][d]);
  return out;
}
}  // namespace

device select_device(std::string_view spec) { return select(spec, "spec").front(); }

std::vector<device> select_devices(std::string_view spec) { return select(spec, "spec"); }

device select_device() {
  const char* env = std::getenv("ANYCL_DEVICE");
  if (env != nullptr &&
      trim(env, 0, std::string_view(env).size()).first != std::string_view(env).size())
    return select(env, "ANYCL_DEVICE").front();
  return select("gpu,accelerator,cpu,all", "the default order").front();
}

std::string describe_devices() { return detail::describe(scan().inventory); }

}  // namespace anycl
