// SPDX-License-Identifier: Apache-2.0
// Command queues: kernel launches, transfers, markers; every enqueue returns an event.
#pragma once

#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/device.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"
#include "anycl/image.hpp"
#include "anycl/kernel.hpp"
#include "anycl/rect.hpp"
#include "anycl/svm.hpp"

namespace anycl {

/// How a queue runs its commands.
struct queue_properties {
  bool out_of_order = false;  ///< CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE: order only by wait lists
  bool profiling = false;     ///< CL_QUEUE_PROFILING_ENABLE: events carry device times
};

/// A read started by enqueue_read: the host vector it fills stays alive until the read completes.
template <class T>
class pending_read {
 public:
  pending_read(anycl::event e, std::shared_ptr<std::vector<T>> data) noexcept
      : event_(std::move(e)), data_(std::move(data)) {}
  const anycl::event& event() const noexcept { return event_; }
  /// Waits for the read and returns the data (once).
  std::vector<T> get() {
    event_.wait();
    return std::move(*data_);
  }

 private:
  anycl::event event_;
  std::shared_ptr<std::vector<T>> data_;
};

namespace detail {
/// An svm_ptr, or the start of an svm_buffer, as an svm_ptr (command_queue's SVM transfers).
template <class T>
svm_ptr<T> as_svm_ptr(const svm_ptr<T>& p) {
  return p;
}
template <class T>
svm_ptr<T> as_svm_ptr(const svm_buffer<T>& b) {
  return b.ptr();
}
template <class P>
using svm_element_t = std::remove_const_t<
    std::remove_pointer_t<decltype(as_svm_ptr(std::declval<const P&>()).get())>>;
}  // namespace detail

/// Owns a cl_command_queue for one device of a context.
class ANYCL_EXPORT command_queue {
 public:
  command_queue() noexcept = default;
  /// A queue on `dev`, which must be a device of `ctx` (checked, std::invalid_argument otherwise).
  command_queue(const anycl::context& ctx, const anycl::device& dev, queue_properties props = {});
  /// A queue on `dev` in a new context of its own.
  explicit command_queue(const anycl::device& dev, queue_properties props = {});
  /// A queue on the device a selection spec picks, in a new context.
  static command_queue from_spec(std::string_view spec, queue_properties props = {});
  static command_queue retain(cl_command_queue raw);

  cl_command_queue get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }
  anycl::context context() const;
  anycl::device device() const;
  cl_device_id device_id() const noexcept { return device_; }
  queue_properties properties() const;

  /// Blocks until every command in the queue has completed (clFinish).
  void finish() const;
  /// Submits queued commands to the device (clFlush).
  void flush() const;
  /// An event that completes when `waits` (or, if empty, all earlier commands) have completed.
  event marker(const wait_list& waits = {}) const;
  /// Like marker(), and later commands wait for it (matters for out-of-order queues).
  event barrier(const wait_list& waits = {}) const;

  /// Launches `k` with untyped arguments (see kernel_function for the typed form).
  template <class... Args>
  event launch(const kernel& k, const nd_range& range, const Args&... args) const {
    return detail::launch(k, *this, range, wait_list{}, args...);
  }
  template <class... Args>
  event launch_after(const wait_list& waits, const kernel& k, const nd_range& range,
                     const Args&... args) const {
    return detail::launch(k, *this, range, waits, args...);
  }

