// SPDX-License-Identifier: Apache-2.0
// anycl-info's report: collected through the library (platform, device, device_selector), printed
// as text or JSON.
#include "info_report.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "anycl/context.hpp"
#include "anycl/error.hpp"
#include "anycl/image.hpp"
#include "anycl/platform.hpp"
#include "anycl/version.hpp"
#include "cli.hpp"

namespace anycl::tools {

// --- collecting ---
namespace {

/// f()'s value, or nothing when the driver refuses the query (or answers in the wrong size).
template <class F>
auto attempt(F f) -> std::optional<decltype(f())> {
  try {
    return f();
  } catch (const anycl::error&) {
    return std::nullopt;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

// The read-write 2-D image formats of `d`, as "CL_RGBA/CL_UNORM_INT8" (none without images).
std::vector<std::string> image_formats(const anycl::device& d) {
  std::vector<std::string> out;
  if (d.info<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE) return out;
  const anycl::context ctx(d);
  for (const auto& f : anycl::image::supported_formats(ctx, anycl::image_type::image2d,
                                                       anycl::memory_access::read_write))
    out.push_back(f.to_string());
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string partition_name(cl_device_partition_property p) {
  switch (p) {
    case CL_DEVICE_PARTITION_EQUALLY:
      return "equally";
    case CL_DEVICE_PARTITION_BY_COUNTS:
      return "by_counts";
    case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN:
      return "by_affinity_domain";
    default: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(p));
      return buf;
    }
  }
}

std::string spec_of(std::size_t platform, std::size_t device) {
  return std::to_string(platform) + ":" + std::to_string(device);
}

device_info describe_device(const anycl::device& d) {
  device_info i;
  i.device = d;
  i.name = attempt([&] { return d.name(); }).value_or("?");
  i.type = std::string(
      anycl::to_string(attempt([&] { return d.type(); }).value_or(anycl::device_type::all)));
  i.type_bits = attempt([&] {
    const auto bits = d.info<cl_device_type>(CL_DEVICE_TYPE);
    std::vector<std::string> names;
    const std::pair<cl_device_type, const char*> known[] = {
        {CL_DEVICE_TYPE_DEFAULT, "default"},
        {CL_DEVICE_TYPE_CPU, "cpu"},
        {CL_DEVICE_TYPE_GPU, "gpu"},
        {CL_DEVICE_TYPE_ACCELERATOR, "accelerator"},
        {CL_DEVICE_TYPE_CUSTOM, "custom"}};
    for (const auto& [bit, name] : known)
      if ((bits & bit) != 0) names.emplace_back(name);
    return names;
  });
  i.vendor = attempt([&] { return d.vendor(); });
  i.version = attempt([&] { return d.version(); });
  i.opencl_c_version = attempt([&] { return d.opencl_c_version(); });
  i.driver_version = attempt([&] { return d.driver_version(); });
  i.available = attempt([&] { return d.info<cl_bool>(CL_DEVICE_AVAILABLE) != CL_FALSE; });
  i.compute_units = attempt([&] { return static_cast<unsigned long long>(d.compute_units()); });
  i.max_clock_mhz = attempt([&] { return static_cast<unsigned long long>(d.max_clock_mhz()); });
  i.global_memory = attempt([&] { return static_cast<unsigned long long>(d.global_memory()); });
  i.local_memory = attempt([&] { return static_cast<unsigned long long>(d.local_memory()); });
  i.max_alloc = attempt([&] { return static_cast<unsigned long long>(d.max_alloc()); });
  i.max_work_group_size =
      attempt([&] { return static_cast<unsigned long long>(d.max_work_group_size()); });
  i.max_work_item_sizes = attempt([&] { return d.max_work_item_sizes(); });
  i.fp64 = attempt([&] { return d.fp64(); });
  i.fp16 = attempt([&] { return d.has_extension("cl_khr_fp16"); });
  i.compiler_available = attempt([&] { return d.compiler_available(); });
  i.svm = attempt([&] { return d.svm_capabilities().to_string(); });
  // Partitioning is OpenCL 1.2: a 1.1 device refuses both queries and gets empty fields.
  i.max_sub_devices = attempt([&] {
    return static_cast<unsigned long long>(d.info<cl_uint>(CL_DEVICE_PARTITION_MAX_SUB_DEVICES));
  });
  i.partition_properties = attempt([&] {
    std::vector<std::string> names;
    for (auto p : d.info<std::vector<cl_device_partition_property>>(CL_DEVICE_PARTITION_PROPERTIES))
      if (p != 0) names.push_back(partition_name(p));
    return names;
  });
  i.extensions = attempt([&] { return words(d.extensions()); });
  i.image_formats = attempt([&] { return image_formats(d); });
  return i;
}
}  // namespace

void collect_platforms(info_report& report) {
  const std::vector<anycl::platform> platforms = anycl::platform::all();
  std::size_t flat = 0;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    const anycl::platform& plat = platforms[p];
    platform_info pi;
    pi.index = p;
    pi.name = attempt([&] { return plat.name(); }).value_or("?");
    pi.vendor = attempt([&] { return plat.vendor(); }).value_or("?");
    pi.version = attempt([&] { return plat.version(); }).value_or("?");
    pi.profile = attempt([&] { return plat.profile(); });
    pi.extensions = attempt([&] { return words(plat.extensions()); });
    anycl::detail::inventory_platform inv{pi.name, pi.vendor, pi.version, {}};
    std::optional<std::vector<anycl::device>> devices;
    try {
      devices = plat.devices();
    } catch (const anycl::error& e) {
      report.problems.push_back("platform " + std::to_string(p) + " (" + pi.name +
                                ") refuses to list its devices: " + e.what());
    }
    for (std::size_t d = 0; devices && d < devices->size(); ++d, ++flat) {
      device_info di = describe_device((*devices)[d]);
      di.index = d;
      di.global_index = flat;
      di.spec = spec_of(p, d);
      inv.devices.push_back(
          {di.name, attempt([&] { return di.device.type(); }).value_or(anycl::device_type::all)});
      pi.devices.push_back(std::move(di));
    }
    report.inventory.push_back(std::move(inv));
    report.platforms.push_back(std::move(pi));
  }
}

namespace {
/// The first sentence of a message, for one-line summaries of device_not_found's long what().
std::string first_sentence(const std::string& m) {
  const std::size_t end = std::min(m.find(". "), m.find('\n'));
  return end == std::string::npos ? m : m.substr(0, end + (m[end] == '.' ? 1 : 0));
}
}  // namespace

void collect_default_device(info_report& report) {
  default_device_info dd;
  const char* env = std::getenv("ANYCL_DEVICE");
  const bool from_env =
      env != nullptr && std::string(env).find_first_not_of(" \t\r\n") != std::string::npos;
  dd.source = from_env ? "ANYCL_DEVICE" : "default order";
  if (from_env) dd.spec = env;
  try {
    const anycl::device chosen = anycl::select_device();
    for (const auto& p : report.platforms)
      for (const auto& d : p.devices)
        if (d.device == chosen) dd.selected = d.spec;
  } catch (const std::exception& e) {
    dd.error = e.what();
    report.problems.push_back(
        (from_env ? "ANYCL_DEVICE does not work: " : "select_device() finds no device: ") +
        first_sentence(e.what()));
  }
  report.default_device = std::move(dd);
}

// --- selection ---
namespace {
std::string part_words(const anycl::spec_part& part, bool platform, bool per_platform) {
  switch (part.k) {
    case anycl::spec_part::kind::any:
      return "any";
    case anycl::spec_part::kind::index:
      return "index " + std::to_string(part.index) +
             (platform       ? ""
              : per_platform ? " on the platform"
                             : " across all platforms");
    case anycl::spec_part::kind::type:
      return "type " + std::string(anycl::to_string(part.type));
    case anycl::spec_part::kind::name:
      return (platform ? "name or vendor contains '" : "name contains '") + part.name + "'";
  }
  return "?";
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}
}  // namespace

selection_info explain_selection(const anycl::device_spec& spec,
                                 const std::vector<anycl::detail::inventory_platform>& inventory) {
  selection_info s;
  s.spec = spec.text;
  // The grammar splits alternatives at every ',': the same split gives each one's text.
  std::vector<std::string> texts;
  for (std::size_t start = 0;;) {
    const std::size_t comma = spec.text.find(',', start);
    texts.push_back(trimmed(spec.text.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (std::size_t a = 0; a < spec.alternatives.size(); ++a) {
    const anycl::spec_alternative& alt = spec.alternatives[a];
    selection_info::alternative out;
    out.text = a < texts.size() ? texts[a] : "";
    out.platform = alt.has_platform ? part_words(alt.platform, true, true) : "any";
    out.device = part_words(alt.device, false, alt.has_platform);
    anycl::device_spec one;  // this alternative alone, matched by the library
    one.text = out.text;
    one.alternatives = {alt};
    for (auto [p, d] : anycl::detail::match(one, inventory)) out.matches.push_back(spec_of(p, d));
    if (!s.chosen && !out.matches.empty()) s.chosen = a;
    s.alternatives.push_back(std::move(out));
  }
  for (auto [p, d] : anycl::detail::match(spec, inventory)) s.selected.push_back(spec_of(p, d));
  return s;
}

// --- text ---
namespace {
std::string bytes_text(unsigned long long b) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[48];
  if (u == 0 || v == static_cast<double>(static_cast<unsigned long long>(v)))
    std::snprintf(buf, sizeof buf, "%.0f %s", v, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

template <class T>
std::string or_unknown(const std::optional<T>& v) {
  if (!v) return "(not reported)";
  if constexpr (std::is_same_v<T, std::string>) {
    return *v;
  } else if constexpr (std::is_same_v<T, bool>) {
    return *v ? "yes" : "no";
  } else {
    return std::to_string(*v);
  }
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

void line(std::string& out, const std::string& indent, const std::string& label,
          const std::string& value) {
  std::string l = indent + label;
  if (l.size() < 24) l.resize(24, ' ');
  out += l + " " + value + "\n";
}

/// The type line: the type specs match, and every type bit when the device reports several.
std::string type_text(const device_info& d) {
  std::string type = d.type;
  if (d.type_bits && d.type_bits->size() > 1)
    type += " (it reports " + join(*d.type_bits, ", ") +
            "; specs match the first of cpu, gpu, "
            "accelerator, custom)";
  return type;
}

/// A size in bytes, or "(not reported)".
std::string bytes_or_unknown(const std::optional<unsigned long long>& b) {
  return b ? bytes_text(*b) : or_unknown(b);
}

/// The largest work-group, with the work-items per dimension when reported.
std::string work_group_text(const device_info& d) {
  std::string wg = or_unknown(d.max_work_group_size);
  if (d.max_work_item_sizes) {
    std::vector<std::string> dims;
    for (auto s : *d.max_work_item_sizes) dims.push_back(std::to_string(s));
    wg += " (work-items per dimension " + join(dims, " x ") + ")";
  }
  return wg;
}

std::string compiler_text(const device_info& d) {
  if (!d.compiler_available) return or_unknown(d.compiler_available);
  return *d.compiler_available
             ? "yes"
             : "no: only prebuilt binaries run here (anycl-build, .aocx, .xclbin)";
}

/// How many sub-devices the device splits into, and how.
std::string sub_devices_text(const device_info& d) {
  if (!d.max_sub_devices || !d.partition_properties) return "(not reported: OpenCL 1.1?)";
  return d.partition_properties->empty() || *d.max_sub_devices <= 1
             ? "no"
             : "up to " + std::to_string(*d.max_sub_devices) + " (" +
                   join(*d.partition_properties, ", ") + ")";
}

/// The lines after "Device ...:", indented by `in`.
void device_lines(std::string& out, const std::string& in, const device_info& d, bool verbose) {
  line(out, in, "type", type_text(d));
  line(out, in, "vendor", or_unknown(d.vendor));
  line(out, in, "version", or_unknown(d.version));
  line(out, in, "OpenCL C", or_unknown(d.opencl_c_version));
  line(out, in, "driver", or_unknown(d.driver_version));
  if (d.available && !*d.available) line(out, in, "available", "no (CL_DEVICE_AVAILABLE false)");
  line(out, in, "compute units", or_unknown(d.compute_units));
  line(out, in, "max clock",
       d.max_clock_mhz ? std::to_string(*d.max_clock_mhz) + " MHz" : or_unknown(d.max_clock_mhz));
  line(out, in, "global memory", bytes_or_unknown(d.global_memory));
  line(out, in, "local memory", bytes_or_unknown(d.local_memory));
  line(out, in, "max allocation", bytes_or_unknown(d.max_alloc));
  line(out, in, "max work-group size", work_group_text(d));
  line(out, in, "fp64 / fp16", or_unknown(d.fp64) + " / " + or_unknown(d.fp16));
  line(out, in, "compiler", compiler_text(d));
  line(out, in, "SVM", or_unknown(d.svm));
  line(out, in, "sub-devices", sub_devices_text(d));
  if (d.extensions) {
    line(out, in, "extensions",
         verbose ? join(*d.extensions, " ")
                 : std::to_string(d.extensions->size()) + " (--verbose lists them)");
  }
  if (d.image_formats)
    line(out, in, "image formats",
         verbose
             ? join(*d.image_formats, " ")
             : std::to_string(d.image_formats->size()) + " 2-D read-write (--verbose lists them)");
}

std::string device_text(const device_info& d, bool verbose) {
  std::string out =
      "  Device " + d.spec + " (or " + std::to_string(d.global_index) + "): " + d.name + "\n";
  device_lines(out, "    ", d, verbose);
  return out;
}
}  // namespace

std::string format_loader_text(const loader_report& loader, listing_mode listing) {
  std::string out = "ICD loader: " + (loader.library.empty() ? "(unknown)" : loader.library);
  if (!loader.name.empty()) out += " (" + loader.name + " " + loader.version + ")";
  out += "\n";
  for (const auto& [name, value] : loader.environment)
    if (value || name == "OCL_ICD_VENDORS")
      line(out, "  ", name, value ? "'" + *value + "'" : "(unset)");
  std::string where;
  switch (loader.search) {
    case icd_search::folder:
      where =
          "folder " + loader.path +
          (loader.path_exists ? " (" + std::to_string(loader.entries.size()) +
                                    (loader.entries.size() == 1 ? " .icd file)" : " .icd files)")
                              : " (does not exist)");
      break;
    case icd_search::icd_file:
      where = "one .icd file, " + loader.path;
      break;
    case icd_search::library:
      where = "one driver library named by OCL_ICD_VENDORS, " + printable(loader.path);
      break;
  }
  line(out, "  ", "drivers from", where);
  for (const auto& e : loader.entries) {
    std::string what = e.file.empty() ? printable(e.library) : printable(e.file);
    if (!e.file.empty() && !e.library.empty()) what += " -> " + printable(e.library);
    out += "    " + what + ": " + e.detail + (is_safe(e.status) ? "" : " [UNSAFE]") + "\n";
  }
  if (loader.probe.ran) out += "  probe: " + loader.probe.describe() + "\n";
  if (listing == listing_mode::without_unsafe_files)
    out +=
        "  The listing below leaves out the unsafe files; platform and device numbers may differ "
        "from what programs see once they are fixed.\n";
  if (listing == listing_mode::none)
    out += "  Nothing is listed: the loader cannot be used safely.\n";
  return out;
}

std::string format_text(const info_report& report, bool verbose) {
  std::string out = "AnyCL " + std::string(anycl::version()) + "\n\n";
  out += format_loader_text(report.loader, report.listing);
  if (report.platforms.empty()) return out;
  out += "\nDevices, with the spec that selects each (ANYCL_DEVICE=<spec> or --device <spec>):\n";
  out += anycl::detail::describe(report.inventory);
  if (report.default_device) {
    const auto& dd = *report.default_device;
    out += "Default device: " + (dd.selected ? *dd.selected : std::string("none")) + " (" +
           (dd.spec ? "ANYCL_DEVICE='" + *dd.spec + "'"
                    : std::string("ANYCL_DEVICE unset: a GPU, then an accelerator, then a CPU")) +
           ")\n";
    // A wrong ANYCL_DEVICE needs one line; no device at all needs the whole message (its hints).
    if (dd.error) out += "  " + (dd.spec ? first_sentence(*dd.error) : *dd.error) + "\n";
  }
  for (const auto& p : report.platforms) {
    out += "\nPlatform " + std::to_string(p.index) + ": " + p.name + "\n";
    line(out, "  ", "vendor", p.vendor);
    line(out, "  ", "version", p.version);
    line(out, "  ", "profile", or_unknown(p.profile));
    if (verbose && p.extensions) line(out, "  ", "extensions", join(*p.extensions, " "));
    if (p.devices.empty()) out += "  (no devices)\n";
    for (const auto& d : p.devices) out += device_text(d, verbose);
  }
  return out;
}

std::string format_selection_text(const info_report& report, bool verbose) {
  const selection_info& s = *report.selection;
  std::string out = "Spec '" + s.spec +
                    "': alternatives are tried in order; the first that "
                    "matches selects.\n";
  for (std::size_t a = 0; a < s.alternatives.size(); ++a) {
    const auto& alt = s.alternatives[a];
    out += "  " + std::to_string(a + 1) + ". '" + alt.text + "': platform " + alt.platform +
           ", device " + alt.device + ": " +
           (alt.matches.empty() ? "matches nothing" : "matches " + join(alt.matches, ", ")) +
           (s.chosen && *s.chosen == a ? "  <- selects" : "") + "\n";
  }
  out += "Selected: " + s.selected.front();
  if (s.selected.size() > 1)
    out += " (select_device takes the first match; select_devices takes all: " +
           join(s.selected, ", ") + ")";
  out += "\n";
  for (const auto& p : report.platforms)
    for (const auto& d : p.devices)
      for (const auto& sel : s.selected)
        if (sel == d.spec)
          out += "\nPlatform " + std::to_string(p.index) + ": " + p.name + "\n" +
                 device_text(d, verbose);
  return out;
}

// --- JSON ---
namespace {
/// A small JSON writer: objects and arrays with two-space indentation.
class json_writer {
 public:
  std::string str() const { return out_ + "\n"; }
  json_writer& begin_object() { return open('{'); }
  json_writer& end_object() { return close('}'); }
  json_writer& begin_array() { return open('['); }
  json_writer& end_array() { return close(']'); }
  json_writer& key(const std::string& k) {
    item();
    out_ += json_string(k) + ": ";
    after_key_ = true;
    return *this;
  }
  json_writer& raw(const std::string& v) {
    item();
    out_ += v;
    return *this;
  }
  json_writer& value(const std::string& v) { return raw(json_string(v)); }
  json_writer& value(const char* v) { return raw(json_string(v)); }
  json_writer& value(bool v) { return raw(v ? "true" : "false"); }
  json_writer& value(unsigned long long v) { return raw(std::to_string(v)); }
  json_writer& value(long long v) { return raw(std::to_string(v)); }
  json_writer& null() { return raw("null"); }
  template <class T>
  json_writer& value(const std::optional<T>& v) {
    return v ? value(*v) : null();
  }
  // Arrays of scalars stay on one line.
  json_writer& value(const std::vector<std::string>& v) {
    std::string a = "[";
    for (std::size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + json_string(v[i]);
    return raw(a + "]");
  }
  json_writer& value(const std::vector<std::size_t>& v) {
    std::string a = "[";
    for (std::size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + std::to_string(v[i]);
    return raw(a + "]");
  }

 private:
  json_writer& open(char c) {
    item();
    out_ += c;
    first_.push_back(true);
    return *this;
  }
  json_writer& close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ += c;
    return *this;
  }
  void item() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ += ",";
    first_.back() = false;
    newline();
  }
  void newline() { out_ += "\n" + std::string(2 * first_.size(), ' '); }
  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

void device_json(json_writer& j, const device_info& d) {
  j.begin_object();
  j.key("index").value(static_cast<unsigned long long>(d.index));
  j.key("spec").value(d.spec);
  j.key("global_index").value(static_cast<unsigned long long>(d.global_index));
  j.key("name").value(d.name);
  j.key("type").value(d.type);
  j.key("type_bits").value(d.type_bits);
  j.key("vendor").value(d.vendor);
  j.key("version").value(d.version);
  j.key("opencl_c_version").value(d.opencl_c_version);
  j.key("driver_version").value(d.driver_version);
  j.key("available").value(d.available);
  j.key("compute_units").value(d.compute_units);
  j.key("max_clock_mhz").value(d.max_clock_mhz);
  j.key("global_memory_bytes").value(d.global_memory);
  j.key("local_memory_bytes").value(d.local_memory);
  j.key("max_alloc_bytes").value(d.max_alloc);
  j.key("max_work_group_size").value(d.max_work_group_size);
  j.key("max_work_item_sizes").value(d.max_work_item_sizes);
  j.key("fp64").value(d.fp64);
  j.key("fp16").value(d.fp16);
  j.key("compiler_available").value(d.compiler_available);
  j.key("svm").value(d.svm);
  j.key("sub_devices").begin_object();
  j.key("max").value(d.max_sub_devices);
  j.key("partition_properties").value(d.partition_properties);
  j.end_object();
  j.key("image_formats").value(d.image_formats);
  j.key("extensions").value(d.extensions);
  j.end_object();
}

/// A count, or null when it is negative (not known).
void count_json(json_writer& j, int n) {
  if (n >= 0) {
    j.value(static_cast<long long>(n));
  } else {
    j.null();
  }
}

/// `s`, or null when it is empty.
std::optional<std::string> non_empty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional(s);
}

void icd_entry_json(json_writer& j, const icd_entry& e) {
  j.begin_object();
  j.key("file").value(non_empty(printable(e.file)));
  j.key("library").value(non_empty(printable(e.library)));
  j.key("status").value(to_string(e.status));
  j.key("safe").value(is_safe(e.status));
  j.key("platforms");
  count_json(j, e.platforms);
  j.key("detail").value(e.detail);
  j.end_object();
}

/// The child's clGetPlatformIDs, or null when it did not run.
void probe_json(json_writer& j, const platform_probe& probe) {
  if (!probe.ran) {
    j.null();
    return;
  }
  j.begin_object();
  j.key("outcome").value(probe.outcome());
  if (probe.child.signal != 0) {
    j.key("signal").value(static_cast<long long>(probe.child.signal));
    j.key("signal_name").value(signal_name(probe.child.signal));
  } else {
    j.key("signal").null();
    j.key("signal_name").null();
  }
  j.key("platforms");
  count_json(j, probe.platforms);
  j.key("detail").value(probe.describe());
  j.end_object();
}

void loader_json(json_writer& j, const info_report& r) {
  const loader_report& l = r.loader;
  j.begin_object();
  j.key("library").value(non_empty(l.library));
  j.key("name").value(non_empty(l.name));
  j.key("version").value(non_empty(l.version));
  j.key("environment").begin_object();
  for (const auto& [name, value] : l.environment) j.key(name).value(value);
  j.end_object();
  const char* kinds[] = {"folder", "icd_file", "library"};
  j.key("search").begin_object();
  j.key("kind").value(kinds[static_cast<int>(l.search)]);
  j.key("path").value(printable(l.path));
  j.key("exists").value(l.path_exists);
  j.end_object();
  j.key("icd_files").begin_array();
  for (const auto& e : l.entries) icd_entry_json(j, e);
  j.end_array();
  j.key("probe");
  probe_json(j, l.probe);
  j.key("listing").value(to_string(r.listing));
  j.end_object();
}

/// `v` written by `write`, or null when it is empty.
template <class T, class F>
void object_or_null(json_writer& j, const std::optional<T>& v, F write) {
  if (v) {
    write(j, *v);
  } else {
    j.null();
  }
}

/// The device select_device() takes without a spec.
void default_device_json(json_writer& j, const default_device_info& dd) {
  j.begin_object();
  j.key("source").value(dd.source);
  j.key("spec").value(dd.spec);
  j.key("selected").value(dd.selected);
  j.key("error").value(dd.error);
  j.end_object();
}

/// What --device selects.
void selection_json(json_writer& j, const selection_info& s) {
  j.begin_object();
  j.key("spec").value(s.spec);
  j.key("alternatives").begin_array();
  for (const auto& a : s.alternatives) {
    j.begin_object();
    j.key("text").value(a.text);
    j.key("platform").value(a.platform);
    j.key("device").value(a.device);
    j.key("matches").value(a.matches);
    j.end_object();
  }
  j.end_array();
  j.key("selected").value(s.selected);
  if (s.selected.empty()) {
    j.key("first").null();
  } else {
    j.key("first").value(s.selected.front());
  }
  j.end_object();
}

void platform_json(json_writer& j, const platform_info& p) {
  j.begin_object();
  j.key("index").value(static_cast<unsigned long long>(p.index));
  j.key("name").value(p.name);
  j.key("vendor").value(p.vendor);
  j.key("version").value(p.version);
  j.key("profile").value(p.profile);
  j.key("extensions").value(p.extensions);
  j.key("devices").begin_array();
  for (const auto& d : p.devices) device_json(j, d);
  j.end_array();
  j.end_object();
}
}  // namespace

std::string format_json(const info_report& r) {
  json_writer j;
  j.begin_object();
  j.key("anycl_version").value(anycl::version());
  j.key("loader");
  loader_json(j, r);
  j.key("default_device");
  object_or_null(j, r.default_device, default_device_json);
  j.key("selection");
  object_or_null(j, r.selection, selection_json);
  j.key("platforms").begin_array();
  for (const auto& p : r.platforms) platform_json(j, p);
  j.end_array();
  j.key("problems").value(r.problems);
  j.key("advice").value(r.advice);
  j.end_object();
  return j.str();
}

}  // namespace anycl::tools
