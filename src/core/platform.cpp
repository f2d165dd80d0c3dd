// SPDX-License-Identifier: Apache-2.0
// Platform discovery and queries.
#include "anycl/platform.hpp"

#include "anycl/device.hpp"
#include "core/info.hpp"
#include "core/process.hpp"

namespace anycl {

std::string_view to_string(device_type type) noexcept {
  auto bits = static_cast<cl_device_type>(type);
  if (bits == CL_DEVICE_TYPE_ALL) return "all";
  if (bits & CL_DEVICE_TYPE_CPU) return "cpu";
  if (bits & CL_DEVICE_TYPE_GPU) return "gpu";
  if (bits & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  if (bits & CL_DEVICE_TYPE_CUSTOM) return "custom";
  return "unknown";
}

std::vector<platform> platform::all() {
  detail::check_not_forked();
  detail::note_opencl_use();
  cl_uint n = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &n);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && n == 0))
    throw no_platform_error(CL_PLATFORM_NOT_FOUND_KHR);
  ANYCL_CHECK(status, "clGetPlatformIDs", "counting platforms");
  std::vector<cl_platform_id> ids(n);
  ANYCL_CHECK(clGetPlatformIDs(n, ids.data(), nullptr), "clGetPlatformIDs", "listing platforms");
  std::vector<platform> out;
  out.reserve(n);
  for (cl_platform_id id : ids) out.push_back(platform(id));
  return out;
}

namespace {
std::string platform_string(cl_platform_id id, cl_platform_info param) {
  detail::check_not_forked();
  return detail::query<std::string>("clGetPlatformInfo", param, [&](size_t s, void* p, size_t* r) {
    return clGetPlatformInfo(id, param, s, p, r);
  });
}
}  // namespace

std::string platform::name() const { return platform_string(id_, CL_PLATFORM_NAME); }
std::string platform::vendor() const { return platform_string(id_, CL_PLATFORM_VENDOR); }
std::string platform::version() const { return platform_string(id_, CL_PLATFORM_VERSION); }
std::string platform::profile() const { return platform_string(id_, CL_PLATFORM_PROFILE); }
std::string platform::extensions() const { return platform_string(id_, CL_PLATFORM_EXTENSIONS); }
bool platform::has_extension(std::string_view name) const {
  return detail::has_word(extensions(), name);
}

std::vector<device> platform::devices(device_type type) const {
  detail::check_not_forked();
  auto bits = static_cast<cl_device_type>(type);
  cl_uint n = 0;
  cl_int status = clGetDeviceIDs(id_, bits, 0, nullptr, &n);
  if (status == CL_DEVICE_NOT_FOUND) return {};
  ANYCL_CHECK(status, "clGetDeviceIDs", "counting ", to_string(type), " devices of platform '",
              name(), "'");
  std::vector<cl_device_id> ids(n);
  ANYCL_CHECK(clGetDeviceIDs(id_, bits, n, ids.data(), nullptr), "clGetDeviceIDs", "listing ",
              to_string(type), " devices of platform '", name(), "'");
  std::vector<device> out;
  out.reserve(n);
  for (cl_device_id id : ids) out.push_back(device::root(id));
  return out;
}

}  // namespace anycl
