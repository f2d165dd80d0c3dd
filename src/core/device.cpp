// SPDX-License-Identifier: Apache-2.0
// Device queries and sub-devices.
#include "anycl/device.hpp"

#include <cstdio>
#include <stdexcept>

#include "core/info.hpp"
#include "core/process.hpp"

namespace anycl {

namespace {
template <class T>
T device_query(cl_device_id id, cl_device_info param) {
  detail::check_not_forked();
  return detail::query<T>("clGetDeviceInfo", param, [&](size_t s, void* p, size_t* r) {
    return clGetDeviceInfo(id, param, s, p, r);
  });
}
}  // namespace

device device::retain(cl_device_id raw) {
  device d;
  d.id_ = raw;
  if (raw != nullptr && device_query<cl_device_id>(raw, CL_DEVICE_PARENT_DEVICE) != nullptr)
    d.owner_ = detail::handle<cl_device_id>::retain(raw);
  return d;
}

std::string device::name() const { return device_query<std::string>(id_, CL_DEVICE_NAME); }
std::string device::vendor() const { return device_query<std::string>(id_, CL_DEVICE_VENDOR); }
std::string device::version() const { return device_query<std::string>(id_, CL_DEVICE_VERSION); }
std::string device::driver_version() const {
  return device_query<std::string>(id_, CL_DRIVER_VERSION);
}
std::string device::opencl_c_version() const {
  return device_query<std::string>(id_, CL_DEVICE_OPENCL_C_VERSION);
}
std::string device::extensions() const {
  return device_query<std::string>(id_, CL_DEVICE_EXTENSIONS);
}
bool device::has_extension(std::string_view name) const {
  return detail::has_word(extensions(), name);
}
device_type device::type() const {
  auto bits = device_query<cl_device_type>(id_, CL_DEVICE_TYPE);
  for (auto t :
       {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM})
    if (bits & t) return static_cast<device_type>(t);
  return device_type::all;
}
cl_uint device::compute_units() const {
  return device_query<cl_uint>(id_, CL_DEVICE_MAX_COMPUTE_UNITS);
}
cl_uint device::max_clock_mhz() const {
  return device_query<cl_uint>(id_, CL_DEVICE_MAX_CLOCK_FREQUENCY);
}
cl_ulong device::global_memory() const {
  return device_query<cl_ulong>(id_, CL_DEVICE_GLOBAL_MEM_SIZE);
}
cl_ulong device::local_memory() const {
  return device_query<cl_ulong>(id_, CL_DEVICE_LOCAL_MEM_SIZE);
}
cl_ulong device::max_alloc() const {
  return device_query<cl_ulong>(id_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
}
std::size_t device::max_work_group_size() const {
  return device_query<std::size_t>(id_, CL_DEVICE_MAX_WORK_GROUP_SIZE);
}
std::vector<std::size_t> device::max_work_item_sizes() const {
  return device_query<std::vector<std::size_t>>(id_, CL_DEVICE_MAX_WORK_ITEM_SIZES);
}
bool device::fp64() const {
  return device_query<cl_device_fp_config>(id_, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
}
bool device::compiler_available() const {
  return device_query<cl_bool>(id_, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE;
}
bool device::host_unified_memory() const {
  if (type() == device_type::cpu) return true;
  try {
    return device_query<cl_bool>(id_, CL_DEVICE_HOST_UNIFIED_MEMORY) == CL_TRUE;
  } catch (const api_error&) {
    return false;  // removed in OpenCL 2.0 and optional in 3.0: assume a copy, always correct
  }
}
std::size_t device::base_address_alignment() const {
  return device_query<cl_uint>(id_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
}
std::pair<int, int> device::version_number() const {
  int major = 0, minor = 0;
  std::string v = version();
  if (std::sscanf(v.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return {1, 0};
  return {major, minor};
}
anycl::platform device::platform() const {
  return anycl::platform::retain(device_query<cl_platform_id>(id_, CL_DEVICE_PLATFORM));
}
std::vector<unsigned char> device::info_bytes(cl_device_info param) const {
  detail::check_not_forked();
  return detail::query_bytes("clGetDeviceInfo", param, [&](size_t s, void* p, size_t* r) {
    return clGetDeviceInfo(id_, param, s, p, r);
  });
}

// --- sub-devices ---
std::vector<device> device::partition(
    const std::vector<cl_device_partition_property>& props) const {
  detail::check_not_forked();
  cl_uint n = 0;
  ANYCL_CHECK(clCreateSubDevices(id_, props.data(), 0, nullptr, &n), "clCreateSubDevices",
              "partitioning '", name(), "' (", compute_units(), " compute units)");
  std::vector<cl_device_id> ids(n);
  ANYCL_CHECK(clCreateSubDevices(id_, props.data(), n, ids.data(), nullptr), "clCreateSubDevices",
              "partitioning '", name(), "'");
  std::vector<device> out;
  out.reserve(n);
  for (cl_device_id id : ids) {
    device d;
    d.id_ = id;
    d.owner_ = detail::handle<cl_device_id>::adopt(id);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<device> device::create_sub_devices_equally(unsigned units) const {
  if (units == 0)
    throw std::invalid_argument("create_sub_devices_equally: 0 compute units per sub-device");
  return partition(
      {CL_DEVICE_PARTITION_EQUALLY, static_cast<cl_device_partition_property>(units), 0});
}

std::vector<device> device::create_sub_devices_by_counts(
    const std::vector<unsigned>& counts) const {
  if (counts.empty()) throw std::invalid_argument("create_sub_devices_by_counts: no counts given");
  std::vector<cl_device_partition_property> props{CL_DEVICE_PARTITION_BY_COUNTS};
  unsigned long total = 0;
  for (unsigned c : counts) {
    if (c == 0)
      throw std::invalid_argument(
          "create_sub_devices_by_counts: a count is 0; each sub-device "
          "needs at least one compute unit");
    total += c;
    props.push_back(static_cast<cl_device_partition_property>(c));
  }
  cl_uint available = compute_units();
  if (total > available)
    throw std::invalid_argument("create_sub_devices_by_counts: " + std::to_string(total) +
                                " compute units asked for, device '" + name() + "' has " +
                                std::to_string(available));
  props.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
  props.push_back(0);
  return partition(props);
}

}  // namespace anycl
