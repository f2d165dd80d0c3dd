// SPDX-License-Identifier: Apache-2.0
// Device arrays: a buffer with an element type, a row-major shape of 1 to 8 dimensions, strided
// views without copies (broadcast views too), and the queue its commands go to.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"
#include "anycl/kernel.hpp"
#include "anycl/scalar_type.hpp"

namespace anycl {

/// The extents of an array in row-major order (the last index varies fastest), 1 to 8
/// dimensions, as numpy's shapes. A shape of one extent 0 is an empty 1-D array.
class ANYCL_EXPORT shape {
 public:
  static constexpr unsigned max_dims = 8;
  /// One dimension of 0 elements.
  shape() noexcept = default;
  /// One dimension of `n` elements.
  shape(std::size_t n) noexcept : dims_(1) { e_[0] = n; }  // NOLINT: a size converts implicitly
  /// Throws std::invalid_argument for 0 or more than 8 extents, std::overflow_error when the
  /// element count does not fit in size_t.
  shape(std::initializer_list<std::size_t> extents);
  /// The same from a vector.
  explicit shape(const std::vector<std::size_t>& extents);
  unsigned dims() const noexcept { return dims_; }
  std::size_t operator[](unsigned axis) const noexcept { return e_[axis]; }
  /// The number of elements: the product of the extents.
  std::size_t size() const noexcept;
  const std::array<std::size_t, max_dims>& extents() const noexcept { return e_; }
  /// "(3, 4)"
  std::string str() const;
  friend bool operator==(const shape& a, const shape& b) noexcept {
    return a.dims_ == b.dims_ && a.e_ == b.e_;
  }
  friend bool operator!=(const shape& a, const shape& b) noexcept { return !(a == b); }

 private:
  std::array<std::size_t, max_dims> e_{0, 1, 1, 1, 1, 1, 1, 1};
  unsigned dims_ = 1;
};

namespace detail {

/// Where an array's elements are in its buffer: element (i0, i1, ...) is at
/// offset + i0 * strides[0] + i1 * strides[1] + ..., in elements.
struct array_layout {
  anycl::shape extents;
  std::array<std::size_t, shape::max_dims> strides{};
  std::size_t offset = 0;
  /// Row-major with no gaps (offset aside): element k is at offset + k.
  bool contiguous() const noexcept {
    std::size_t want = 1;
    for (unsigned i = extents.dims(); i-- > 0;) {
      if (extents[i] == 0) return true;
      if (extents[i] != 1 && strides[i] != want) return false;
      want *= extents[i];
    }
    return true;
  }
  /// Some axis of extent above 1 has stride 0, as in a broadcast view: elements repeat, so it
  /// can be read but not written.
  bool repeats() const noexcept {
    if (extents.size() == 0) return false;
    for (unsigned i = 0; i < extents.dims(); ++i)
      if (extents[i] > 1 && strides[i] == 0) return true;
    return false;
  }
};

/// What arrays sharing one buffer know about the commands using it; it gives the buffer back to
/// the context's memory pool when the last of them goes.
struct array_sync;
/// The kernels built for one context by the array layer; every array of the context holds it, so
/// they live as long as one of those arrays (never in static storage).
class context_kernels;

/// The untyped part of array<T>: its buffer, queue, element type, layout and the last command that
/// used the elements. Copies share the buffer (as views do).
class ANYCL_EXPORT array_core {
 public:
  array_core() = default;
  /// Allocates `s.size()` uninitialised elements on `queue`'s context. Throws
  /// std::invalid_argument for an empty queue or for f64 on a device without double precision,
  /// std::overflow_error when the byte count does not fit.
  array_core(const command_queue& queue, scalar_type type, const anycl::shape& s);
  /// `s.size()` elements in the first bytes of `external` (no copy; never pooled). Throws
  /// std::invalid_argument when it is too small or of another context than the queue's.
  array_core(const command_queue& queue, scalar_type type, const anycl::shape& s,
             anycl::buffer external);

  bool valid() const noexcept { return static_cast<bool>(queue_); }
  scalar_type type() const noexcept { return type_; }
  const array_layout& layout() const noexcept { return layout_; }
  const anycl::buffer& buffer() const noexcept { return buf_; }
  const command_queue& queue() const noexcept { return queue_; }

  /// The event of the last command enqueued through AnyCL that reads or writes this buffer (empty
  /// when none). Commands that touch the array wait for it; record() replaces it.
  event last_event() const;
  /// Records `e` as the last command touching this buffer.
  void record(const event& e) const;

  /// Copies `bytes` of host data into the (contiguous) elements; blocking.
  void write_host(const void* src, std::size_t count) const;
  /// Copies the elements to host memory (a strided view goes through a device-side copy first).
  void read_host(void* dst, std::size_t count) const;
  /// A new dense array with the same elements (a device-side copy).
  array_core copy() const;
  /// Copies `src`'s elements into this array's (equal types, and src's shape broadcasting to
  /// this one's, else std::invalid_argument); views on both sides; an overlapping source is
  /// copied first; a broadcast view as the destination is refused.
  void assign(const array_core& src) const;
  /// Sets every element to the `size_of(type)` bytes at `value` (clEnqueueFillBuffer, or a kernel
  /// for a strided view).
  void fill(const void* value) const;
  /// Element k = start + k * step, for a dense 1-D array (`start`, `step` of the array's type).
  void iota(const void* start, const void* step) const;

