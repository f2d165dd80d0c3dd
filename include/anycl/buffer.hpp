// SPDX-License-Identifier: Apache-2.0
// Device memory: untyped buffers, typed views of them, and mapped host regions.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"

namespace anycl {

class command_queue;

/// How kernels may access a buffer (CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY).
enum class memory_access { read_write, read_only, write_only };

/// Marks host memory that a buffer uses in place but does not own (buffer::use_host).
struct borrowed_t {
  explicit constexpr borrowed_t() = default;
};
inline constexpr borrowed_t borrowed{};

/// Owns a cl_mem buffer of a fixed size in bytes. A buffer of size 0 is valid and has no cl_mem
/// (OpenCL rejects empty buffers): transfers on it are no-ops.
class ANYCL_EXPORT buffer {
 public:
  buffer() noexcept = default;
  /// Allocates `bytes` bytes (clCreateBuffer). Sizes above the devices'
  /// CL_DEVICE_MAX_MEM_ALLOC_SIZE throw api_error(CL_INVALID_BUFFER_SIZE) before the call, naming
  /// the limit.
  buffer(const anycl::context& ctx, std::size_t bytes,
         memory_access access = memory_access::read_write);
  /// Allocates and fills from host memory (CL_MEM_COPY_HOST_PTR); `data` may be null only if bytes
  /// is 0.
  buffer(const anycl::context& ctx, const void* data, std::size_t bytes,
         memory_access access = memory_access::read_write);
  /// A buffer holding a copy of `data`.
  template <class T>
  static buffer from(const anycl::context& ctx, const std::vector<T>& data,
                     memory_access access = memory_access::read_write) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "buffer::from needs trivially copyable elements");
    return buffer(ctx, data.data(), data.size() * sizeof(T), access);
  }

  /// A buffer over `bytes` of the caller's host memory at `data`, used in place
  /// (CL_MEM_USE_HOST_PTR): kernels on host-unified devices work in it and map() gives it back
  /// without a copy. Borrowed: the caller keeps the memory alive, and reads or writes it only
  /// through a mapping, until the buffer and every command using it are done. `data` must be
  /// aligned to host_alignment(ctx) bytes (std::invalid_argument otherwise: drivers copy, or
  /// refuse, memory that is not). Size checks as the allocating constructor; 0 bytes: empty.
  static buffer use_host(const anycl::context& ctx, void* data, std::size_t bytes, borrowed_t,
                         memory_access access = memory_access::read_write);
  /// The same, owned: the buffer keeps `owner` (what holds the memory at `data`) until the driver
  /// has released the memory, after the last command using it. Dropped at once if this throws.
  static buffer use_host(const anycl::context& ctx, std::shared_ptr<void> owner, void* data,
                         std::size_t bytes, memory_access access = memory_access::read_write);
  /// The same for `count` elements an owning pointer holds (its deleter frees them).
  template <class T, class D>
  static buffer use_host(const anycl::context& ctx, std::unique_ptr<T[], D> data, std::size_t count,
                         memory_access access = memory_access::read_write) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "buffer::use_host needs trivially copyable elements");
    void* raw = data.get();
    return use_host(ctx, std::shared_ptr<void>(std::move(data)), raw, count * sizeof(T), access);
  }
  /// `bytes` the driver allocates where the host can reach them (CL_MEM_ALLOC_HOST_PTR): pinned
  /// memory on discrete GPUs, so transfers and mappings avoid a staging copy.
  static buffer alloc_host(const anycl::context& ctx, std::size_t bytes,
                           memory_access access = memory_access::read_write);
  /// The alignment host memory needs for use_host: the largest CL_DEVICE_MEM_BASE_ADDR_ALIGN of
  /// the context's devices, in bytes.
  static std::size_t host_alignment(const anycl::context& ctx);

  static buffer adopt(cl_mem raw);
  static buffer retain(cl_mem raw);

  cl_mem get() const noexcept { return h_.get(); }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  anycl::context context() const;
  /// The host memory the buffer uses in place (CL_MEM_HOST_PTR): use_host's `data`, else null.
  void* host_ptr() const;

  /// A buffer aliasing [offset, offset + bytes) of this one (clCreateSubBuffer). The offset must be
  /// a multiple of the devices' CL_DEVICE_MEM_BASE_ADDR_ALIGN; checked before the call.
  buffer sub_buffer(std::size_t offset, std::size_t bytes,
                    memory_access access = memory_access::read_write) const;

 private:
  buffer(detail::handle<cl_mem> h, std::size_t size) noexcept : h_(std::move(h)), size_(size) {}
  detail::handle<cl_mem> h_;
  std::size_t size_ = 0;
};

