// SPDX-License-Identifier: Apache-2.0
// The disk cache's keys: what a binary's validity depends on (source with includes spliced,
// options, platform, device and driver), and the key of a prebuilt binary for one device.
#pragma once

#include <string>

#include "anycl/device.hpp"
#include "cache/digest.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// What a binary's validity depends on besides its source and options.
struct device_identity {
  std::string platform_name, platform_version, device_name, vendor, device_version, driver_version;
};
ANYCL_INTERNAL device_identity identify(const device& dev);
/// The disk-cache key of `source` (includes spliced) built with `options` for a device.
ANYCL_INTERNAL digest cache_key(std::string_view source, std::string_view options,
                                const device_identity& id);

/// The hash of a device identity (hex), for the names of prebuilt binaries.
std::string identity_hash(const device_identity& id);
/// identity_hash of the device's identity.
std::string identity_of(const device& dev);
/// The header key of a prebuilt binary for the device of `identity` (an identity_hash).
digest prebuilt_key(const std::string& identity);

}  // namespace anycl::detail
