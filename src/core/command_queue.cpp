// SPDX-License-Identifier: Apache-2.0
// Queue creation, synchronisation and the untyped transfers behind the typed ones.
#include "anycl/command_queue.hpp"

#include <algorithm>
#include <stdexcept>

#include "anycl/device_selector.hpp"
#include "core/event_state.hpp"
#include "core/info.hpp"
#include "core/process.hpp"
#include "core/queue_internal.hpp"

namespace anycl {

using detail::require;
using detail::wait_list_only;
using detail::wait_raw;

command_queue::command_queue(const anycl::context& ctx, const anycl::device& dev,
                             queue_properties props) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("command_queue: the context is empty");
  if (!dev) throw std::invalid_argument("command_queue: the device is empty");
  // A sub-device also belongs to a context that lists its parent: POCL reports the root device in
  // CL_CONTEXT_DEVICES of a context made for a sub-device.
  auto devs = ctx.devices();
  bool member = false;
  for (cl_device_id id = dev.get(); id != nullptr && !member;) {
    member = std::any_of(devs.begin(), devs.end(),
                         [&](const anycl::device& d) { return d.get() == id; });
    id = anycl::device::retain(id).info<cl_device_id>(CL_DEVICE_PARENT_DEVICE);
  }
  if (!member)
    throw std::invalid_argument("command_queue: device '" + dev.name() +
                                "' is not a device of the context");
  cl_command_queue_properties bits = 0;
  if (props.out_of_order) bits |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  if (props.profiling) bits |= CL_QUEUE_PROFILING_ENABLE;
  cl_int status = CL_SUCCESS;
  cl_command_queue raw = nullptr;
  // OpenCL 1.x platforms (Oclgrind, older drivers) have no clCreateCommandQueueWithProperties.
  if (dev.version_number().first >= 2) {
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, bits, 0};
    raw = clCreateCommandQueueWithProperties(ctx.get(), dev.get(), qp, &status);
  } else {
    raw = clCreateCommandQueue(ctx.get(), dev.get(), bits, &status);
  }
  ANYCL_CHECK(status, "clCreateCommandQueue", "on '", dev.name(), "'",
              props.out_of_order ? " (out-of-order)" : "", props.profiling ? " (profiling)" : "");
  h_ = detail::handle<cl_command_queue>::adopt(raw);
  device_ = dev.get();
}

command_queue::command_queue(const anycl::device& dev, queue_properties props)
    : command_queue(anycl::context(dev), dev, props) {}

command_queue command_queue::from_spec(std::string_view spec, queue_properties props) {
  return command_queue(select_device(spec), props);
}

command_queue command_queue::retain(cl_command_queue raw) {
  detail::check_not_forked();
  auto h = detail::handle<cl_command_queue>::retain(raw);
  cl_device_id dev = nullptr;
  if (raw != nullptr)
    dev = detail::query<cl_device_id>("clGetCommandQueueInfo", CL_QUEUE_DEVICE,
                                      [&](size_t s, void* p, size_t* r) {
                                        return clGetCommandQueueInfo(raw, CL_QUEUE_DEVICE, s, p, r);
                                      });
  return command_queue(std::move(h), dev);
}

namespace {
template <class T>
T queue_query(cl_command_queue q, cl_command_queue_info param) {
  detail::check_not_forked();
  if (q == nullptr) throw std::invalid_argument("command_queue: the queue is empty");
  return detail::query<T>("clGetCommandQueueInfo", param, [&](size_t s, void* p, size_t* r) {
    return clGetCommandQueueInfo(q, param, s, p, r);
  });
}
}  // namespace

namespace detail {
void require(const command_queue& q) {
  check_not_forked();
  if (!q) throw std::invalid_argument("command_queue: the queue is empty");
}
}  // namespace detail

anycl::context command_queue::context() const {
  return anycl::context::retain(queue_query<cl_context>(get(), CL_QUEUE_CONTEXT));
}
anycl::device command_queue::device() const {
  require(*this);
  return anycl::device::retain(device_);
}
queue_properties command_queue::properties() const {
  auto bits = queue_query<cl_command_queue_properties>(get(), CL_QUEUE_PROPERTIES);
  return {(bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0,
          (bits & CL_QUEUE_PROFILING_ENABLE) != 0};
}

void command_queue::finish() const {
  require(*this);
  detail::check_not_in_callback("command_queue::finish");
  ANYCL_CHECK(clFinish(get()), "clFinish", "a command in the queue failed, or the device was lost");
}
void command_queue::flush() const {
  require(*this);
  ANYCL_CHECK(clFlush(get()), "clFlush", "");
}
event command_queue::marker(const wait_list& waits) const {
  require(*this);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueMarkerWithWaitList(get(), waits.size(), waits.data(), &ev),
              "clEnqueueMarkerWithWaitList", waits.size(), " events in the wait list");
  return event::adopt(ev);
}
event command_queue::barrier(const wait_list& waits) const {
  require(*this);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueBarrierWithWaitList(get(), waits.size(), waits.data(), &ev),
              "clEnqueueBarrierWithWaitList", waits.size(), " events in the wait list");
  return event::adopt(ev);
}

