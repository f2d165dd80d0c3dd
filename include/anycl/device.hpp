// SPDX-License-Identifier: Apache-2.0
// OpenCL devices: typed queries, a typed escape hatch, and sub-devices.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/detail/info.hpp"
#include "anycl/export.hpp"
#include "anycl/platform.hpp"

namespace anycl {

/// One OpenCL device. Root devices are not reference-counted; sub-devices are, and a device made by
enum class svm_kind;

/// What shared virtual memory a device offers (CL_DEVICE_SVM_CAPABILITIES).
struct ANYCL_EXPORT svm_support {
  bool coarse_grain_buffer = false;  ///< CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
  bool fine_grain_buffer = false;    ///< CL_DEVICE_SVM_FINE_GRAIN_BUFFER
  bool fine_grain_system = false;    ///< CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
  bool atomics = false;              ///< CL_DEVICE_SVM_ATOMICS
  /// The capabilities as words, "coarse-grained buffer, fine-grained buffer, atomics" or "none".
  std::string to_string() const;
  /// Whether an allocation of `kind` can be made.
  bool allows(svm_kind kind) const noexcept;
  /// Throws std::invalid_argument naming `device_name`, the capabilities and what to ask for
  /// instead unless allows(kind) (`what`: the caller, for the message).
  void require(svm_kind kind, const std::string& device_name, const char* what) const;
};

/// create_sub_devices_* owns its reference.
class ANYCL_EXPORT device {
 public:
  device() noexcept = default;

  /// Wraps a raw id from other OpenCL code; retains it if it is a sub-device (asked once, here).
  static device retain(cl_device_id raw);

  cl_device_id get() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != nullptr; }
  bool is_sub_device() const noexcept { return static_cast<bool>(owner_); }

  std::string name() const;              ///< CL_DEVICE_NAME
  std::string vendor() const;            ///< CL_DEVICE_VENDOR
  std::string version() const;           ///< CL_DEVICE_VERSION, "OpenCL 3.0 ..."
  std::string driver_version() const;    ///< CL_DRIVER_VERSION
  std::string opencl_c_version() const;  ///< CL_DEVICE_OPENCL_C_VERSION
  std::string extensions() const;        ///< CL_DEVICE_EXTENSIONS, space-separated
  bool has_extension(std::string_view name) const;
  device_type type() const;                 ///< the first of cpu/gpu/accelerator/custom it reports
  cl_uint compute_units() const;            ///< CL_DEVICE_MAX_COMPUTE_UNITS
  cl_uint max_clock_mhz() const;            ///< CL_DEVICE_MAX_CLOCK_FREQUENCY
  cl_ulong global_memory() const;           ///< CL_DEVICE_GLOBAL_MEM_SIZE, bytes
  cl_ulong local_memory() const;            ///< CL_DEVICE_LOCAL_MEM_SIZE, bytes
  cl_ulong max_alloc() const;               ///< CL_DEVICE_MAX_MEM_ALLOC_SIZE, bytes
  std::size_t max_work_group_size() const;  ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  std::vector<std::size_t> max_work_item_sizes() const;  ///< per dimension
  bool fp64() const;                                     ///< double precision supported
  bool compiler_available() const;  ///< false on FPGAs: only prebuilt binaries run there
  /// True when the device works in host memory (a CPU, or CL_DEVICE_HOST_UNIFIED_MEMORY): mapping
  /// a buffer there gives its memory, not a copy. A driver rejecting the deprecated query: false.
  bool host_unified_memory() const;
  /// The alignment in bytes of host memory that buffers use in place (CL_DEVICE_MEM_BASE_ADDR_ALIGN
  /// is in bits).
  std::size_t base_address_alignment() const;
  /// Major and minor OpenCL version of the device, from version().
  std::pair<int, int> version_number() const;
  /// The shared virtual memory it offers (CL_DEVICE_SVM_CAPABILITIES); none before OpenCL 2.0.
  svm_support svm_capabilities() const;
  anycl::platform platform() const;

  /// Typed escape hatch for any clGetDeviceInfo parameter: T is std::string, std::vector<U> or a
  /// trivially copyable type of exactly the answer's size (else std::invalid_argument).
  template <class T>
  T info(cl_device_info param) const {
    return detail::from_info_bytes<T>(info_bytes(param), "clGetDeviceInfo");
  }
  /// The raw bytes of a clGetDeviceInfo answer; throws api_error.
  std::vector<unsigned char> info_bytes(cl_device_info param) const;

  /// Splits the device into sub-devices of `units` compute units each
  /// (CL_DEVICE_PARTITION_EQUALLY); throws std::invalid_argument for 0 and api_error from the
  /// driver.
  std::vector<device> create_sub_devices_equally(unsigned units) const;
  /// Splits the device into sub-devices with the given compute-unit counts
  /// (CL_DEVICE_PARTITION_BY_COUNTS); counts must be non-empty and positive.
  std::vector<device> create_sub_devices_by_counts(const std::vector<unsigned>& counts) const;

  friend bool operator==(const device& a, const device& b) noexcept { return a.id_ == b.id_; }
  friend bool operator!=(const device& a, const device& b) noexcept { return a.id_ != b.id_; }

 private:
  friend class platform;
  static device root(cl_device_id raw) noexcept {
    device d;
    d.id_ = raw;
    return d;
  }
  std::vector<device> partition(const std::vector<cl_device_partition_property>& props) const;
  cl_device_id id_ = nullptr;
  detail::handle<cl_device_id> owner_;  // set for sub-devices only
};

}  // namespace anycl
