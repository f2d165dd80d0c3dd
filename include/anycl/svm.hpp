// SPDX-License-Identifier: Apache-2.0
// Shared virtual memory: allocations the host and the devices address with the same pointers
// (clSVMAlloc), typed pointers into them as kernel arguments, and mappings of coarse-grained ones.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"
#include "anycl/kernel.hpp"

namespace anycl {

/// What an SVM allocation shares with the host (device::svm_capabilities says what a device can).
enum class svm_kind {
  coarse_grain,        ///< the host reads and writes it only while it is mapped (svm_map)
  fine_grain,          ///< CL_MEM_SVM_FINE_GRAIN_BUFFER: the host uses it directly between commands
  fine_grain_atomics,  ///< also CL_MEM_SVM_ATOMICS: atomics are visible to host and device at once
};

namespace detail {
struct svm_state;

/// `count` elements of T in bytes; throws std::length_error when that overflows size_t.
template <class T>
std::size_t svm_bytes(std::size_t count) {
  if (count > static_cast<std::size_t>(-1) / sizeof(T))
    throw std::length_error("SVM: " + std::to_string(count) + " elements of " +
                            std::to_string(sizeof(T)) + " bytes overflow size_t");
  return count * sizeof(T);
}
}  // namespace detail

/// An SVM allocation of a fixed size in bytes (clSVMAlloc), shared by its copies. The last copy
/// frees it (clSVMFree) after the commands AnyCL enqueued with it (transfers, maps, launches that
/// take it as an argument or through kernel::use_svm) have completed: OpenCL's free does not wait.
/// An allocation of 0 bytes is valid and has no memory.
class ANYCL_EXPORT svm_memory {
 public:
  svm_memory() noexcept = default;
  /// Allocates `bytes` of `kind` on every device of `ctx`. Throws std::invalid_argument naming a
  /// device's CL_DEVICE_SVM_CAPABILITIES when it lacks `kind` (clSVMAlloc returns no status, and
  /// POCL accepts some allocations a device cannot honour), api_error(CL_INVALID_BUFFER_SIZE)
  /// past CL_DEVICE_MAX_MEM_ALLOC_SIZE, api_error(CL_MEM_OBJECT_ALLOCATION_FAILURE) when the
  /// driver returns no memory.
  svm_memory(const anycl::context& ctx, std::size_t bytes, svm_kind kind = svm_kind::coarse_grain,
             memory_access access = memory_access::read_write);

  void* get() const noexcept;
  std::size_t size() const noexcept;
  bool empty() const noexcept { return size() == 0; }
  svm_kind kind() const noexcept;
  anycl::context context() const;
  /// Throws std::out_of_range unless [p, p + bytes) lies within the allocation (named `what`).
  void check_within(const char* what, const void* p, std::size_t bytes) const;

  /// The shared state (internal): null for an empty allocation.
  detail::svm_state* state() const noexcept { return s_.get(); }
  static svm_memory from_state(detail::svm_state* s);

 private:
  std::shared_ptr<detail::svm_state> s_;
};

/// A typed pointer into an SVM allocation, which it keeps alive: a kernel argument
/// (clSetKernelArgSVMPointer) and an end of svm_copy, svm_fill and svm_map.
/// `svm_ptr<const T>` marks read-only use; a `svm_ptr<T>` converts to it.
template <class T>
class svm_ptr {
 public:
  svm_ptr() = default;
  /// `p` inside `mem` (checked, std::out_of_range otherwise; the end of `mem` is allowed).
  svm_ptr(svm_memory mem, T* p) : mem_(std::move(mem)), p_(p) {
    if (p_ != nullptr) mem_.check_within("svm_ptr", p_, 0);
  }
  template <class U, class = std::enable_if_t<std::is_convertible_v<U*, T*> &&
                                              !std::is_same_v<std::remove_cv_t<U>, void>>>
  svm_ptr(const svm_ptr<U>& other)  // NOLINT: as the raw pointers convert
      : mem_(other.memory()), p_(other.get()) {}