void command_queue::check_host_size(std::size_t host, std::size_t device) {
  if (host != device)
    throw std::invalid_argument("transfer: host data has " + std::to_string(host) +
                                " elements, the device range " + std::to_string(device));
}

// --- untyped transfers ---
namespace detail {
void wait_raw(const char* call, cl_event ev) {
  event owner = event::adopt(ev);  // released on every path
  wait_for_event(ev, call, "the transfer failed");
}

void wait_list_only(const wait_list& waits) {
  if (waits.size() != 0)
    ANYCL_CHECK(clWaitForEvents(waits.size(), waits.data()), "clWaitForEvents",
                "a command in the wait list failed");
}
}  // namespace detail

namespace {

void CL_CALLBACK drop_keep_alive(cl_event, cl_int, void* user) noexcept {
  delete static_cast<std::shared_ptr<const void>*>(user);
}

/// Keeps `keep` alive until `ev` completes; if the callback cannot be set, waits now instead.
void attach_keep_alive(cl_event ev, std::shared_ptr<const void> keep) {
  if (!keep) return;
  auto holder = std::make_unique<std::shared_ptr<const void>>(std::move(keep));
  if (clSetEventCallback(ev, CL_COMPLETE, drop_keep_alive, holder.get()) == CL_SUCCESS) {
    holder.release();
    return;
  }
  clWaitForEvents(1, &ev);
}
}  // namespace

void command_queue::write_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                                const void* src, const wait_list& waits) const {
  require(*this);
  detail::check_not_in_callback("command_queue::write (blocking)");
  detail::check_range("write", offset, bytes, dst.size());
  if (bytes == 0) return wait_list_only(waits);
  if (src == nullptr) throw std::invalid_argument("write: null host pointer");
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueWriteBuffer(get(), dst.get(), CL_TRUE, offset, bytes, src, waits.size(),
                                   waits.data(), &ev),
              "clEnqueueWriteBuffer", bytes, " bytes at offset ", offset, " of a ", dst.size(),
              "-byte buffer");
  // CL_TRUE already blocks; waiting on the event too keeps that true on every driver.
  wait_raw("clEnqueueWriteBuffer", ev);
}

void command_queue::read_bytes(const buffer& src, std::size_t offset, std::size_t bytes, void* dst,
                               const wait_list& waits) const {
  require(*this);
  detail::check_not_in_callback("command_queue::read (blocking)");
  detail::check_range("read", offset, bytes, src.size());
  if (bytes == 0) return wait_list_only(waits);
  if (dst == nullptr) throw std::invalid_argument("read: null host pointer");
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueReadBuffer(get(), src.get(), CL_TRUE, offset, bytes, dst, waits.size(),
                                  waits.data(), &ev),
              "clEnqueueReadBuffer", bytes, " bytes at offset ", offset, " of a ", src.size(),
              "-byte buffer");
  wait_raw("clEnqueueReadBuffer", ev);
}

event command_queue::enqueue_write_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                                         const void* src, const wait_list& waits,
                                         std::shared_ptr<const void> keep_alive) const {
  require(*this);
  detail::check_range("enqueue_write", offset, bytes, dst.size());
  if (bytes == 0) return marker(waits);
  if (src == nullptr) throw std::invalid_argument("enqueue_write: null host pointer");
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueWriteBuffer(get(), dst.get(), CL_FALSE, offset, bytes, src, waits.size(),
                                   waits.data(), &ev),
              "clEnqueueWriteBuffer", bytes, " bytes at offset ", offset, " of a ", dst.size(),
              "-byte buffer");
  event e = event::adopt(ev);
  attach_keep_alive(ev, std::move(keep_alive));
  return e;
}