  // --- typed transfers ---
  /// Copies `dst.size()` elements from host memory; returns once the data is on the device.
  template <class T>
  void write(const buffer_view<T>& dst, const T* src, const wait_list& waits = {}) const {
    write_bytes(dst.buffer(), dst.byte_offset(), dst.bytes(), src, waits);
  }
  /// Copies a vector of exactly `dst.size()` elements (std::invalid_argument otherwise).
  template <class T>
  void write(const buffer_view<T>& dst, const std::vector<T>& src,
             const wait_list& waits = {}) const {
    check_host_size(src.size(), dst.size());
    write(dst, src.data(), waits);
  }
  /// Copies `src.size()` elements to host memory; returns once they are there.
  template <class T>
  void read(const buffer_view<T>& src, std::remove_const_t<T>* dst,
            const wait_list& waits = {}) const {
    read_bytes(src.buffer(), src.byte_offset(), src.bytes(), dst, waits);
  }
  /// The elements of `src` as a vector.
  template <class T>
  std::vector<std::remove_const_t<T>> read(const buffer_view<T>& src,
                                           const wait_list& waits = {}) const {
    std::vector<std::remove_const_t<T>> out(src.size());
    read_bytes(src.buffer(), src.byte_offset(), src.bytes(), out.data(), waits);
    return out;
  }
  /// Starts a write from `data`, which the queue keeps alive until the write completes.
  template <class T>
  event enqueue_write(const buffer_view<T>& dst, std::vector<T> data,
                      const wait_list& waits = {}) const {
    check_host_size(data.size(), dst.size());
    auto owned = std::make_shared<std::vector<T>>(std::move(data));
    const void* p = owned->data();
    return enqueue_write_bytes(dst.buffer(), dst.byte_offset(), dst.bytes(), p, waits,
                               std::move(owned));
  }
  /// Starts a write from shared host data, kept alive until the write completes.
  template <class T>
  event enqueue_write(const buffer_view<T>& dst, std::shared_ptr<const std::vector<T>> data,
                      const wait_list& waits = {}) const {
    check_host_size(data->size(), dst.size());
    const void* p = data->data();
    return enqueue_write_bytes(dst.buffer(), dst.byte_offset(), dst.bytes(), p, waits,
                               std::move(data));
  }
  /// Starts a read into a new vector; pending_read::get() waits and hands it over.
  template <class T>
  pending_read<std::remove_const_t<T>> enqueue_read(const buffer_view<T>& src,
                                                    const wait_list& waits = {}) const {
    auto out = std::make_shared<std::vector<std::remove_const_t<T>>>(src.size());
    void* p = out->data();
    event e = enqueue_read_bytes(src.buffer(), src.byte_offset(), src.bytes(), p, waits, out);
    return {std::move(e), std::move(out)};
  }
  /// Copies `src` to `dst` on the device; sizes must match, overlapping ranges are refused.
  template <class T>
  event copy(const buffer_view<const T>& src, const buffer_view<T>& dst,
             const wait_list& waits = {}) const {
    check_host_size(src.size(), dst.size());
    return copy_bytes(src.buffer(), src.byte_offset(), dst.buffer(), dst.byte_offset(), dst.bytes(),
                      waits);
  }
  template <class T>
  event copy(const buffer_view<T>& src, const buffer_view<T>& dst,
             const wait_list& waits = {}) const {
    return copy(buffer_view<const T>(src), dst, waits);
  }
  /// Sets every element of `dst` to `value` (clEnqueueFillBuffer).
  template <class T>
  event fill(const buffer_view<T>& dst, const T& value, const wait_list& waits = {}) const {
    static_assert((sizeof(T) & (sizeof(T) - 1)) == 0 && sizeof(T) <= 128,
                  "fill needs an element size that is a power of two up to 128 bytes");
    return fill_bytes(dst.buffer(), dst.byte_offset(), dst.bytes(), &value, sizeof(T), waits);
  }
  /// Maps `view` for host access, blocking until the data is there.
  template <class T>
  mapped_region<T> map(const buffer_view<T>& view, map_access access = map_access::read_write,
                       const wait_list& waits = {}) const {
    return mapped_region<T>(
        map_bytes(view.buffer(), view.byte_offset(), view.bytes(), access, waits), view.size());
  }

  // --- images (image.hpp): boxes of pixels at `origin` of `region` ({x, y, z}; a layer of an
  // array is its last coordinate), checked against their images; a zero extent is a no-op.
  // Host memory lays rows `row_pitch` and slices (layers) `slice_pitch` bytes apart (0: packed),
  // and must hold its box: no check can see its size ---
  /// Copies a box of `img` to host memory; returns once it is there (clEnqueueReadImage).
  void read_image(const image& img, const image_point& origin, const image_point& region, void* dst,
                  std::size_t row_pitch = 0, std::size_t slice_pitch = 0,
                  const wait_list& waits = {}) const;
  /// Copies host memory into a box of `img`; returns once it is on the device.
  void write_image(const image& img, const image_point& origin, const image_point& region,
                   const void* src, std::size_t row_pitch = 0, std::size_t slice_pitch = 0,
                   const wait_list& waits = {}) const;
  /// Copies a box between images of one format (or within one image, boxes apart).
  event copy_image(const image& src, const image_point& src_origin, const image& dst,
                   const image_point& dst_origin, const image_point& region,
                   const wait_list& waits = {}) const;
  /// Sets a box to `color`: cl_float4 for normalized and float formats, cl_int4 for signed and
  /// cl_uint4 for unsigned integer ones (std::invalid_argument for another).
  event fill_image(const image& img, const cl_float4& color, const image_point& origin,
                   const image_point& region, const wait_list& waits = {}) const;
  event fill_image(const image& img, const cl_int4& color, const image_point& origin,
                   const image_point& region, const wait_list& waits = {}) const;
  event fill_image(const image& img, const cl_uint4& color, const image_point& origin,
                   const image_point& region, const wait_list& waits = {}) const;
  /// Maps a box for host access, blocking until it is there.
  mapped_image map_image(const image& img, const image_point& origin, const image_point& region,
                         map_access access = map_access::read_write,
                         const wait_list& waits = {}) const;

