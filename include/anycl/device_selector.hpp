// SPDX-License-Identifier: Apache-2.0
// Device selection by spec: one grammar for code, ANYCL_DEVICE, tools and tests.
//
//   spec        := alternative (',' alternative)*        first alternative that matches wins
//   alternative := [platform ':'] device
//   platform    := index | 'all' | name-or-vendor substring (case-insensitive)
//   device      := index | 'cpu' | 'gpu' | 'accelerator' | 'fpga' | 'custom' | 'all' | name
//   substring
//
// A device index counts within the platform when a platform part is given (even 'all'), else across
// all platforms in order.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/device.hpp"
#include "anycl/export.hpp"
#include "anycl/platform.hpp"

namespace anycl {

/// One part of a spec alternative.
struct spec_part {
  enum class kind { any, index, type, name };
  kind k = kind::any;
  std::size_t index = 0;                ///< kind::index
  device_type type = device_type::all;  ///< kind::type
  std::string name;                     ///< kind::name, lower-case
};

/// One alternative: an optional platform part and a device part.
struct spec_alternative {
  spec_part platform;  ///< kind::any when not given or 'all'
  spec_part device;
  bool has_platform = false;  ///< a platform part was written: device indices count per platform
};

/// A parsed device spec. parse() throws std::invalid_argument naming the position of the problem.
struct device_spec {
  std::string text;
  std::vector<spec_alternative> alternatives;
  ANYCL_EXPORT static device_spec parse(std::string_view text);
};

/// The device `spec` selects; throws device_not_found listing every device with the spec that
/// selects it, and std::invalid_argument for a malformed spec.
ANYCL_EXPORT device select_device(std::string_view spec);
/// ANYCL_DEVICE if it is set and not empty, else the first GPU, then accelerator, then CPU.
ANYCL_EXPORT device select_device();
/// Every device the first matching alternative of `spec` selects (several for 'all' or a shared
/// name); throws like select_device.
ANYCL_EXPORT std::vector<device> select_devices(std::string_view spec);

/// Every platform and device with the spec that selects it, one per line (used in messages and
/// anycl-info).
ANYCL_EXPORT std::string describe_devices();

}  // namespace anycl
