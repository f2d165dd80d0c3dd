// SPDX-License-Identifier: Apache-2.0
// Buffers over host memory: the caller's, used in place (CL_MEM_USE_HOST_PTR), borrowed or owned,
// and the driver's host-reachable allocations (CL_MEM_ALLOC_HOST_PTR).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "anycl/buffer.hpp"
#include "core/buffer_create.hpp"
#include "core/info.hpp"
#include "core/process.hpp"

namespace anycl {

namespace {

// What use_host needs of `data` before the driver sees it: memory, and the devices' alignment.
void check_host_memory(const context& ctx, const void* data, std::size_t bytes) {
  if (!ctx) throw std::invalid_argument("buffer::use_host: the context is empty");
  if (data == nullptr)
    throw std::invalid_argument("buffer::use_host: null host memory for " + std::to_string(bytes) +
                                " bytes");
  for (const device& d : ctx.devices()) {
    const std::size_t align = d.base_address_alignment();
    const auto address = reinterpret_cast<std::uintptr_t>(data);
    if (align > 1 && address % align != 0)
      throw std::invalid_argument(detail::cat(
          "buffer::use_host: host memory at ", data, " is not aligned to ", align,
          " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN of '", d.name(),
          "'); drivers copy or refuse such memory: allocate it with std::aligned_alloc(", align,
          ", ...) or copy it into a buffer"));
  }
}

void CL_CALLBACK drop_owner(cl_mem, void* user) noexcept {
  delete static_cast<std::shared_ptr<void>*>(user);
}

}  // namespace

buffer buffer::use_host(const anycl::context& ctx, void* data, std::size_t bytes, borrowed_t,
                        memory_access access) {
  if (bytes == 0) return buffer();
  check_host_memory(ctx, data, bytes);
  return buffer(detail::handle<cl_mem>::adopt(detail::create_buffer(
                    ctx, bytes, detail::flags_of(access) | CL_MEM_USE_HOST_PTR, data)),
                bytes);
}

buffer buffer::use_host(const anycl::context& ctx, std::shared_ptr<void> owner, void* data,
                        std::size_t bytes, memory_access access) {
  buffer b = use_host(ctx, data, bytes, borrowed, access);
  if (b.empty()) return b;
  // The driver calls back once it no longer uses the memory, after every pending command.
  auto held = std::make_unique<std::shared_ptr<void>>(std::move(owner));
  const cl_int status = clSetMemObjectDestructorCallback(b.get(), &drop_owner, held.get());
  if (status != CL_SUCCESS) {
    // Nothing can have used the memory yet: the buffer is released before `held` frees it.
    b = buffer();
    ANYCL_CHECK(status, "clSetMemObjectDestructorCallback", "owned host memory of ", bytes,
                " bytes");
  }
  held.release();  // drop_owner deletes it
  return b;
}

buffer buffer::alloc_host(const anycl::context& ctx, std::size_t bytes, memory_access access) {
  if (bytes == 0) return buffer();
  if (!ctx) throw std::invalid_argument("buffer::alloc_host: the context is empty");
  return buffer(detail::handle<cl_mem>::adopt(detail::create_buffer(
                    ctx, bytes, detail::flags_of(access) | CL_MEM_ALLOC_HOST_PTR, nullptr)),
                bytes);
}

std::size_t buffer::host_alignment(const anycl::context& ctx) {
  if (!ctx) throw std::invalid_argument("buffer::host_alignment: the context is empty");
  std::size_t align = 1;
  for (const device& d : ctx.devices()) align = std::max(align, d.base_address_alignment());
  return align;
}

void* buffer::host_ptr() const {
  detail::check_not_forked();
  if (!h_) return nullptr;
  return detail::query<void*>("clGetMemObjectInfo", CL_MEM_HOST_PTR,
                              [&](size_t s, void* p, size_t* r) {
                                return clGetMemObjectInfo(h_.get(), CL_MEM_HOST_PTR, s, p, r);
                              });
}

}  // namespace anycl
