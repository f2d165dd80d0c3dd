// SPDX-License-Identifier: Apache-2.0
// Buffers, sub-buffers and mappings.
#include "anycl/buffer.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "anycl/command_queue.hpp"
#include "core/buffer_create.hpp"
#include "core/info.hpp"
#include "core/memory_reclaim.hpp"
#include "core/process.hpp"

namespace anycl {

cl_mem_flags detail::flags_of(memory_access access) {
  switch (access) {
    case memory_access::read_only:
      return CL_MEM_READ_ONLY;
    case memory_access::write_only:
      return CL_MEM_WRITE_ONLY;
    case memory_access::read_write:
      break;
  }
  return CL_MEM_READ_WRITE;
}

namespace {
using detail::memory_reclaimer;

// Bytes in the live buffers of each context made here. Drivers allocate lazily (POCL creates any
// number of buffers and the process is killed when they are touched, catalogue row B-34), so a
// buffer that would take a context past its devices' global memory is refused up front. A buffer
// is refunded by its destructor callback, when the driver frees it; a context's entry goes when
// nothing is left in it. Never destroyed: the callbacks may run during exit.
struct memory_accounts {
  std::mutex m;
  std::map<cl_context, std::uint64_t> used;
};
memory_accounts& accounts() {
  static auto* a = new memory_accounts;
  return *a;
}

struct charge {
  cl_context ctx;
  std::uint64_t bytes;
};

void refund(const charge& c) noexcept {
  auto& a = accounts();
  std::lock_guard<std::mutex> lock(a.m);
  auto it = a.used.find(c.ctx);
  if (it == a.used.end()) return;
  it->second -= std::min(it->second, c.bytes);
  if (it->second == 0) a.used.erase(it);
}

void CL_CALLBACK refund_on_free(cl_mem, void* user) noexcept {
  std::unique_ptr<charge> c(static_cast<charge*>(user));
  refund(*c);
}

// Charges `c` to its context unless that takes it past `global` bytes; `used` is what was there.
bool try_charge(const charge& c, std::uint64_t global, std::uint64_t& used) {
  auto& a = accounts();
  std::lock_guard<std::mutex> lock(a.m);
  auto it = a.used.find(c.ctx);
  used = it == a.used.end() ? 0 : it->second;
  if (used > global || c.bytes > global - used) return false;
  a.used[c.ctx] = used + c.bytes;
  return true;
}

// The array layer's pools give back what they hold before a buffer is refused (called unlocked).
std::atomic<memory_reclaimer> reclaimer{nullptr};

}  // namespace

cl_mem detail::create_buffer(const context& ctx, std::size_t bytes, cl_mem_flags flags,
                             const void* data) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("buffer: the context is empty");
  // Drivers differ on oversized allocations (some accept and fail later), so check the limits here.
  cl_ulong global = 0;
  std::string smallest;
  for (const device& d : ctx.devices()) {
    cl_ulong limit = d.max_alloc();
    if (bytes > limit)
      detail::throw_api_error("clCreateBuffer", CL_INVALID_BUFFER_SIZE,
                              detail::cat("checked before the call: ", bytes,
                                          " bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE of ", limit,
                                          " bytes on '", d.name(), "'"));
    const cl_ulong memory = d.global_memory();
    if (smallest.empty() || memory < global) {
      global = memory;
      smallest = d.name();
    }
  }
  auto c = std::make_unique<charge>(charge{ctx.get(), bytes});
  std::uint64_t used = 0;
  if (!try_charge(*c, global, used)) {
    const memory_reclaimer r = reclaimer.load();
    if (r == nullptr || r(c->ctx) == 0 || !try_charge(*c, global, used))
      detail::throw_api_error(
          "clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE,
          detail::cat("checked before the call: ", bytes, " bytes on top of the ", used,
                      " bytes in the context's live buffers exceed CL_DEVICE_GLOBAL_MEM_SIZE of ",
                      global, " bytes on '", smallest,
                      "' (drivers allocate lazily and would fail only when the memory is used)"));
  }
  cl_int status = CL_SUCCESS;
  cl_mem raw = clCreateBuffer(ctx.get(), flags, bytes, const_cast<void*>(data), &status);
  if (status != CL_SUCCESS) {
    refund(*c);
    ANYCL_CHECK(status, "clCreateBuffer", bytes, " bytes");
  }
  status = clSetMemObjectDestructorCallback(raw, &refund_on_free, c.get());
  if (status != CL_SUCCESS) {
    clReleaseMemObject(raw);
    refund(*c);
    ANYCL_CHECK(status, "clSetMemObjectDestructorCallback", "the buffer's memory accounting");
  }
  c.release();  // refund_on_free owns it now
  return raw;
}

buffer::buffer(const anycl::context& ctx, std::size_t bytes, memory_access access) : size_(bytes) {
  if (bytes != 0)
    h_ = detail::handle<cl_mem>::adopt(
        detail::create_buffer(ctx, bytes, detail::flags_of(access), nullptr));
}

