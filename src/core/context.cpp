// SPDX-License-Identifier: Apache-2.0
// Context creation and queries.
#include "anycl/context.hpp"

#include <stdexcept>

#include "anycl/device_selector.hpp"
#include "core/info.hpp"
#include "core/process.hpp"

namespace anycl {

context::context(const device& dev) : context(std::vector<device>{dev}) {}

context::context(const std::vector<device>& devices) {
  detail::check_not_forked();
  if (devices.empty()) throw std::invalid_argument("context: no devices given");
  std::vector<cl_device_id> ids;
  cl_platform_id plat = nullptr;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i])
      throw std::invalid_argument("context: device " + std::to_string(i) + " is null");
    cl_platform_id p = devices[i].platform().get();
    if (i == 0) plat = p;
    if (p != plat)
      throw std::invalid_argument("context: devices '" + devices[0].name() + "' and '" +
                                  devices[i].name() +
                                  "' belong to different platforms; a context spans one platform");
    ids.push_back(devices[i].get());
  }
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(plat), 0};
  cl_int status = CL_SUCCESS;
  cl_context raw = clCreateContext(props, static_cast<cl_uint>(ids.size()), ids.data(), nullptr,
                                   nullptr, &status);
  ANYCL_CHECK(status, "clCreateContext", "for ", ids.size(), " device(s), first '",
              devices[0].name(), "'");
  h_ = detail::handle<cl_context>::adopt(raw);
}

context context::from_spec(std::string_view spec) { return context(select_device(spec)); }

std::vector<device> context::devices() const {
  detail::check_not_forked();
  auto ids = detail::query<std::vector<cl_device_id>>(
      "clGetContextInfo", CL_CONTEXT_DEVICES, [&](size_t s, void* p, size_t* r) {
        return clGetContextInfo(h_.get(), CL_CONTEXT_DEVICES, s, p, r);
      });
  std::vector<device> out;
  out.reserve(ids.size());
  for (cl_device_id id : ids) out.push_back(device::retain(id));
  return out;
}

anycl::platform context::platform() const { return devices().at(0).platform(); }

}  // namespace anycl
