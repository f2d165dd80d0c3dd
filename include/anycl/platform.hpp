// SPDX-License-Identifier: Apache-2.0
// OpenCL platforms (drivers found by the ICD loader) and the device types they expose.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/export.hpp"

namespace anycl {

class device;

/// OpenCL device types, as a selector and as a query result.
enum class device_type : cl_device_type {
  cpu = CL_DEVICE_TYPE_CPU,
  gpu = CL_DEVICE_TYPE_GPU,
  accelerator = CL_DEVICE_TYPE_ACCELERATOR,
  custom = CL_DEVICE_TYPE_CUSTOM,
  all = CL_DEVICE_TYPE_ALL,
};

/// "cpu", "gpu", "accelerator", "custom", "all" (a device may report several bits: the first wins).
ANYCL_EXPORT std::string_view to_string(device_type type) noexcept;

/// One OpenCL platform (driver). Platforms are not reference-counted, so this is a plain value.
class ANYCL_EXPORT platform {
 public:
  platform() noexcept = default;

  /// Every platform the ICD loader finds, in its order (never assume index 0 is the one you want).
  /// Wraps clGetPlatformIDs; throws no_platform_error when there is none, with install advice.
  static std::vector<platform> all();

  /// Wraps a raw id from other OpenCL code (platforms have no reference count).
  static platform retain(cl_platform_id raw) noexcept { return platform(raw); }

  cl_platform_id get() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != nullptr; }

  std::string name() const;        ///< CL_PLATFORM_NAME
  std::string vendor() const;      ///< CL_PLATFORM_VENDOR
  std::string version() const;     ///< CL_PLATFORM_VERSION, "OpenCL 3.0 ..."
  std::string profile() const;     ///< CL_PLATFORM_PROFILE
  std::string extensions() const;  ///< CL_PLATFORM_EXTENSIONS, space-separated
  bool has_extension(std::string_view name) const;

  /// Devices of `type` on this platform; empty (not an error) when there are none.
  std::vector<device> devices(device_type type = device_type::all) const;

  friend bool operator==(const platform& a, const platform& b) noexcept { return a.id_ == b.id_; }
  friend bool operator!=(const platform& a, const platform& b) noexcept { return a.id_ != b.id_; }

 private:
  explicit platform(cl_platform_id id) noexcept : id_(id) {}
  cl_platform_id id_ = nullptr;
};

}  // namespace anycl
