// SPDX-License-Identifier: Apache-2.0
// Host access to an array's elements: the buffer's own memory where the device works in host
// memory (no copy), a copy elsewhere.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/buffer.hpp"
#include "anycl/error.hpp"

namespace anycl {

/// The elements of an array on the host for a while (anycl::map). On the zero-copy path the
/// buffer is mapped (clEnqueueMapBuffer): the pointer is the device's memory, so nothing is
/// copied on host-unified devices. On the copy path the elements are read into a std::vector
/// (unless `write`) and written back at close (unless `read`). close() ends the access, as the
/// destructor does; the array's later commands wait for it. Move-only.
template <class T>
class host_view {
 public:
  host_view() = default;
  /// Access to `a` (contiguous for the zero-copy path; a strided or broadcast view always copies)
  /// after its pending commands. `zero_copy` asks for the mapped path. Throws
  /// std::invalid_argument for an empty array, or a broadcast view with write access.
  host_view(const array<T>& a, map_access access, bool zero_copy) : a_(a), access_(access) {
    if (!a.core().valid())
      throw std::invalid_argument("anycl::map: the array is empty (default-constructed)");
    if (access != map_access::read && a.core().layout().repeats())
      throw std::invalid_argument("anycl::map: " + a.shape().str() +
                                  " is a broadcast view: its elements repeat, so it can be "
                                  "mapped for map_access::read only");
    if (a.empty()) return;
    if (zero_copy && a.contiguous()) {
      region_ = a.queue().map(a.view(), access, wait_list(a.last_event()));
      data_ = region_.data();
      mapped_ = true;
    } else {
      host_ = access == map_access::write ? std::vector<T>(a.size()) : a.to_host();
      data_ = host_.data();
    }
    size_ = a.size();
  }
  host_view(host_view&& o) noexcept
      : a_(std::move(o.a_)),
        access_(o.access_),
        region_(std::move(o.region_)),
        host_(std::move(o.host_)),
        data_(std::exchange(o.data_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        mapped_(std::exchange(o.mapped_, false)) {}
  host_view& operator=(host_view&& o) noexcept {
    if (this != &o) {
      close_quietly();
      a_ = std::move(o.a_);
      access_ = o.access_;
      region_ = std::move(o.region_);
      host_ = std::move(o.host_);
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
      mapped_ = std::exchange(o.mapped_, false);
    }
    return *this;
  }
  host_view(const host_view&) = delete;
  host_view& operator=(const host_view&) = delete;
  ~host_view() { close_quietly(); }

  T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + size_; }
  T& operator[](std::size_t i) const noexcept { return data_[i]; }
  /// True on the mapped path: data() is the buffer's memory as the driver maps it.
  bool zero_copy() const noexcept { return mapped_; }

  /// Ends the access: unmaps (recorded as the array's last command, and waited for), or writes
  /// the copy back; throws what those throw. Afterwards the view is empty; a second call does
  /// nothing.
  void close() {
    if (data_ == nullptr) return;
    data_ = nullptr;
    size_ = 0;
    if (mapped_) {
      mapped_ = false;
      event e = region_.unmap();
      a_.record(e);
      e.wait();
    } else if (access_ != map_access::read) {
      a_.set(host_);
    }
    host_ = std::vector<T>();
  }

 private:
  void close_quietly() noexcept {
    try {
      close();
    } catch (const api_error& e) {
      detail::report_cleanup_error("host_view", e.call(), e.status());
    } catch (...) {
      detail::report_cleanup_error("host_view", "array::set", CL_OUT_OF_HOST_MEMORY);
    }
  }

  array<T> a_;
  map_access access_ = map_access::read;
  mapped_region<T> region_;
  std::vector<T> host_;
  T* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

/// Host access to `a`'s elements until the view closes: zero-copy (the mapped buffer) where the
/// device works in host memory (device::host_unified_memory) and `a` is contiguous, a copy
/// elsewhere. Host code must not touch memory a buffer uses in place (buffer::use_host) except
/// through such a view.
template <class T>
host_view<T> map(const array<T>& a, map_access access = map_access::read_write) {
  const bool zero_copy = a.core().valid() && a.queue().device().host_unified_memory();
  return host_view<T>(a, access, zero_copy);
}

}  // namespace anycl