  T* get() const noexcept { return p_; }
  const svm_memory& memory() const noexcept { return mem_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  /// The pointer `n` elements on, checked to stay within the allocation (svm_ptr<void>: bytes).
  svm_ptr operator+(std::size_t n) const {
    if constexpr (std::is_void_v<std::remove_cv_t<T>>) {
      mem_.check_within("svm_ptr +", p_, n);
      using byte = std::conditional_t<std::is_const_v<T>, const char, char>;
      return svm_ptr(mem_, static_cast<T*>(static_cast<byte*>(p_) + n), nullptr);
    } else {
      mem_.check_within("svm_ptr +", p_, detail::svm_bytes<T>(n));
      return svm_ptr(mem_, p_ + n, nullptr);
    }
  }

 private:
  svm_ptr(svm_memory mem, T* p, std::nullptr_t) noexcept : mem_(std::move(mem)), p_(p) {}
  svm_memory mem_;
  T* p_ = nullptr;
};

/// `count` elements of T in SVM, shared by its copies like svm_memory. Coarse-grained elements
/// are the host's only while mapped (command_queue::svm_map); fine-grained ones through data()
/// between commands (after their events complete).
template <class T>
class svm_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "svm_buffer<T> needs a trivially copyable T");

 public:
  using value_type = T;
  svm_buffer() = default;
  svm_buffer(const anycl::context& ctx, std::size_t count, svm_kind kind = svm_kind::coarse_grain,
             memory_access access = memory_access::read_write)
      : mem_(ctx, detail::svm_bytes<T>(count), kind, access), size_(count) {}

  T* data() const noexcept { return static_cast<T*>(mem_.get()); }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  svm_kind kind() const noexcept { return mem_.kind(); }
  const svm_memory& memory() const noexcept { return mem_; }
  /// Element `offset` on (checked: at most size()).
  svm_ptr<T> ptr(std::size_t offset = 0) const { return svm_ptr<T>(mem_, data()) + offset; }
  operator svm_ptr<T>() const { return ptr(); }              // NOLINT: a buffer is its start
  operator svm_ptr<const T>() const { return ptr(); }        // NOLINT
  operator svm_memory() const noexcept { return memory(); }  // NOLINT

 private:
  svm_memory mem_;
  std::size_t size_ = 0;
};

/// Host access to coarse-grained SVM elements (command_queue::svm_map, clEnqueueSVMMap).
/// Move-only; the destructor unmaps (clEnqueueSVMUnmap) and waits, so the device sees the host's
/// writes once it ends.
class ANYCL_EXPORT svm_mapped_bytes {
 public:
  svm_mapped_bytes() noexcept = default;
  /// Takes over a mapping of `bytes` at `p` in `mem` made on `queue`.
  svm_mapped_bytes(cl_command_queue queue, svm_memory mem, void* p, std::size_t bytes);
  svm_mapped_bytes(svm_mapped_bytes&& other) noexcept;
  svm_mapped_bytes& operator=(svm_mapped_bytes&& other) noexcept;
  svm_mapped_bytes(const svm_mapped_bytes&) = delete;
  svm_mapped_bytes& operator=(const svm_mapped_bytes&) = delete;
  ~svm_mapped_bytes();
  void* get() const noexcept { return p_; }
  std::size_t size() const noexcept { return bytes_; }
  /// Enqueues the unmap and returns its event; the mapping becomes empty.
  event unmap();

 private:
  void release() noexcept;
  detail::handle<cl_command_queue> queue_;
  svm_memory mem_;
  void* p_ = nullptr;
  std::size_t bytes_ = 0;
};

/// The typed form of svm_mapped_bytes.
template <class T>
class svm_mapping {
 public:
  svm_mapping() = default;
  explicit svm_mapping(svm_mapped_bytes m) noexcept : m_(std::move(m)) {}
  T* data() const noexcept { return static_cast<T*>(m_.get()); }
  std::size_t size() const noexcept { return m_.size() / sizeof(T); }
  T* begin() const noexcept { return data(); }
  T* end() const noexcept { return data() + size(); }
  T& operator[](std::size_t i) const noexcept { return data()[i]; }
  /// Unmaps now and returns the unmap's event; the mapping becomes empty.
  event unmap() { return m_.unmap(); }

 private:
  svm_mapped_bytes m_;
};

namespace detail {

template <class T>
struct arg_traits<svm_ptr<T>> {
  static kernel_arg make(const svm_ptr<T>& p) noexcept {
    kernel_arg a;
    a.k = kernel_arg::kind::svm;
    a.size = sizeof(void*);
    a.value = p.get();
    a.svm = p.memory().state();
    return a;
  }
};
/// A buffer passes its first element's pointer.
template <class T>
struct arg_traits<svm_buffer<T>> {
  static kernel_arg make(const svm_buffer<T>& b) noexcept {
    kernel_arg a = arg_traits<svm_ptr<T>>::make(svm_ptr<T>());
    a.value = b.data();
    a.svm = b.memory().state();
    return a;
  }
};

}  // namespace detail
}  // namespace anycl
