// SPDX-License-Identifier: Apache-2.0
// cl_khr_command_buffer for command_buffer: its entry points per platform, and the native
// recording of a command list (each command after the one before, through sync points).
#include <map>
#include <mutex>
#include <stdexcept>

#include "core/check.hpp"
#include "core/kernel_state.hpp"
#include "launch/command_buffer_state.hpp"

namespace anycl::detail {

const khr_command_buffer* khr_command_buffer::of(cl_platform_id platform) {
  static std::mutex m;
  static auto* known = new std::map<cl_platform_id, std::unique_ptr<khr_command_buffer>>;
  std::lock_guard<std::mutex> lock(m);
  auto it = known->find(platform);
  if (it != known->end()) return it->second.get();
  auto f = std::make_unique<khr_command_buffer>();
  auto get = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        clGetExtensionFunctionAddressForPlatform(platform, name));
    return fn != nullptr;
  };
  const bool all = get(f->create, "clCreateCommandBufferKHR") &&
                   get(f->finalize, "clFinalizeCommandBufferKHR") &&
                   get(f->release, "clReleaseCommandBufferKHR") &&
                   get(f->enqueue, "clEnqueueCommandBufferKHR") &&
                   get(f->ndrange, "clCommandNDRangeKernelKHR") &&
                   get(f->copy, "clCommandCopyBufferKHR") && get(f->fill, "clCommandFillBufferKHR");
  if (!all) f.reset();
  return ((*known)[platform] = std::move(f)).get();
}

native_recording::~native_recording() {
  if (cb == nullptr) return;
  const cl_int status = f->release(cb);
  if (status != CL_SUCCESS)
    report_cleanup_error("cl_command_buffer_khr", "clReleaseCommandBufferKHR", status);
}

std::vector<kernel_arg> as_kernel_args(const recorded_command& c) {
  std::vector<kernel_arg> out(c.args.size());
  for (std::size_t i = 0; i < c.args.size(); ++i) {
    const stored_arg& a = c.args[i];
    out[i].k = a.k;
    out[i].size = a.size;
    out[i].value = a.value.data();
    out[i].mem = a.mem.get();
    if (a.k == kernel_arg::kind::memory) out[i].value = &out[i].mem;
    out[i].sampler = a.smp.get();
    if (a.k == kernel_arg::kind::sampler) out[i].value = &out[i].sampler;
    if (a.k == kernel_arg::kind::svm) {
      out[i].value = a.svm_ptr;
      out[i].svm = a.svm.state();
    }
  }
  return out;
}

namespace {

// The sync point of the last command recorded, which the next one waits for.
struct chain {
  bool any = false;
  cl_sync_point_khr last = 0;
};

// Records command `c` after the chain's last command and makes it the last.
void record_one(native_recording& n, const recorded_command& c, chain& ch) {
  const cl_uint waits = ch.any ? 1 : 0;
  const cl_sync_point_khr prev = ch.last;
  cl_sync_point_khr* const point = &ch.last;
  ch.any = true;
  switch (c.k) {
    case recorded_command::kind::launch: {
      const std::vector<kernel_arg> args = as_kernel_args(c);
      n.kernels.push_back(kernel_with_args(c.kern, args.data(), args.size()));
      const nd_range& r = c.range;
      ANYCL_CHECK(
          n.f->ndrange(n.cb, nullptr, nullptr, n.kernels.back().get(), r.dims(),
                       r.offset().dims() != 0 ? r.offset().data() : nullptr, r.global().data(),
                       r.local().dims() != 0 ? r.local().data() : nullptr, waits,
                       waits != 0 ? &prev : nullptr, point, nullptr),
          "clCommandNDRangeKernelKHR", "recording a launch in a command buffer");
      return;
    }
    case recorded_command::kind::copy:
      ANYCL_CHECK(n.f->copy(n.cb, nullptr, c.src.get(), c.dst.get(), c.src_offset, c.dst_offset,
                            c.bytes, waits, waits != 0 ? &prev : nullptr, point, nullptr),
                  "clCommandCopyBufferKHR", c.bytes, " bytes in a command buffer");
      return;
    case recorded_command::kind::fill:
      ANYCL_CHECK(
          n.f->fill(n.cb, nullptr, c.dst.get(), c.pattern.data(), c.pattern.size(), c.dst_offset,
                    c.bytes, waits, waits != 0 ? &prev : nullptr, point, nullptr),
          "clCommandFillBufferKHR", c.bytes, " bytes in a command buffer");
      return;
  }
}

// Commands that do nothing (an empty range, no bytes) are left out of the native recording.
bool does_nothing(const recorded_command& c) {
  return c.k == recorded_command::kind::launch ? c.range.empty() : c.bytes == 0;
}

}  // namespace

std::unique_ptr<native_recording> record_native(const command_buffer_state& s) {
  auto n = std::make_unique<native_recording>();
  n->f = s.khr;
  const cl_command_buffer_properties_khr simultaneous[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_queue q = s.queue.get();
  cl_int status = CL_SUCCESS;
  n->cb = n->f->create(1, &q, s.simultaneous ? simultaneous : nullptr, &status);
  ANYCL_CHECK(status, "clCreateCommandBufferKHR", "a command buffer of ", s.commands.size(),
              " commands");
  chain ch;
  for (const recorded_command& c : s.commands)
    if (!does_nothing(c)) record_one(*n, c, ch);
  ANYCL_CHECK(n->f->finalize(n->cb), "clFinalizeCommandBufferKHR", "a command buffer of ",
              s.commands.size(), " commands");
  return n;
}

}  // namespace anycl::detail
