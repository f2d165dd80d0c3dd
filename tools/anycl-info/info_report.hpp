// SPDX-License-Identifier: Apache-2.0
// What anycl-info reports: every platform and device with the spec that selects it and its key
// capabilities, what a spec selects and why, and the loader's state, as text or as JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "anycl/device.hpp"
#include "anycl/device_selector.hpp"
#include "icd.hpp"
#include "selection/inventory.hpp"

namespace anycl::tools {

/// One device's capabilities; a query the driver refuses leaves its field empty.
struct device_info {
  std::size_t index = 0;         ///< within its platform
  std::size_t global_index = 0;  ///< across all platforms (the spec without a platform part)
  std::string spec;              ///< "platform:device", the spec that selects exactly this device
  std::string name;
  std::string type;  ///< as device::type() and spec matching see it: the first of its type bits
  std::optional<std::vector<std::string>> type_bits;  ///< CL_DEVICE_TYPE: every bit it reports
  std::optional<std::string> vendor, version, opencl_c_version, driver_version;
  std::optional<std::string> svm;  ///< CL_DEVICE_SVM_CAPABILITIES in words (svm_support)
  std::optional<unsigned long long> compute_units, max_clock_mhz, global_memory, local_memory,
      max_alloc, max_work_group_size, max_sub_devices;
  std::optional<std::vector<std::size_t>> max_work_item_sizes;
  std::optional<bool> available, fp64, fp16, compiler_available;
  std::optional<std::vector<std::string>> partition_properties;  ///< "equally", "by_counts", ...
  std::optional<std::vector<std::string>> extensions;
  /// Read-write 2-D image formats (image::supported_formats), none without image support.
  std::optional<std::vector<std::string>> image_formats;
  anycl::device device;
};

/// One platform and its devices.
struct platform_info {
  std::size_t index = 0;
  std::string name, vendor, version;
  std::optional<std::string> profile;
  std::optional<std::vector<std::string>> extensions;
  std::vector<device_info> devices;
};

/// What a spec selects, alternative by alternative.
struct selection_info {
  struct alternative {
    std::string text;                  ///< as written
    std::string platform, device;      ///< the parts in words: "any", "type gpu", "name 'pocl'"
    std::vector<std::string> matches;  ///< specs of the devices it matches
  };
  std::string spec;
  std::vector<alternative> alternatives;
  std::optional<std::size_t> chosen;  ///< the first alternative that matches
  std::vector<std::string> selected;  ///< specs of the devices selected
};

/// The device select_device() takes without a spec: ANYCL_DEVICE, else the default order.
struct default_device_info {
  std::string source;                   ///< "ANYCL_DEVICE" or "default order"
  std::optional<std::string> spec;      ///< ANYCL_DEVICE when set; empty for the default order
  std::optional<std::string> selected;  ///< its platform:device spec
  std::optional<std::string> error;     ///< why nothing was selected
};

/// Everything anycl-info prints.
struct info_report {
  loader_report loader;
  listing_mode listing = listing_mode::direct;
  bool no_platform = false;  ///< clGetPlatformIDs said -1001 (or nothing could be listed)
  std::vector<platform_info> platforms;
  std::vector<anycl::detail::inventory_platform> inventory;  ///< what spec matching sees
  std::optional<default_device_info> default_device;
  std::optional<selection_info> selection;
  std::vector<std::string> problems;  ///< what is wrong, one sentence each (stderr and JSON)
  std::vector<std::string> advice;    ///< what to do about it (stderr and JSON)
};

/// Lists platforms and devices (throws what platform::all() throws, no_platform_error included).
void collect_platforms(info_report& report);
/// Fills report.default_device (never throws for a bad ANYCL_DEVICE: it goes into `error`).
void collect_default_device(info_report& report);
/// Explains `spec` against the inventory; returns the selection (empty `selected` when none).
selection_info explain_selection(const anycl::device_spec& spec,
                                 const std::vector<anycl::detail::inventory_platform>& inventory);

/// The text output: the loader, the device list with specs and every device's capabilities.
std::string format_text(const info_report& report, bool verbose);
/// The loader part of the text output alone.
std::string format_loader_text(const loader_report& loader, listing_mode listing);
/// The text output for --device: the alternatives, what they match, the selected devices.
std::string format_selection_text(const info_report& report, bool verbose);
/// The JSON document (schema in README, "anycl-info"), one line per platform and device.
std::string format_json(const info_report& report);

}  // namespace anycl::tools