  array_core with_layout(const array_layout& l) const;
  array_core slice(unsigned axis, std::size_t begin, std::size_t end, std::size_t step) const;
  array_core reshape(const anycl::shape& s) const;
  array_core transpose(const std::vector<unsigned>& axes) const;
  /// Broadcast views (src/arrays/broadcast.cpp; anycl/broadcast.hpp has the documented API).
  array_core broadcast_to(const anycl::shape& s) const;
  array_core expand_dims(unsigned axis) const;
  array_core squeeze() const;
  array_core squeeze(unsigned axis) const;
  /// True when both use one buffer and their element ranges may overlap.
  bool may_overlap(const array_core& other) const noexcept;
  void swap(array_core& other) noexcept;

 private:
  command_queue queue_;
  // sync_ before buf_: the last array of a buffer lets go of its handle before array_sync gives
  // the buffer back to the context's memory pool.
  std::shared_ptr<array_sync> sync_;
  anycl::buffer buf_;
  std::shared_ptr<context_kernels> kernels_;
  array_layout layout_;
  scalar_type type_ = scalar_type::f32;
};

}  // namespace detail

template <class T>
class array;

/// Base of the element-wise expression types of anycl/elementwise.hpp (a tag without members).
struct expression_tag {};

namespace detail {
/// True for the expression types of anycl/elementwise.hpp.
template <class E>
inline constexpr bool is_expression_v =
    std::is_base_of_v<expression_tag, std::remove_cv_t<std::remove_reference_t<E>>>;
/// Evaluates an expression into `dst` (allocating it when empty); defined in elementwise.hpp.
template <class T, class E>
void assign_expression(array<T>& dst, const E& e);
}  // namespace detail

/// A device array of T with a row-major shape, remembering the queue its commands go to. Copies
/// of an array (and views made by slice, reshape, transpose) share its elements, like the
/// handles of the rest of AnyCL; copy() makes a new array. Commands AnyCL enqueues for an array
/// wait for the last command that touched its buffer, so host reads see every pending write even
/// across queues.
template <class T>
class array {
  static_assert(is_array_element_v<T>,
                "AnyCL: array<T> needs T in int8_t...int64_t, uint8_t...uint64_t, float, double, "
                "anycl::half, std::complex<float>, std::complex<double>");

 public:
  using value_type = T;

  /// An array without elements or queue.
  array() = default;
  /// `s.size()` uninitialised elements on `queue`'s context (clCreateBuffer). Throws
  /// std::invalid_argument for an empty queue or double on a device without fp64.
  array(const command_queue& queue, const anycl::shape& s) : core_(queue, scalar_type_of<T>(), s) {}
  /// Wraps an untyped array of the same element type (std::invalid_argument otherwise).
  explicit array(detail::array_core core) : core_(std::move(core)) {
    if (core_.valid() && core_.type() != scalar_type_of<T>())
      throw std::invalid_argument(std::string("array<") + cl_type_name(scalar_type_of<T>()) +
                                  ">: the data holds " + cl_type_name(core_.type()) + " elements");
  }

  /// The value of an element-wise expression (anycl/elementwise.hpp) in a new array on the queue
  /// of its first array operand: `array<float> y = 2.0f * x + 1.0f;` runs one kernel.
  template <class E, class = std::enable_if_t<detail::is_expression_v<E>>>
  array(const E& e) {  // NOLINT: an expression converts implicitly, as its value
    detail::assign_expression(*this, e);
  }
  /// Writes an expression's value into the existing elements of this array or view; the value
  /// broadcasts to its shape (std::invalid_argument otherwise); an empty (default-constructed)
  /// array is allocated first. Unlike `y = x`, which makes y share x's elements, `y = x + 0`
  /// copies into y's own elements.
  template <class E, class = std::enable_if_t<detail::is_expression_v<E>>>
  array& operator=(const E& e) {
    detail::assign_expression(*this, e);
    return *this;
  }

  /// Uninitialised elements.
  static array empty(const command_queue& queue, const anycl::shape& s) { return array(queue, s); }
  /// Every element 0.
  static array zeros(const command_queue& queue, const anycl::shape& s) {
    return full(queue, s, T(0));
  }
  /// Every element `value`.
  static array full(const command_queue& queue, const anycl::shape& s, T value) {
    array a(queue, s);
    a.core_.fill(&value);
    return a;
  }
  /// 1-D: start, start + step, ..., n elements (real element types).
  static array arange(const command_queue& queue, std::size_t n, T start = T(0), T step = T(1)) {
    static_assert(is_real_element_v<T>, "AnyCL: arange() needs a real element type");
    array a(queue, anycl::shape(n));
    a.core_.iota(&start, &step);
    return a;
  }
  /// A copy of host data with shape `s` (1-D of data.size() when not given). Throws
  /// std::invalid_argument when the sizes differ.
  static array from_host(const command_queue& queue, const std::vector<T>& data) {
    return from_host(queue, data.data(), anycl::shape(data.size()));
  }
  static array from_host(const command_queue& queue, const std::vector<T>& data,
                         const anycl::shape& s) {
    check_count("array::from_host", data.size(), s.size());
    return from_host(queue, data.data(), s);
  }
  /// `s.size()` elements from `data`.
  static array from_host(const command_queue& queue, const T* data, const anycl::shape& s) {
    array a(queue, s);
    a.core_.write_host(data, s.size());
    return a;
  }

