// SPDX-License-Identifier: Apache-2.0
// The disk cache's keys: what a binary's validity depends on (source with includes spliced,
// options, platform, device and driver), and the key of a prebuilt binary for one device.
#pragma once

#include <string>

#include "anycl/kernel_loader.hpp"

namespace anycl::detail {

/// The hash of a device identity (hex), for the names of prebuilt binaries.
std::string identity_hash(const device_identity& id);
/// identity_hash of the device's identity.
std::string identity_of(const device& dev);
/// The header key of a prebuilt binary for the device of `identity` (an identity_hash).
digest prebuilt_key(const std::string& identity);

}  // namespace anycl::detail
