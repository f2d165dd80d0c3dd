// SPDX-License-Identifier: Apache-2.0
#include "cache/key.hpp"

#include "anycl/platform.hpp"

namespace anycl::detail {
namespace {
/// Platform, device and driver: a binary is only valid where all of these match.
sha256& add_identity(sha256& h, const device_identity& id) {
  return h.field(id.platform_name)
      .field(id.platform_version)
      .field(id.device_name)
      .field(id.vendor)
      .field(id.device_version)
      .field(id.driver_version);
}

}  // namespace

std::string identity_hash(const device_identity& id) {
  sha256 h;
  return to_hex(add_identity(h, id).finish());
}

std::string identity_of(const device& dev) { return identity_hash(identify(dev)); }

digest prebuilt_key(const std::string& identity) {
  return sha256().field("anycl prebuilt binary").field(identity).finish();
}

device_identity identify(const device& dev) {
  anycl::platform p = dev.platform();
  return {p.name(), p.version(), dev.name(), dev.vendor(), dev.version(), dev.driver_version()};
}

digest cache_key(std::string_view source, std::string_view options, const device_identity& id) {
  sha256 h;
  h.field("anycl cache entry").field(std::to_string(entry_format_version));
  h.field(source).field(options);
  return add_identity(h, id).finish();
}

}  // namespace anycl::detail
