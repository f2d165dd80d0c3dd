// SPDX-License-Identifier: Apache-2.0
// What copies of one kernel share: the cl_kernel, its name and arity, the lock held while its
// arguments are set and it is enqueued, the per-device launch limits and the first-launch hook.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "anycl/kernel.hpp"
#include "anycl/svm.hpp"
#include "core/hooks.hpp"

namespace anycl::detail {

/// What a device and a kernel allow, for the checks of a launch.
struct launch_limits {
  std::array<std::size_t, 3> max_item_sizes{};  ///< CL_DEVICE_MAX_WORK_ITEM_SIZES
  unsigned max_dims = 3;                        ///< CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS
  std::size_t kernel_work_group_size = 0;       ///< CL_KERNEL_WORK_GROUP_SIZE for the device
  std::uint64_t device_local_memory = 0;        ///< CL_DEVICE_LOCAL_MEM_SIZE
  std::uint64_t kernel_local_memory = 0;        ///< CL_KERNEL_LOCAL_MEM_SIZE (static __local)
};
struct device_limits {
  cl_device_id device;
  launch_limits limits;
};

struct kernel_state {
  handle<cl_kernel> h;
  std::string name;
  std::string program_name;
  cl_uint num_args = 0;
  std::mutex m;                       // held while arguments are set and the kernel enqueued
  std::vector<device_limits> limits;  // per device, filled on first launch there (under m)
  std::shared_ptr<first_launch_hook>
      hook;                              // the program's; dropped after this kernel's first launch
  std::vector<svm_memory> indirect_svm;  // kernel::use_svm's allocations (under m)
  std::string
      param_kinds;  // per parameter 'i' image, 's' sampler, '-' other, '?' unknown (under m)

  /// The limits of device `dev` for this kernel, queried on first use there (call under m).
  const launch_limits& limits_for(cl_device_id dev);
};

/// The state of `k`; throws std::invalid_argument naming `what` when `k` is empty, and
/// used_after_fork in a forked child.
kernel_state& require(const kernel& k, const char* what);

/// The checks enqueue_kernel makes, without enqueuing (a command buffer records after them).
void check_launch(const kernel& k, const command_queue& q, const nd_range& r, kernel_arg* args,
                  std::size_t count);

/// Sets `s.indirect_svm` as `raw`'s CL_KERNEL_EXEC_INFO_SVM_PTRS (call under s.m).
void set_indirect_svm(cl_kernel raw, const kernel_state& s);

/// A new cl_kernel of `k`'s program and name with `args` set (as checked by check_launch): a
/// command buffer's own copy, which no later clSetKernelArg on `k` reaches.
handle<cl_kernel> kernel_with_args(const kernel& k, const kernel_arg* args, std::size_t count);

}  // namespace anycl::detail
