// SPDX-License-Identifier: Apache-2.0
// The host-libraries switch (ANYCL_HOST_LIBRARIES, set_host_libraries) and the rule for the
// devices whose buffers the host libraries may work on in place.
#include "anycl/host_libraries.hpp"

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "anycl/error.hpp"

namespace anycl {

namespace {

// -1: not set in code (ANYCL_HOST_LIBRARIES decides), else the host_libraries value.
std::atomic<int> set_mode{-1};

host_libraries mode_from_env() {
  const char* v = std::getenv("ANYCL_HOST_LIBRARIES");
  if (v == nullptr || *v == '\0') return host_libraries::on;
  const std::string s = v;
  if (s == "on") return host_libraries::on;
  if (s == "off") return host_libraries::off;
  throw std::invalid_argument(
      "ANYCL_HOST_LIBRARIES='" + s +
      "' is not a host-libraries setting: use on (anycl::blas calls OpenBLAS on CPU devices "
      "that work in host memory) or off (CLBlast's OpenCL kernels on every device)");
}

}  // namespace

void set_host_libraries(host_libraries mode) noexcept {
  set_mode.store(static_cast<int>(mode), std::memory_order_relaxed);
}

host_libraries host_libraries_mode() {
  const int m = set_mode.load(std::memory_order_relaxed);
  return m < 0 ? mode_from_env() : static_cast<host_libraries>(m);
}

// The raw queries, not device::type() and device::host_unified_memory(): Oclgrind reports the
// CPU type among others and computes in memory of its own.
bool host_memory_device(const device& d) {
  if (!d) throw std::invalid_argument("anycl::host_memory_device: the device is empty");
  const auto type =
      d.info<cl_device_type>(CL_DEVICE_TYPE) & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT};
  if (type != CL_DEVICE_TYPE_CPU) return false;
  try {
    if (d.info<cl_bool>(CL_DEVICE_HOST_UNIFIED_MEMORY) != CL_TRUE) return false;
  } catch (const api_error&) {
    return false;  // optional since OpenCL 2.0: without the answer, no in-place work
  }
  const auto caps = d.info<cl_device_exec_capabilities>(CL_DEVICE_EXECUTION_CAPABILITIES);
  return (caps & CL_EXEC_NATIVE_KERNEL) != 0;
}

}  // namespace anycl