namespace detail {
/// Throws std::out_of_range unless [offset, offset + count) lies in [0, limit), overflow-safe.
inline void check_range(const char* what, std::size_t offset, std::size_t count,
                        std::size_t limit) {
  if (offset > limit || count > limit - offset)
    throw std::out_of_range(std::string(what) + ": range [" + std::to_string(offset) + ", " +
                            std::to_string(offset) + " + " + std::to_string(count) +
                            ") exceeds the size " + std::to_string(limit));
}
}  // namespace detail

/// A typed window [offset, offset + size) of a buffer, in elements of T. `buffer_view<const T>`
/// marks read-only use; a `buffer_view<T>` converts to it.
template <class T>
class buffer_view {
  static_assert(std::is_trivially_copyable_v<std::remove_const_t<T>>,
                "buffer_view<T> needs a trivially copyable T");

 public:
  using value_type = T;
  buffer_view() = default;
  /// The whole buffer; throws std::invalid_argument if its size is not a multiple of sizeof(T).
  buffer_view(const anycl::buffer& buf)  // NOLINT: a buffer is a view of itself
      : buf_(buf), offset_(0), size_(buf.size() / sizeof(T)) {
    if (buf.size() % sizeof(T) != 0)
      throw std::invalid_argument("buffer_view: buffer of " + std::to_string(buf.size()) +
                                  " bytes is not a whole number of " + std::to_string(sizeof(T)) +
                                  "-byte elements");
  }
  /// Elements [offset, offset + count) of `buf`; throws std::out_of_range if outside it.
  buffer_view(const anycl::buffer& buf, std::size_t offset, std::size_t count)
      : buf_(buf), offset_(offset), size_(count) {
    detail::check_range("buffer_view", offset, count, buf.size() / sizeof(T));
  }
  /// Read-write to read-only.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T> && !std::is_const_v<U>>>
  buffer_view(const buffer_view<U>& other)  // NOLINT
      : buf_(other.buffer()), offset_(other.offset()), size_(other.size()) {}

  const anycl::buffer& buffer() const noexcept { return buf_; }
  std::size_t offset() const noexcept { return offset_; }  ///< in elements
  std::size_t size() const noexcept { return size_; }      ///< in elements
  std::size_t byte_offset() const noexcept { return offset_ * sizeof(T); }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }

  /// Elements [offset, offset + count) of this view; throws std::out_of_range if outside it.
  buffer_view subview(std::size_t offset, std::size_t count) const {
    detail::check_range("buffer_view::subview", offset, count, size_);
    return buffer_view(buf_, offset_ + offset, count, 0);
  }

 private:
  buffer_view(const anycl::buffer& buf, std::size_t offset, std::size_t count, int) noexcept
      : buf_(buf), offset_(offset), size_(count) {}
  anycl::buffer buf_;
  std::size_t offset_ = 0;
  std::size_t size_ = 0;
};

/// What the host does with a mapped region.
enum class map_access { read, write, read_write };

/// A mapped byte range of a buffer (command_queue::map_bytes; the untyped half of mapped_region).
/// Move-only; the destructor unmaps (clEnqueueUnmapMemObject) and waits.
class ANYCL_EXPORT mapped_bytes {
 public:
  mapped_bytes() noexcept = default;
  /// Takes over a region that clEnqueueMapBuffer returned for `buf` on `queue`.
  mapped_bytes(const command_queue& queue, const buffer& buf, void* ptr);
  mapped_bytes(mapped_bytes&& other) noexcept = default;
  mapped_bytes& operator=(mapped_bytes&& other) noexcept;
  mapped_bytes(const mapped_bytes&) = delete;
  mapped_bytes& operator=(const mapped_bytes&) = delete;
  ~mapped_bytes();
  void* get() const noexcept { return ptr_; }
  /// Enqueues the unmap and returns its event; the mapping becomes empty.
  event unmap();

 private:
  void release() noexcept;
  detail::handle<cl_command_queue> queue_;
  detail::handle<cl_mem> mem_;
  void* ptr_ = nullptr;
};

/// Host access to a buffer_view's elements (clEnqueueMapBuffer). Move-only; the destructor unmaps
/// and waits, so the data is back on the device when it ends.
template <class T>
class mapped_region {
 public:
  mapped_region() = default;
  mapped_region(mapped_bytes m, std::size_t count) noexcept : m_(std::move(m)), size_(count) {}
  T* data() const noexcept { return static_cast<T*>(m_.get()); }
  std::size_t size() const noexcept { return size_; }
  T* begin() const noexcept { return data(); }
  T* end() const noexcept { return data() + size_; }
  T& operator[](std::size_t i) const noexcept { return data()[i]; }
  /// Unmaps now and returns the unmap's event; the region becomes empty.
  event unmap() {
    size_ = 0;
    return m_.unmap();
  }

 private:
  mapped_bytes m_;
  std::size_t size_ = 0;
};

}  // namespace anycl