  // --- SVM (svm.hpp): each end an svm_ptr<T> or an svm_buffer<T>; ranges are checked against
  // their allocations, which must belong to the queue's context; zero counts are no-ops ---
  /// Copies `count` elements from `src` to `dst` on the device (clEnqueueSVMMemcpy); overlapping
  /// ranges are refused.
  template <class D, class S>
  event svm_copy(const D& dst, const S& src, std::size_t count, const wait_list& waits = {}) const {
    using T = detail::svm_element_t<D>;
    static_assert(std::is_same_v<T, detail::svm_element_t<S>>, "svm_copy needs equal elements");
    const svm_ptr<T> d = detail::as_svm_ptr(dst);
    const auto s = detail::as_svm_ptr(src);
    return svm_memcpy_bytes(false, &d.memory(), d.get(), &s.memory(), s.get(),
                            detail::svm_bytes<T>(count), waits);
  }
  /// Copies `count` elements from host memory to `dst`; returns once they are there.
  template <class D>
  void svm_write(const D& dst, const detail::svm_element_t<D>* src, std::size_t count,
                 const wait_list& waits = {}) const {
    using T = detail::svm_element_t<D>;
    const svm_ptr<T> d = detail::as_svm_ptr(dst);
    svm_memcpy_bytes(true, &d.memory(), d.get(), nullptr, src, detail::svm_bytes<T>(count), waits);
  }
  /// Copies `count` elements of `src` to host memory; returns once they are there.
  template <class S>
  void svm_read(detail::svm_element_t<S>* dst, const S& src, std::size_t count,
                const wait_list& waits = {}) const {
    using T = detail::svm_element_t<S>;
    const auto s = detail::as_svm_ptr(src);
    svm_memcpy_bytes(true, nullptr, dst, &s.memory(), s.get(), detail::svm_bytes<T>(count), waits);
  }
  /// The `count` elements at `src` as a vector.
  template <class S>
  std::vector<detail::svm_element_t<S>> svm_read(const S& src, std::size_t count,
                                                 const wait_list& waits = {}) const {
    std::vector<detail::svm_element_t<S>> out(count);
    svm_read(out.data(), src, count, waits);
    return out;
  }
  /// Sets `count` elements at `dst` to `value` (clEnqueueSVMMemFill).
  template <class D>
  event svm_fill(const D& dst, const detail::svm_element_t<D>& value, std::size_t count,
                 const wait_list& waits = {}) const {
    using T = detail::svm_element_t<D>;
    static_assert((sizeof(T) & (sizeof(T) - 1)) == 0 && sizeof(T) <= 128,
                  "svm_fill needs an element size that is a power of two up to 128 bytes");
    const svm_ptr<T> d = detail::as_svm_ptr(dst);
    return svm_fill_bytes(d.memory(), d.get(), detail::svm_bytes<T>(count), &value, sizeof(T),
                          waits);
  }
  /// Maps `count` elements at `p` for host access (clEnqueueSVMMap), blocking until they are
  /// there; the mapping unmaps when it ends.
  template <class P>
  svm_mapping<detail::svm_element_t<P>> svm_map(const P& p, std::size_t count,
                                                map_access access = map_access::read_write,
                                                const wait_list& waits = {}) const {
    using T = detail::svm_element_t<P>;
    const auto at = detail::as_svm_ptr(p);
    return svm_mapping<T>(svm_map_bytes(at.memory(), const_cast<T*>(at.get()),
                                        detail::svm_bytes<T>(count), access, waits));
  }
  /// Untyped SVM transfers: a null `*_mem` marks host memory at that end.
  event svm_memcpy_bytes(bool blocking, const svm_memory* dst_mem, void* dst,
                         const svm_memory* src_mem, const void* src, std::size_t bytes,
                         const wait_list& waits = {}) const;
  event svm_fill_bytes(const svm_memory& mem, void* dst, std::size_t bytes, const void* pattern,
                       std::size_t pattern_size, const wait_list& waits = {}) const;
  svm_mapped_bytes svm_map_bytes(const svm_memory& mem, void* p, std::size_t bytes,
                                 map_access access, const wait_list& waits = {}) const;

