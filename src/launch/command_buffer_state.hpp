// SPDX-License-Identifier: Apache-2.0
// What a command_buffer holds: the recorded commands (what every replay runs, emulated or
// native), and the native cl_command_buffer_khr made from them, through the extension's entry
// points.
#pragma once

#include <CL/cl_ext.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/command_buffer.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/kernel.hpp"
#include "anycl/svm.hpp"

namespace anycl::detail {

/// cl_khr_command_buffer's entry points on one platform (clGetExtensionFunctionAddressForPlatform).
struct khr_command_buffer {
  clCreateCommandBufferKHR_fn create = nullptr;
  clFinalizeCommandBufferKHR_fn finalize = nullptr;
  clReleaseCommandBufferKHR_fn release = nullptr;
  clEnqueueCommandBufferKHR_fn enqueue = nullptr;
  clCommandNDRangeKernelKHR_fn ndrange = nullptr;
  clCommandCopyBufferKHR_fn copy = nullptr;
  clCommandFillBufferKHR_fn fill = nullptr;
  /// The platform's entry points, or null when it lacks one of them (looked up once).
  static const khr_command_buffer* of(cl_platform_id platform);
};

/// A kernel argument as recorded: the value's bytes copied, a buffer retained.
struct stored_arg {
  kernel_arg::kind k = kernel_arg::kind::value;
  std::size_t size = 0;
  std::vector<unsigned char> value;
  buffer mem;
  handle<cl_sampler> smp;   // kind::sampler: retained
  svm_memory svm;           // kind::svm: the allocation, kept alive
  void* svm_ptr = nullptr;  // kind::svm: the pointer
};

/// One recorded command.
struct recorded_command {
  enum class kind { launch, copy, fill } k = kind::launch;
  kernel kern;        // launch: the caller's kernel (emulated replays; update() compares it)
  nd_range range{1};  // launch: as recorded
  std::vector<stored_arg> args;
  buffer src, dst;  // copy: both; fill: dst
  std::size_t src_offset = 0, dst_offset = 0, bytes = 0;
  std::vector<unsigned char> pattern;  // fill
};

/// The driver's command buffer and the private kernels its launches use; released together.
struct native_recording {
  const khr_command_buffer* f = nullptr;
  cl_command_buffer_khr cb = nullptr;
  std::vector<handle<cl_kernel>> kernels;
  native_recording() = default;
  native_recording(const native_recording&) = delete;
  native_recording& operator=(const native_recording&) = delete;
  ~native_recording();
};

struct command_buffer_state {
  std::mutex m;
  command_queue queue;
  const khr_command_buffer* khr = nullptr;  // null: emulated
  bool simultaneous = false;                // the device replays a buffer while one is pending
  bool native_required = false;             // command_buffer_mode::native was asked for
  bool recording = true;                    // until the first enqueue
  std::vector<recorded_command> commands;
  std::unique_ptr<native_recording> native;  // made at the first enqueue, again after update()
  event last;                                // the last replay's end
};

/// The arguments of a recorded launch as kernel_args pointing into it.
std::vector<kernel_arg> as_kernel_args(const recorded_command& c);

/// The native recording of `s.commands` (each command after the one before), finalized.
std::unique_ptr<native_recording> record_native(const command_buffer_state& s);

}  // namespace anycl::detail