event command_queue::enqueue_read_bytes(const buffer& src, std::size_t offset, std::size_t bytes,
                                        void* dst, const wait_list& waits,
                                        std::shared_ptr<void> keep_alive) const {
  require(*this);
  detail::check_range("enqueue_read", offset, bytes, src.size());
  if (bytes == 0) return marker(waits);
  if (dst == nullptr) throw std::invalid_argument("enqueue_read: null host pointer");
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueReadBuffer(get(), src.get(), CL_FALSE, offset, bytes, dst, waits.size(),
                                  waits.data(), &ev),
              "clEnqueueReadBuffer", bytes, " bytes at offset ", offset, " of a ", src.size(),
              "-byte buffer");
  event e = event::adopt(ev);
  attach_keep_alive(ev, std::move(keep_alive));
  return e;
}

event command_queue::copy_bytes(const buffer& src, std::size_t src_offset, const buffer& dst,
                                std::size_t dst_offset, std::size_t bytes,
                                const wait_list& waits) const {
  require(*this);
  detail::check_copy(src, src_offset, dst, dst_offset, bytes);
  if (bytes == 0) return marker(waits);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueCopyBuffer(get(), src.get(), dst.get(), src_offset, dst_offset, bytes,
                                  waits.size(), waits.data(), &ev),
              "clEnqueueCopyBuffer", bytes, " bytes");
  return event::adopt(ev);
}

event command_queue::fill_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                                const void* pattern, std::size_t pattern_size,
                                const wait_list& waits) const {
  require(*this);
  detail::check_fill(dst, offset, bytes, pattern, pattern_size);
  if (bytes == 0) return marker(waits);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueFillBuffer(get(), dst.get(), pattern, pattern_size, offset, bytes,
                                  waits.size(), waits.data(), &ev),
              "clEnqueueFillBuffer", bytes, " bytes with a ", pattern_size, "-byte pattern");
  return event::adopt(ev);
}

mapped_bytes command_queue::map_bytes(const buffer& buf, std::size_t offset, std::size_t bytes,
                                      map_access access, const wait_list& waits) const {
  require(*this);
  detail::check_not_in_callback("command_queue::map (blocking)");
  detail::check_range("map", offset, bytes, buf.size());
  if (bytes == 0) {
    wait_list_only(waits);
    return mapped_bytes();
  }
  cl_int status = CL_SUCCESS;
  void* ptr = clEnqueueMapBuffer(get(), buf.get(), CL_TRUE, detail::map_flags(access), offset,
                                 bytes, waits.size(), waits.data(), nullptr, &status);
  ANYCL_CHECK(status, "clEnqueueMapBuffer", bytes, " bytes at offset ", offset);
  return mapped_bytes(*this, buf, ptr);
}

}  // namespace anycl

namespace anycl::detail {

void check_copy(const buffer& src, std::size_t src_offset, const buffer& dst,
                std::size_t dst_offset, std::size_t bytes) {
  check_range("copy source", src_offset, bytes, src.size());
  check_range("copy destination", dst_offset, bytes, dst.size());
  if (bytes != 0 && src.get() == dst.get() && src_offset < dst_offset + bytes &&
      dst_offset < src_offset + bytes)
    throw std::invalid_argument(
        "copy: source [" + std::to_string(src_offset) + ", " + std::to_string(src_offset + bytes) +
        ") and destination [" + std::to_string(dst_offset) + ", " +
        std::to_string(dst_offset + bytes) + ") overlap in the same buffer");
}

cl_map_flags map_flags(map_access access) {
  return access == map_access::read    ? CL_MAP_READ
         : access == map_access::write ? CL_MAP_WRITE
                                       : (CL_MAP_READ | CL_MAP_WRITE);
}

void check_pattern(const char* what, std::size_t offset, std::size_t bytes, const void* pattern,
                   std::size_t pattern_size) {
  if (pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) != 0)
    throw std::invalid_argument(std::string(what) + ": pattern size " +
                                std::to_string(pattern_size) +
                                " is not a power of two up to 128 bytes");
  if (offset % pattern_size != 0 || bytes % pattern_size != 0)
    throw std::invalid_argument(std::string(what) + ": offset " + std::to_string(offset) +
                                " and size " + std::to_string(bytes) +
                                " must be multiples of the pattern size " +
                                std::to_string(pattern_size));
  if (bytes != 0 && pattern == nullptr)
    throw std::invalid_argument(std::string(what) + ": null pattern");
}

void check_fill(const buffer& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                std::size_t pattern_size) {
  check_range("fill", offset, bytes, dst.size());
  check_pattern("fill", offset, bytes, pattern, pattern_size);
}

}  // namespace anycl::detail