buffer::buffer(const anycl::context& ctx, const void* data, std::size_t bytes, memory_access access)
    : size_(bytes) {
  if (bytes == 0) return;
  if (data == nullptr)
    throw std::invalid_argument("buffer: null host data for " + std::to_string(bytes) + " bytes");
  h_ = detail::handle<cl_mem>::adopt(
      detail::create_buffer(ctx, bytes, detail::flags_of(access) | CL_MEM_COPY_HOST_PTR, data));
}

namespace {
std::size_t mem_size(cl_mem raw) {
  detail::check_not_forked();
  return detail::query<std::size_t>(
      "clGetMemObjectInfo", CL_MEM_SIZE,
      [&](size_t s, void* p, size_t* r) { return clGetMemObjectInfo(raw, CL_MEM_SIZE, s, p, r); });
}
}  // namespace

buffer buffer::adopt(cl_mem raw) {
  auto h = detail::handle<cl_mem>::adopt(raw);
  std::size_t size = raw != nullptr ? mem_size(raw) : 0;
  return buffer(std::move(h), size);
}

buffer buffer::retain(cl_mem raw) {
  std::size_t size = raw != nullptr ? mem_size(raw) : 0;
  return buffer(detail::handle<cl_mem>::retain(raw), size);
}

anycl::context buffer::context() const {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("buffer::context: the buffer is empty (size 0)");
  auto raw = detail::query<cl_context>(
      "clGetMemObjectInfo", CL_MEM_CONTEXT, [&](size_t s, void* p, size_t* r) {
        return clGetMemObjectInfo(h_.get(), CL_MEM_CONTEXT, s, p, r);
      });
  return anycl::context::retain(raw);
}

buffer buffer::sub_buffer(std::size_t offset, std::size_t bytes, memory_access access) const {
  detail::check_range("buffer::sub_buffer", offset, bytes, size_);
  if (bytes == 0) return buffer();
  for (const device& d : context().devices()) {
    cl_uint align_bits = d.info<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    std::size_t align = align_bits / 8;
    if (align != 0 && offset % align != 0)
      throw std::invalid_argument("buffer::sub_buffer: offset " + std::to_string(offset) +
                                  " is not a multiple of " + std::to_string(align) +
                                  " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN of '" + d.name() + "')");
  }
  cl_buffer_region region{offset, bytes};
  cl_int status = CL_SUCCESS;
  cl_mem raw = clCreateSubBuffer(h_.get(), detail::flags_of(access), CL_BUFFER_CREATE_TYPE_REGION,
                                 &region, &status);
  ANYCL_CHECK(status, "clCreateSubBuffer", "bytes [", offset, ", ", offset + bytes, ") of a ",
              size_, "-byte buffer");
  return buffer(detail::handle<cl_mem>::adopt(raw), bytes);
}

// --- mappings ---

mapped_bytes::mapped_bytes(const command_queue& queue, const buffer& buf, void* ptr)
    : queue_(detail::handle<cl_command_queue>::retain(queue.get())),
      mem_(detail::handle<cl_mem>::retain(buf.get())),
      ptr_(ptr) {}

mapped_bytes& mapped_bytes::operator=(mapped_bytes&& other) noexcept {
  if (this != &other) {
    release();
    queue_ = std::move(other.queue_);
    mem_ = std::move(other.mem_);
    ptr_ = std::exchange(other.ptr_, nullptr);
  }
  return *this;
}

mapped_bytes::~mapped_bytes() { release(); }

void mapped_bytes::release() noexcept {
  if (!queue_ || ptr_ == nullptr || detail::in_forked_child()) return;
  cl_event ev = nullptr;
  cl_int status = clEnqueueUnmapMemObject(queue_.get(), mem_.get(), ptr_, 0, nullptr, &ev);
  if (status == CL_SUCCESS) {
    status = clWaitForEvents(1, &ev);
    clReleaseEvent(ev);
  }
  if (status != CL_SUCCESS)
    detail::report_cleanup_error("mapped region", "clEnqueueUnmapMemObject", status);
  ptr_ = nullptr;
}

event mapped_bytes::unmap() {
  detail::check_not_forked();
  if (!queue_ || ptr_ == nullptr) return event();
  cl_event ev = nullptr;
  cl_int status = clEnqueueUnmapMemObject(queue_.get(), mem_.get(), ptr_, 0, nullptr, &ev);
  ANYCL_CHECK(status, "clEnqueueUnmapMemObject", "unmapping a region");
  ptr_ = nullptr;
  return event::adopt(ev);
}

}  // namespace anycl

namespace anycl::detail {

void set_memory_reclaimer(memory_reclaimer r) noexcept { reclaimer.store(r); }

}  // namespace anycl::detail
