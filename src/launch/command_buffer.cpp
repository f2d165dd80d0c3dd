// SPDX-License-Identifier: Apache-2.0
// command_buffer: the mode chosen for a queue, commands recorded (checked now, arguments copied),
// and replays, native or emulated by plain enqueues in the recorded order.
#include "anycl/command_buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/check.hpp"
#include "core/kernel_state.hpp"
#include "core/queue_internal.hpp"
#include "core/svm_state.hpp"
#include "launch/command_buffer_state.hpp"

namespace anycl {

namespace {

using detail::command_buffer_state;
using detail::recorded_command;

// ANYCL_COMMAND_BUFFER for the automatic mode: auto (or unset), native or emulated.
command_buffer_mode mode_from_environment() {
  const char* env = std::getenv("ANYCL_COMMAND_BUFFER");
  const std::string_view v = env != nullptr ? env : "";
  if (v.empty() || v == "auto") return command_buffer_mode::automatic;
  if (v == "native") return command_buffer_mode::native;
  if (v == "emulated") return command_buffer_mode::emulated;
  throw std::invalid_argument("ANYCL_COMMAND_BUFFER is '" + std::string(v) +
                              "', expected auto, native or emulated");
}

// Why the device cannot replay natively on `q`, or "" when it can; sets `simultaneous`.
std::string native_refusal(const command_queue& q, bool& simultaneous) {
  const device d = q.device();
  if (!d.has_extension("cl_khr_command_buffer"))
    return "device '" + d.name() + "' has no cl_khr_command_buffer";
  const auto caps =
      d.info<cl_device_command_buffer_capabilities_khr>(CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  const auto required =
      d.info<cl_command_queue_properties>(CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR);
  const queue_properties qp = q.properties();
  const cl_command_queue_properties props =
      (qp.out_of_order ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0) |
      (qp.profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
  if ((props & required) != required)
    return "device '" + d.name() +
           "' records command buffers only on queues with the properties in "
           "CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR";
  if ((props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0 &&
      (caps & CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR) == 0)
    return "device '" + d.name() + "' records command buffers on in-order queues only";
  simultaneous = (caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR) != 0;
  return "";
}

detail::stored_arg store(const detail::kernel_arg& a) {
  detail::stored_arg s;
  s.k = a.k;
  s.size = a.size;
  if (a.k == detail::kernel_arg::kind::memory) {
    s.mem = buffer::retain(a.mem);
  } else if (a.k == detail::kernel_arg::kind::value) {
    const auto* p = static_cast<const unsigned char*>(a.value);
    s.value.assign(p, p + a.size);
  } else if (a.k == detail::kernel_arg::kind::sampler) {
    s.smp = detail::handle<cl_sampler>::retain(a.sampler);
  } else if (a.k == detail::kernel_arg::kind::svm) {
    s.svm = svm_memory::from_state(a.svm);
    s.svm_ptr = const_cast<void*>(a.value);
  }
  return s;
}

// Remembers a native replay `ev` in the SVM allocations its launches use (emulated replays go
// through enqueue_kernel, which does).
void record_svm(const command_buffer_state& s, cl_event ev) {
  for (const detail::recorded_command& c : s.commands) {
    for (const detail::stored_arg& a : c.args) detail::svm_record(a.svm.state(), ev);
    if (c.k != detail::recorded_command::kind::launch) continue;
    detail::kernel_state* ks = c.kern.state();
    std::lock_guard<std::mutex> lock(ks->m);
    for (const svm_memory& m : ks->indirect_svm) detail::svm_record(m.state(), ev);
  }
}

// The checks of a launch on the buffer's queue, and the arguments as recorded.
std::vector<detail::stored_arg> checked_args(const command_buffer_state& s, const kernel& k,
                                             const nd_range& r, const detail::kernel_arg* args,
                                             std::size_t count) {
  std::vector<detail::kernel_arg> copy(args, args + count);
  detail::check_launch(k, s.queue, r, copy.data(), copy.size());
  std::vector<detail::stored_arg> out;
  for (const detail::kernel_arg& a : copy) out.push_back(store(a));
  return out;
}

// One command enqueued as a plain command after `waits` (an emulated replay).
event enqueue_one(const command_queue& q, const recorded_command& c, const wait_list& waits) {
  switch (c.k) {
    case recorded_command::kind::launch: {
      std::vector<detail::kernel_arg> args = detail::as_kernel_args(c);
      return detail::enqueue_kernel(c.kern, q, c.range, args.data(), args.size(), waits);
    }
    case recorded_command::kind::copy:
      return q.copy_bytes(c.src, c.src_offset, c.dst, c.dst_offset, c.bytes, waits);
    case recorded_command::kind::fill:
      break;
  }
  return q.fill_bytes(c.dst, c.dst_offset, c.bytes, c.pattern.data(), c.pattern.size(), waits);
}

}  // namespace

command_buffer::command_buffer(const command_queue& queue, command_buffer_mode mode)
    : s_(std::make_shared<command_buffer_state>()) {
  detail::require(queue);
  s_->queue = queue;
  if (mode == command_buffer_mode::automatic) mode = mode_from_environment();
  if (mode == command_buffer_mode::emulated) return;
  std::string why = native_refusal(queue, s_->simultaneous);
  if (why.empty()) {
    s_->khr = detail::khr_command_buffer::of(queue.device().platform().get());
    if (s_->khr == nullptr)
      why = "the platform of device '" + queue.device().name() +
            "' lists cl_khr_command_buffer but gives no entry points for it";
  }
  s_->native_required = mode == command_buffer_mode::native;
  if (!why.empty() && mode == command_buffer_mode::native)
    throw std::invalid_argument("command_buffer (native): " + why +
                                "; use command_buffer_mode::automatic to emulate it");
}

detail::command_buffer_state& command_buffer::state() const {
  if (!s_) throw std::invalid_argument("command_buffer: empty (default-constructed)");
  return *s_;
}

bool command_buffer::native() const noexcept { return s_ && s_->khr != nullptr; }

std::size_t command_buffer::size() const noexcept {
  if (!s_) return 0;
  std::lock_guard<std::mutex> lock(s_->m);
  return s_->commands.size();
}

const command_queue& command_buffer::queue() const { return state().queue; }

namespace {
// Adds `c` to the recording and returns its index, unless recording has ended.
std::size_t append(command_buffer_state& s, recorded_command c, const char* what) {
  std::lock_guard<std::mutex> lock(s.m);
  if (!s.recording)
    throw std::logic_error(std::string("command_buffer::") + what +
                           ": the commands are fixed after the first enqueue(); record a new "
                           "command_buffer (update() changes a launch's arguments)");
  s.commands.push_back(std::move(c));
  return s.commands.size() - 1;
}
// POCL 3.1 aborts (a failed mutex assertion) recording a launch with a sampler argument: such a
// launch makes an automatic buffer emulated, and is refused by a native one (call under s.m, or
// while only this thread knows the buffer).
void avoid_native_samplers(command_buffer_state& s, const std::vector<detail::stored_arg>& args) {
  if (s.khr == nullptr) return;
  for (const detail::stored_arg& a : args) {
    if (a.k != detail::kernel_arg::kind::sampler) continue;
    if (s.native_required)
      throw std::invalid_argument(
          "command_buffer (native): a launch with a sampler argument, which drivers crash "
          "recording (POCL 3.1 aborts); declare the sampler in the kernel (const sampler_t) or "
          "use command_buffer_mode::automatic, which emulates such a buffer");
    if (s.native && s.last) s.last.wait();
    s.native.reset();
    s.khr = nullptr;
    return;
  }
}
}  // namespace

std::size_t command_buffer::record_launch(const kernel& k, const nd_range& r,
                                          const detail::kernel_arg* args, std::size_t count) {
  command_buffer_state& s = state();
  recorded_command c;
  c.args = checked_args(s, k, r, args, count);
  c.kern = k;
  c.range = r;
  {
    std::lock_guard<std::mutex> lock(s.m);
    if (s.recording) avoid_native_samplers(s, c.args);
  }
  return append(s, std::move(c), "launch");
}

void command_buffer::update_launch(std::size_t index, const kernel& k,
                                   const detail::kernel_arg* args, std::size_t count) {
  command_buffer_state& s = state();
  std::vector<detail::stored_arg> stored;
  {
    std::lock_guard<std::mutex> lock(s.m);
    if (index >= s.commands.size() || s.commands[index].k != recorded_command::kind::launch)
      throw std::out_of_range("command_buffer::update: command " + std::to_string(index) + " of " +
                              std::to_string(s.commands.size()) + " is not a launch");
    if (s.commands[index].kern.get() != k.get())
      throw std::invalid_argument("command_buffer::update: command " + std::to_string(index) +
                                  " launches another kernel than the one given (update takes the "
                                  "kernel_function recorded there, or a copy of it)");
    stored = checked_args(s, k, s.commands[index].range, args, count);
    avoid_native_samplers(s, stored);
    s.commands[index].args = std::move(stored);
    // Recorded again, with the new arguments, at the next enqueue; a pending replay keeps the
    // old recording (and its kernels) until it is done.
    if (s.native && s.last) s.last.wait();
    s.native.reset();
  }
}

std::size_t command_buffer::copy_bytes(const buffer& src, std::size_t src_offset, const buffer& dst,
                                       std::size_t dst_offset, std::size_t bytes) {
  command_buffer_state& s = state();
  detail::check_copy(src, src_offset, dst, dst_offset, bytes);
  recorded_command c;
  c.k = recorded_command::kind::copy;
  c.src = src;
  c.dst = dst;
  c.src_offset = src_offset;
  c.dst_offset = dst_offset;
  c.bytes = bytes;
  return append(s, std::move(c), "copy");
}

std::size_t command_buffer::fill_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                                       const void* pattern, std::size_t pattern_size) {
  command_buffer_state& s = state();
  detail::check_fill(dst, offset, bytes, pattern, pattern_size);
  recorded_command c;
  c.k = recorded_command::kind::fill;
  c.dst = dst;
  c.dst_offset = offset;
  c.bytes = bytes;
  const auto* p = static_cast<const unsigned char*>(pattern);
  c.pattern.assign(p, p + pattern_size);
  return append(s, std::move(c), "fill");
}

event command_buffer::enqueue(const wait_list& waits) {
  command_buffer_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  s.recording = false;
  if (s.commands.empty()) return s.last = s.queue.marker(waits);
  if (s.khr == nullptr) {
    event prev;
    for (std::size_t i = 0; i < s.commands.size(); ++i)
      prev = enqueue_one(s.queue, s.commands[i], i == 0 ? waits : wait_list(prev));
    return s.last = prev;
  }
  if (!s.native) s.native = detail::record_native(s);
  if (!s.simultaneous && s.last) s.last.wait();  // the driver refuses a second pending replay
  cl_event ev = nullptr;
  ANYCL_CHECK(s.khr->enqueue(0, nullptr, s.native->cb, waits.size(), waits.data(), &ev),
              "clEnqueueCommandBufferKHR", "a replay of ", s.commands.size(), " commands");
  s.last = event::adopt(ev);
  record_svm(s, ev);
  return s.last;
}

}  // namespace anycl
