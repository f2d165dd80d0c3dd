// SPDX-License-Identifier: Apache-2.0
// Launch geometry and the checks made before a kernel reaches the driver.
#include "anycl/nd_range.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "launch/limits.hpp"

namespace anycl {

range::range(std::initializer_list<std::size_t> sizes) {
  if (sizes.size() > 3)
    throw std::invalid_argument("range: " + std::to_string(sizes.size()) +
                                " sizes given; OpenCL launches have 1 to 3 dimensions");
  unsigned i = 0;
  for (std::size_t s : sizes) v_[i++] = s;
  dims_ = i;
}

nd_range::nd_range(range global, range local, range offset)
    : global_(global), local_(local), offset_(offset) {
  if (global.dims() == 0)
    throw std::invalid_argument("nd_range: the global size has 0 dimensions; give 1 to 3 sizes");
  if (local.dims() != 0 && local.dims() != global.dims())
    throw std::invalid_argument("nd_range: the local size has " + std::to_string(local.dims()) +
                                " dimensions, the global size " + std::to_string(global.dims()));
  if (offset.dims() != 0 && offset.dims() != global.dims())
    throw std::invalid_argument("nd_range: the offset has " + std::to_string(offset.dims()) +
                                " dimensions, the global size " + std::to_string(global.dims()));
}

bool nd_range::empty() const noexcept {
  for (unsigned i = 0; i < global_.dims(); ++i)
    if (global_[i] == 0) return true;
  return false;
}

// --- the work-item cap ---
namespace {
constexpr std::uint64_t default_cap = std::uint64_t{1} << 40;
std::atomic<std::uint64_t> cap_setting{0};

std::uint64_t env_cap() {
  static const std::uint64_t value = [] {
    const char* e = std::getenv("ANYCL_MAX_WORK_ITEMS");
    if (e == nullptr || *e == '\0') return default_cap;
    // Digits only: strtoull alone would take "-1" as 2^64-1 and clamp overflows silently.
    std::uint64_t v = 0;
    for (const char* c = e; *c != '\0'; ++c) {
      if (*c < '0' || *c > '9' || v > (UINT64_MAX - static_cast<unsigned>(*c - '0')) / 10) {
        std::fprintf(stderr,
                     "anycl: warning: ignoring ANYCL_MAX_WORK_ITEMS='%s' (not a number "
                     "of work-items); using 2^40\n",
                     e);
        return default_cap;
      }
      v = v * 10 + static_cast<unsigned>(*c - '0');
    }
    return v != 0 ? v : default_cap;
  }();
  return value;
}

std::string dims_text(const range& r) {
  std::string s;
  for (unsigned i = 0; i < r.dims(); ++i) s += (i ? " x " : "") + std::to_string(r[i]);
  return s;
}
}  // namespace

void set_max_work_items(std::uint64_t limit) noexcept { cap_setting.store(limit); }

std::uint64_t max_work_items() noexcept {
  std::uint64_t v = cap_setting.load();
  return v != 0 ? v : env_cap();
}

namespace detail {

namespace {
// Kept out of line and cold: launches that pass build no strings.
[[noreturn, gnu::cold]] void refuse(bool out_of_range, const char* kernel,
                                    const std::string& what) {
  std::string m = std::string("kernel '") + kernel + "': " + what;
  if (out_of_range) throw std::out_of_range(m);
  throw std::invalid_argument(m);
}

/// The global size against the work-item cap, and the offset against overflow.
void check_global(const nd_range& r, const launch_limits& lim, const char* kernel) {
  const unsigned dims = r.dims();
  if (dims > lim.max_dims)
    refuse(
        false, kernel,
        std::to_string(dims) + " dimensions, the device supports " + std::to_string(lim.max_dims));
  const std::uint64_t cap = max_work_items();
  std::uint64_t total = 1;
  for (unsigned i = 0; i < dims; ++i) {
    std::uint64_t g = r.global()[i];
    if (g != 0 && total > cap / g)
      refuse(false, kernel,
             "global size " + dims_text(r.global()) + " exceeds the limit of " +
                 std::to_string(cap) +
                 " work-items per launch (anycl::set_max_work_items or ANYCL_MAX_WORK_ITEMS raise "
                 "it)");
    total *= g;
  }
  if (r.offset().dims() != 0)
    for (unsigned i = 0; i < dims; ++i)
      if (r.global()[i] > std::numeric_limits<std::size_t>::max() - r.offset()[i])
        refuse(true, kernel,
               "offset " + std::to_string(r.offset()[i]) + " + global size " +
                   std::to_string(r.global()[i]) + " overflows size_t in dimension " +
                   std::to_string(i));
}

/// The local size: divisibility, and the device's and the kernel's work-group limits.
void check_local(const nd_range& r, const launch_limits& lim, const char* kernel) {
  const unsigned dims = r.dims();
  std::uint64_t group = 1;
  for (unsigned i = 0; i < dims; ++i) {
    const std::size_t g = r.global()[i], l = r.local()[i];
    if (l == 0) refuse(false, kernel, "local size 0 in dimension " + std::to_string(i));
    if (g % l != 0) {
      const std::size_t max = std::numeric_limits<std::size_t>::max();
      std::string fix = g / l + 1 <= max / l
                            ? "round the global size up to " + std::to_string((g / l + 1) * l) +
                                  " and skip the extra work-items in the kernel"
                            : "no multiple of the local size that large fits in size_t";
      refuse(false, kernel,
             "global size " + std::to_string(g) + " is not a multiple of local size " +
                 std::to_string(l) + " in dimension " + std::to_string(i) + "; " + fix);
    }
    if (lim.max_item_sizes[i] != 0 && l > lim.max_item_sizes[i])
      refuse(false, kernel,
             "local size " + std::to_string(l) + " in dimension " + std::to_string(i) +
                 " exceeds the device's " + std::to_string(lim.max_item_sizes[i]) +
                 " (CL_DEVICE_MAX_WORK_ITEM_SIZES)");
    group *= l;
  }
  if (lim.kernel_work_group_size != 0 && group > lim.kernel_work_group_size)
    refuse(false, kernel,
           "work-group of " + dims_text(r.local()) + " = " + std::to_string(group) +
               " work-items exceeds this kernel's " + std::to_string(lim.kernel_work_group_size) +
               " on the device (CL_KERNEL_WORK_GROUP_SIZE)");
}
}  // namespace

void validate_launch(const nd_range& r, const launch_limits& lim, std::uint64_t local_arg_bytes,
                     const char* kernel) {
  check_global(r, lim, kernel);
  if (r.local().dims() != 0) check_local(r, lim, kernel);
  const std::uint64_t need = local_arg_bytes + lim.kernel_local_memory;
  if (need < local_arg_bytes || (lim.device_local_memory != 0 && need > lim.device_local_memory))
    refuse(false, kernel,
           "needs " + std::to_string(need) + " bytes of __local memory (" +
               std::to_string(local_arg_bytes) + " in arguments + " +
               std::to_string(lim.kernel_local_memory) +
               " declared in the kernel), the device has " +
               std::to_string(lim.device_local_memory) + " (CL_DEVICE_LOCAL_MEM_SIZE)");
}

}  // namespace detail
}  // namespace anycl