  // --- untyped transfers (bytes); ranges are checked against the buffer, zero sizes are no-ops ---
  void write_bytes(const buffer& dst, std::size_t offset, std::size_t bytes, const void* src,
                   const wait_list& waits = {}) const;
  void read_bytes(const buffer& src, std::size_t offset, std::size_t bytes, void* dst,
                  const wait_list& waits = {}) const;
  /// Non-blocking write; `keep_alive` is released once the write completes or fails.
  event enqueue_write_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                            const void* src, const wait_list& waits,
                            std::shared_ptr<const void> keep_alive) const;
  /// Non-blocking read; `keep_alive` is released once the read completes or fails.
  event enqueue_read_bytes(const buffer& src, std::size_t offset, std::size_t bytes, void* dst,
                           const wait_list& waits, std::shared_ptr<void> keep_alive) const;
  event copy_bytes(const buffer& src, std::size_t src_offset, const buffer& dst,
                   std::size_t dst_offset, std::size_t bytes, const wait_list& waits = {}) const;
  event fill_bytes(const buffer& dst, std::size_t offset, std::size_t bytes, const void* pattern,
                   std::size_t pattern_size, const wait_list& waits = {}) const;
  mapped_bytes map_bytes(const buffer& buf, std::size_t offset, std::size_t bytes,
                         map_access access, const wait_list& waits = {}) const;

  // --- rectangular transfers (rect.hpp): a box of `region` between a buffer and host memory, or
  // between buffers; the buffer sides are checked against their buffers, a zero extent is a no-op.
  // The host side's memory must hold its box: no check can see its size ---
  /// Copies the box at `src_side` of `src` to the box at `host_side` of `dst`; returns once the
  /// data is there.
  void read_rect(const buffer& src, const rect_side& src_side, void* dst,
                 const rect_side& host_side, const rect_region& region,
                 const wait_list& waits = {}) const;
  /// Copies the box at `host_side` of `src` to the box at `dst_side` of `dst`; returns once the
  /// data is on the device.
  void write_rect(const buffer& dst, const rect_side& dst_side, const void* src,
                  const rect_side& host_side, const rect_region& region,
                  const wait_list& waits = {}) const;
  /// Copies a box between buffers (or within one, with equal pitches and boxes that do not
  /// overlap).
  event copy_rect(const buffer& src, const rect_side& src_side, const buffer& dst,
                  const rect_side& dst_side, const rect_region& region,
                  const wait_list& waits = {}) const;
  /// The same on views: a view side's origin counts in bytes from the view's first byte, and its
  /// box must lie within the view (std::out_of_range naming the view otherwise).
  template <class T>
  void read_rect(const buffer_view<T>& src, const rect_side& src_side, std::remove_const_t<T>* dst,
                 const rect_side& host_side, const rect_region& region,
                 const wait_list& waits = {}) const {
    read_rect(src.buffer(), view_box("read_rect", "view", src, src_side, region), dst, host_side,
              region, waits);
  }
  template <class T>
  void write_rect(const buffer_view<T>& dst, const rect_side& dst_side, const T* src,
                  const rect_side& host_side, const rect_region& region,
                  const wait_list& waits = {}) const {
    write_rect(dst.buffer(), view_box("write_rect", "view", dst, dst_side, region), src, host_side,
               region, waits);
  }
  template <class T>
  event copy_rect(const buffer_view<const T>& src, const rect_side& src_side,
                  const buffer_view<T>& dst, const rect_side& dst_side, const rect_region& region,
                  const wait_list& waits = {}) const {
    return copy_rect(src.buffer(), view_box("copy_rect", "source view", src, src_side, region),
                     dst.buffer(), view_box("copy_rect", "destination view", dst, dst_side, region),
                     region, waits);
  }
  template <class T>
  event copy_rect(const buffer_view<T>& src, const rect_side& src_side, const buffer_view<T>& dst,
                  const rect_side& dst_side, const rect_region& region,
                  const wait_list& waits = {}) const {
    return copy_rect(buffer_view<const T>(src), src_side, dst, dst_side, region, waits);
  }

 private:
  command_queue(detail::handle<cl_command_queue> h, cl_device_id dev) noexcept
      : h_(std::move(h)), device_(dev) {}
  static void check_host_size(std::size_t host, std::size_t device);
  event fill_image_raw(const image& img, const void* color, char kind, const image_point& origin,
                       const image_point& region, const wait_list& waits) const;
  template <class T>
  static rect_side view_box(const char* what, const char* side, const buffer_view<T>& v,
                            const rect_side& s, const rect_region& region) {
    return view_box_bytes(what, side, v.byte_offset(), v.bytes(), s, region);
  }
  /// `s` of a view of `bytes` bytes at `offset` in its buffer as a side of the buffer, checked to
  /// lie within the view (unchanged for a zero extent).
  static rect_side view_box_bytes(const char* what, const char* side, std::size_t offset,
                                  std::size_t bytes, const rect_side& s, const rect_region& region);
  detail::handle<cl_command_queue> h_;
  cl_device_id device_ = nullptr;
};

}  // namespace anycl
