// SPDX-License-Identifier: Apache-2.0
// array_core: the untyped array behind array<T>, its copies, fills, views and host transfers.
#include "anycl/array.hpp"

#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "arrays/broadcast.hpp"
#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/memory_pool.hpp"
#include "arrays/require.hpp"

namespace anycl {

namespace detail {

struct array_sync {
  std::mutex m;
  event last;
  std::shared_ptr<memory_pool> pool;  // null for a buffer the caller gave (array::from_buffer)
  anycl::buffer buf;

  array_sync(std::shared_ptr<memory_pool> p, anycl::buffer b)
      : pool(std::move(p)), buf(std::move(b)) {}
  array_sync(const array_sync&) = delete;
  array_sync& operator=(const array_sync&) = delete;
  ~array_sync() {
    if (pool) pool->release({std::move(buf), std::move(last)});
  }
};

// --- array_core ---

namespace {
// The byte count of `s` elements of `type` on `queue`'s device, after the checks every array has.
std::size_t checked_bytes(const command_queue& queue, scalar_type type, const anycl::shape& s) {
  if (!queue) throw std::invalid_argument("array: the queue is empty (default-constructed)");
  // The device profile is read here, so a bad ANYCL_LAUNCH_SHAPE is refused by the first array.
  const bool fp64 = profile(queue).fp64;
  if ((type == scalar_type::f64 || type == scalar_type::c128) && !fp64)
    throw std::invalid_argument("array<double>: device '" + queue.device().name() +
                                "' has no double precision (cl_khr_fp64)");
  const std::size_t n = s.size();
  if (n > std::numeric_limits<std::size_t>::max() / size_of(type))
    throw std::overflow_error("array: " + s.str() + " elements of " + cl_type_name(type) +
                              " overflow size_t bytes");
  return n * size_of(type);
}
}  // namespace

array_core::array_core(const command_queue& queue, scalar_type type, const anycl::shape& s)
    : queue_(queue), type_(type) {
  const std::size_t bytes = checked_bytes(queue, type, s);
  kernels_ = kernels_for(queue.context());
  layout_ = dense_layout(s);
  std::shared_ptr<memory_pool> pool = pool_for(queue.context());
  anycl::buffer b = bytes == 0 ? anycl::buffer() : pool->acquire(bytes);
  sync_ = std::make_shared<array_sync>(std::move(pool), std::move(b));
  buf_ = sync_->buf;  // a failed retain unwinds sync_, which gives the block back
}

array_core::array_core(const command_queue& queue, scalar_type type, const anycl::shape& s,
                       anycl::buffer external)
    : queue_(queue), type_(type) {
  const std::size_t bytes = checked_bytes(queue, type, s);
  if (external.size() < bytes)
    throw std::invalid_argument("array::from_buffer: " + s.str() + " elements of " +
                                cl_type_name(type) + " need " + std::to_string(bytes) +
                                " bytes; the buffer has " + std::to_string(external.size()));
  if (!external.empty() && external.context() != queue.context())
    throw std::invalid_argument(
        "array::from_buffer: the buffer belongs to another context than the queue's");
  kernels_ = kernels_for(queue.context());
  layout_ = dense_layout(s);
  sync_ = std::make_shared<array_sync>(nullptr, std::move(external));
  buf_ = sync_->buf;
}

event array_core::last_event() const {
  if (!sync_) return {};
  std::lock_guard<std::mutex> lock(sync_->m);
  return sync_->last;
}

void array_core::record(const event& e) const {
  if (!sync_ || !e) return;
  std::lock_guard<std::mutex> lock(sync_->m);
  sync_->last = e;
}

void require_array(const array_core& a, const char* what, const char* role) {
  if (!a.valid())
    throw std::invalid_argument(std::string(what) + ": the " +
                                (role ? std::string(role) + " " : "") +
                                "array is empty (default-constructed)");
}

void require_writable(const array_core& a, const char* what) {
  const array_layout& l = a.layout();
  if (!l.repeats()) return;
  for (unsigned i = 0; i < l.extents.dims(); ++i)
    if (l.extents[i] > 1 && l.strides[i] == 0)
      throw std::invalid_argument(std::string(what) + ": the destination " + l.extents.str() +
                                  " is a broadcast view (stride 0 along axis " + std::to_string(i) +
                                  "): its elements repeat, so it cannot be written; copy() it");
}

namespace {

void require_count(const array_core& a, std::size_t count, const char* what) {
  if (count != a.layout().extents.size())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(count) +
                                " host elements for an array of " +
                                std::to_string(a.layout().extents.size()));
}

}  // namespace

void array_core::write_host(const void* src, std::size_t count) const {
  require_array(*this, "array::set");
  require_count(*this, count, "array::set");
  require_writable(*this, "array::set");
  if (count == 0) return;
  const std::size_t es = size_of(type_);
  rect_side side;
  rect_region region{};
  if (!layout_.contiguous() && rect_of(layout_, es, side, region)) {
    // Rows (and slices) of a strided view in one rectangular write: no temporary, no kernel.
    queue_.write_rect(buf_, side, src, {}, region, dependencies({this}));
    return;
  }
  if (!layout_.contiguous()) {
    array_core tmp(queue_, type_, layout_.extents);
    tmp.write_host(src, count);
    assign(tmp);
    return;
  }
  std::vector<event> deps = dependencies({this});
  queue_.write_bytes(buf_, layout_.offset * es, count * es, src, deps);
}

void array_core::read_host(void* dst, std::size_t count) const {
  require_array(*this, "array::to_host");
  require_count(*this, count, "array::to_host");
  if (count == 0) return;
  const std::size_t es = size_of(type_);
  rect_side side;
  rect_region region{};
  if (!layout_.contiguous() && rect_of(layout_, es, side, region)) {
    queue_.read_rect(buf_, side, dst, {}, region, dependencies({this}));
    return;
  }
  if (!layout_.contiguous()) {
    copy().read_host(dst, count);
    return;
  }
  std::vector<event> deps = dependencies({this});
  queue_.read_bytes(buf_, layout_.offset * es, count * es, dst, deps);
}

array_core array_core::copy() const {
  require_array(*this, "array::copy");
  array_core out(queue_, type_, layout_.extents);
  out.assign(*this);
  return out;
}

void array_core::assign(const array_core& src) const {
  require_array(*this, "array::assign");
  require_array(src, "array::assign");
  if (src.type_ != type_)
    throw std::invalid_argument(std::string("array::assign: ") + cl_type_name(src.type_) +
                                " elements into a " + cl_type_name(type_) + " array");
  require_writable(*this, "array::assign");
  if (src.layout_.extents != layout_.extents) {
    assign(src.with_layout(broadcast_layout(src.layout_, layout_.extents, "array::assign")));
    return;
  }
  const std::size_t n = layout_.extents.size();
  if (n == 0) return;
  if (buf_.get() == src.buf_.get() && src.layout_.offset == layout_.offset &&
      src.layout_.strides == layout_.strides)
    return;
  if (may_overlap(src)) {
    assign(src.copy());
    return;
  }
  const std::size_t es = size_of(type_);
  std::vector<event> deps = dependencies({this, &src});
  event e;
  if (layout_.contiguous() && src.layout_.contiguous()) {
    e = queue_.copy_bytes(src.buf_, src.layout_.offset * es, buf_, layout_.offset * es, n * es,
                          deps);
  } else {
    kernel k = library_kernel(queue_, "anycl/array.cl", "anycl_copy_strided",
                              typed_options(queue_, type_));
    // Blocks of a view beyond 4 axes go one after the other, each waiting for the one before.
    for_each_block({src.layout_, layout_}, [&](const std::vector<array_layout>& b) {
      const std::size_t count = b[1].extents.size();
      const launch_plan plan = plan_launch(queue_, count, es);
      e = detail::launch(k, queue_, plan.range(), deps, src.buf_, cl_ulong(b[0].offset),
                         padded_strides(b[0]), buf_, cl_ulong(b[1].offset), padded_strides(b[1]),
                         padded_extents(b[1]), cl_ulong(count), cl_ulong(plan.chunk));
      deps = {e};
    });
  }
  record(e);
  src.record(e);
}

void array_core::fill(const void* value) const {
  require_array(*this, "array::fill");
  require_writable(*this, "array::fill");
  const std::size_t n = layout_.extents.size();
  if (n == 0) return;
  const std::size_t es = size_of(type_);
  std::vector<event> deps = dependencies({this});
  event e;
  if (layout_.contiguous()) {
    e = queue_.fill_bytes(buf_, layout_.offset * es, n * es, value, es, deps);
  } else {
    kernel k = library_kernel(queue_, "anycl/array.cl", "anycl_fill_strided",
                              typed_options(queue_, type_));
    for_each_block({layout_}, [&](const std::vector<array_layout>& b) {
      const std::size_t count = b[0].extents.size();
      const launch_plan plan = plan_launch(queue_, count, es);
      const cl_ulong off = b[0].offset, items = count, chunk = plan.chunk;
      const cl_ulong4 st = padded_strides(b[0]), ext = padded_extents(b[0]);
      std::array<kernel_arg, 7> args{arg_traits<anycl::buffer>::make(buf_),
                                     arg_traits<cl_ulong>::make(off),
                                     arg_traits<cl_ulong4>::make(st),
                                     arg_traits<cl_ulong4>::make(ext),
                                     arg_traits<cl_ulong>::make(items),
                                     arg_traits<cl_ulong>::make(chunk),
                                     raw_arg(value, es)};
      e = enqueue_kernel(k, queue_, plan.range(), args.data(), args.size(), deps);
      deps = {e};
    });
  }
  record(e);
}

void array_core::iota(const void* start, const void* step) const {
  require_array(*this, "array::arange");
  const std::size_t n = layout_.extents.size();
  if (n == 0) return;
  if (!layout_.contiguous() || layout_.extents.dims() != 1)
    throw std::invalid_argument("array::arange: needs a dense 1-D array");
  const std::size_t es = size_of(type_);
  const launch_plan plan = plan_launch(queue_, n, es);
  kernel k = library_kernel(queue_, "anycl/array.cl", "anycl_iota", typed_options(queue_, type_));
  const cl_ulong off = layout_.offset, count = n, chunk = plan.chunk;
  std::array<kernel_arg, 6> args{arg_traits<anycl::buffer>::make(buf_),
                                 arg_traits<cl_ulong>::make(off),
                                 arg_traits<cl_ulong>::make(count),
                                 arg_traits<cl_ulong>::make(chunk),
                                 raw_arg(start, es),
                                 raw_arg(step, es)};
  std::vector<event> deps = dependencies({this});
  record(enqueue_kernel(k, queue_, plan.range(), args.data(), args.size(), deps));
}

array_core array_core::with_layout(const array_layout& l) const {
  array_core a = *this;
  a.layout_ = l;
  return a;
}

array_core array_core::slice(unsigned axis, std::size_t begin, std::size_t end,
                             std::size_t step) const {
  require_array(*this, "array::slice");
  const unsigned d = layout_.extents.dims();
  if (axis >= d)
    throw std::invalid_argument("array::slice: axis " + std::to_string(axis) +
                                " of an array with " + std::to_string(d) + " dimensions");
  if (step == 0) throw std::invalid_argument("array::slice: step 0");
  const std::size_t extent = layout_.extents[axis];
  if (begin > end || end > extent)
    throw std::out_of_range("array::slice: [" + std::to_string(begin) + ", " + std::to_string(end) +
                            ") is outside axis " + std::to_string(axis) + " of extent " +
                            std::to_string(extent));
  std::vector<std::size_t> ext(layout_.extents.extents().begin(),
                               layout_.extents.extents().begin() + d);
  ext[axis] = (end - begin + step - 1) / step;
  array_layout l = layout_;
  l.extents = anycl::shape(ext);
  if (ext[axis] != 0) l.offset += begin * layout_.strides[axis];
  l.strides[axis] *= step;
  return with_layout(l);
}

array_core array_core::reshape(const anycl::shape& s) const {
  require_array(*this, "array::reshape");
  if (s.size() != layout_.extents.size())
    throw std::invalid_argument("array::reshape: " + layout_.extents.str() + " has " +
                                std::to_string(layout_.extents.size()) + " elements, " + s.str() +
                                " has " + std::to_string(s.size()));
  if (!layout_.contiguous())
    throw std::invalid_argument(
        "array::reshape: a strided view cannot be reshaped without a copy; "
        "call copy() first");
  array_layout l = dense_layout(s);
  l.offset = layout_.offset;
  return with_layout(l);
}

array_core array_core::transpose(const std::vector<unsigned>& axes) const {
  require_array(*this, "array::transpose");
  const unsigned d = layout_.extents.dims();
  std::vector<unsigned> perm = axes;
  if (perm.empty())
    for (unsigned i = d; i-- > 0;) perm.push_back(i);
  std::vector<bool> seen(d, false);
  bool ok = perm.size() == d;
  for (unsigned p : perm) {
    if (!ok) break;
    ok = p < d && !seen[p];
    if (ok) seen[p] = true;
  }
  if (!ok)
    throw std::invalid_argument("array::transpose: the axes are not a permutation of 0.." +
                                std::to_string(d - 1));
  std::vector<std::size_t> ext(d);
  array_layout l = layout_;
  for (unsigned i = 0; i < d; ++i) {
    ext[i] = layout_.extents[perm[i]];
    l.strides[i] = layout_.strides[perm[i]];
  }
  l.extents = anycl::shape(ext);
  return with_layout(l);
}

bool array_core::may_overlap(const array_core& other) const noexcept {
  if (buf_.get() == nullptr || buf_.get() != other.buf_.get()) return false;
  const std::size_t a0 = layout_.offset, a1 = layout_span(layout_);
  const std::size_t b0 = other.layout_.offset, b1 = layout_span(other.layout_);
  if (a1 == 0 || b1 == 0) return false;
  return a0 < b1 && b0 < a1;
}

void array_core::swap(array_core& other) noexcept {
  std::swap(queue_, other.queue_);
  std::swap(buf_, other.buf_);
  std::swap(sync_, other.sync_);
  std::swap(kernels_, other.kernels_);
  std::swap(layout_, other.layout_);
  std::swap(type_, other.type_);
}

void add_dependency(std::vector<event>& deps, const array_core& a) {
  event e = a.last_event();
  if (!e) return;
  for (const event& x : deps)
    if (x.get() == e.get()) return;
  deps.push_back(std::move(e));
}

std::vector<event> dependencies(std::initializer_list<const array_core*> arrays) {
  std::vector<event> out;
  for (const array_core* a : arrays)
    if (a) add_dependency(out, *a);
  return out;
}

}  // namespace detail
}  // namespace anycl