  /// An array over the first `s.size()` elements of `buf`, without a copy: e.g. a buffer over
  /// host memory (buffer::use_host, buffer::alloc_host) or one made by other code. The array
  /// shares the buffer; it never goes to the memory pool. Throws std::invalid_argument when the
  /// buffer is too small or belongs to another context than the queue's.
  static array from_buffer(const command_queue& queue, anycl::buffer buf, const anycl::shape& s) {
    return array(detail::array_core(queue, scalar_type_of<T>(), s, std::move(buf)));
  }

  /// The elements in row-major order; waits for pending commands.
  std::vector<T> to_host() const {
    std::vector<T> out(size());
    core_.read_host(out.data(), out.size());
    return out;
  }
  /// The same into `dst`, which holds size() elements.
  void to_host(T* dst) const { core_.read_host(dst, size()); }
  /// Overwrites the elements with host data of size() elements (std::invalid_argument otherwise).
  void set(const std::vector<T>& data) const {
    check_count("array::set", data.size(), size());
    core_.write_host(data.data(), data.size());
  }
  /// A new dense array with the same shape and elements.
  array copy() const { return array(core_.copy()); }
  /// Copies the elements of `src`, whose shape broadcasts to this one's, into this array or view.
  void assign(const array& src) const { core_.assign(src.core_); }
  /// Sets every element (of this view) to `value`.
  void fill(T value) const { core_.fill(&value); }

  /// Rows [begin, end) along the first axis, as a view. Throws std::out_of_range.
  array slice(std::size_t begin, std::size_t end) const {
    return array(core_.slice(0, begin, end, 1));
  }
  /// Every `step`-th index in [begin, end) along `axis`, as a view. Throws std::out_of_range or
  /// std::invalid_argument (step 0, axis past dims()).
  array slice(unsigned axis, std::size_t begin, std::size_t end, std::size_t step = 1) const {
    return array(core_.slice(axis, begin, end, step));
  }
  /// The same elements with another shape of equal size, as a view; throws
  /// std::invalid_argument for a different size or a non-contiguous array (copy() it first).
  array reshape(const anycl::shape& s) const { return array(core_.reshape(s)); }
  /// Axes reversed (a matrix transposed), as a view.
  array transpose() const { return array(core_.transpose({})); }
  /// Axes permuted: axis k of the result is axis `axes[k]` of this one.
  array transpose(std::initializer_list<unsigned> axes) const {
    return array(core_.transpose(std::vector<unsigned>(axes)));
  }
  void swap(array& other) noexcept { core_.swap(other.core_); }

  std::size_t size() const noexcept { return core_.layout().extents.size(); }
  bool empty() const noexcept { return size() == 0; }
  const anycl::shape& shape() const noexcept { return core_.layout().extents; }
  unsigned dims() const noexcept { return shape().dims(); }
  /// Distance between neighbours along each axis, in elements.
  const std::array<std::size_t, anycl::shape::max_dims>& strides() const noexcept {
    return core_.layout().strides;
  }
  /// Where the first element is in the buffer, in elements.
  std::size_t offset() const noexcept { return core_.layout().offset; }
  bool contiguous() const noexcept { return core_.layout().contiguous(); }
  const command_queue& queue() const noexcept { return core_.queue(); }
  anycl::context context() const { return core_.queue().context(); }
  const anycl::buffer& buffer() const noexcept { return core_.buffer(); }
  /// The elements as a buffer view (contiguous arrays only; std::invalid_argument otherwise).
  buffer_view<T> view() const {
    if (!contiguous())
      throw std::invalid_argument("array::view: a strided view has no buffer_view; copy() it");
    return buffer_view<T>(buffer(), offset(), size());
  }
  /// The last command that touched the elements, and a wait for it.
  event last_event() const { return core_.last_event(); }
  void wait() const {
    if (event e = core_.last_event()) e.wait();
  }
  /// Records a command of the caller's own that used the elements, so later AnyCL commands and
  /// host reads wait for it.
  void record(const event& e) const { core_.record(e); }
  /// The untyped array (for the algorithms).
  const detail::array_core& core() const noexcept { return core_; }

 private:
  static void check_count(const char* what, std::size_t got, std::size_t want) {
    if (got != want)
      throw std::invalid_argument(std::string(what) + ": " + std::to_string(got) +
                                  " host elements for an array of " + std::to_string(want));
  }
  detail::array_core core_;
};

template <class T>
void swap(array<T>& a, array<T>& b) noexcept {
  a.swap(b);
}

}  // namespace anycl
