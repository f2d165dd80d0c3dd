// SPDX-License-Identifier: Apache-2.0
// An OpenCL context: the devices that share buffers, programs and events.
#pragma once

#include <string_view>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/device.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// Owns a cl_context. Copies share it (retain), moves steal it.
class ANYCL_EXPORT context {
 public:
  context() noexcept = default;
  /// A context for one device (clCreateContext).
  explicit context(const device& dev);
  /// A context for several devices of one platform; throws std::invalid_argument for an empty list,
  /// a null device or devices of different platforms.
  explicit context(const std::vector<device>& devices);
  /// A context for the device a selection spec picks (see select_device).
  static context from_spec(std::string_view spec);

  static context adopt(cl_context raw) noexcept {
    return context(detail::handle<cl_context>::adopt(raw));
  }
  static context retain(cl_context raw) { return context(detail::handle<cl_context>::retain(raw)); }

  cl_context get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }

  /// The context's devices, in creation order (CL_CONTEXT_DEVICES).
  std::vector<device> devices() const;
  anycl::platform platform() const;

  friend bool operator==(const context& a, const context& b) noexcept { return a.h_ == b.h_; }
  friend bool operator!=(const context& a, const context& b) noexcept { return a.h_ != b.h_; }

 private:
  explicit context(detail::handle<cl_context> h) noexcept : h_(std::move(h)) {}
  detail::handle<cl_context> h_;
};

}  // namespace anycl
