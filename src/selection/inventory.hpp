// SPDX-License-Identifier: Apache-2.0
// Device selection as a pure function over an inventory of the machine, so that the grammar, the
// listing and the not-found message are tested without a device.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "anycl/device_selector.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// What selection sees of the machine; lets the grammar be tested without a device.
struct inventory_device {
  std::string name;
  device_type type = device_type::all;
};
struct inventory_platform {
  std::string name;
  std::string vendor;
  std::string version;
  std::vector<inventory_device> devices;
};
/// (platform index, device index) pairs that the first matching alternative selects; empty if none.
ANYCL_INTERNAL std::vector<std::pair<std::size_t, std::size_t>> match(
    const device_spec& spec, const std::vector<inventory_platform>& inventory);
/// The listing used in device_not_found messages and anycl-info.
ANYCL_INTERNAL std::string describe(const std::vector<inventory_platform>& inventory);
/// The message of device_not_found for `spec` (`source` says where it came from).
ANYCL_INTERNAL std::string not_found_message(std::string_view spec, std::string_view source,
                                             const std::vector<inventory_platform>& inventory);

}  // namespace anycl::detail
