// SPDX-License-Identifier: Apache-2.0
#include "anycl/array.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "anycl/kernel_loader.hpp"
#include "arrays/launch_shape.hpp"

namespace anycl {

const char* cl_type_name(scalar_type t) noexcept {
  switch (t) {
    case scalar_type::i8:
      return "char";
    case scalar_type::i16:
      return "short";
    case scalar_type::i32:
      return "int";
    case scalar_type::i64:
      return "long";
    case scalar_type::u8:
      return "uchar";
    case scalar_type::u16:
      return "ushort";
    case scalar_type::u32:
      return "uint";
    case scalar_type::u64:
      return "ulong";
    case scalar_type::f32:
      return "float";
    case scalar_type::f64:
      return "double";
    case scalar_type::c64:
      return "float2";
    case scalar_type::c128:
      return "double2";
  }
  return "?";
}

std::size_t size_of(scalar_type t) noexcept {
  switch (t) {
    case scalar_type::i8:
    case scalar_type::u8:
      return 1;
    case scalar_type::i16:
    case scalar_type::u16:
      return 2;
    case scalar_type::i32:
    case scalar_type::u32:
    case scalar_type::f32:
      return 4;
    case scalar_type::i64:
    case scalar_type::u64:
    case scalar_type::f64:
    case scalar_type::c64:
      return 8;
    case scalar_type::c128:
      return 16;
  }
  return 0;
}

bool is_floating(scalar_type t) noexcept { return t == scalar_type::f32 || t == scalar_type::f64; }

bool is_complex(scalar_type t) noexcept { return t == scalar_type::c64 || t == scalar_type::c128; }

bool is_signed(scalar_type t) noexcept {
  switch (t) {
    case scalar_type::u8:
    case scalar_type::u16:
    case scalar_type::u32:
    case scalar_type::u64:
      return false;
    default:
      return true;
  }
}

// --- shape ---

namespace {

std::size_t checked_product(const std::size_t* e, unsigned n) {
  std::size_t p = 1;
  for (unsigned i = 0; i < n; ++i) {
    if (e[i] != 0 && p > std::numeric_limits<std::size_t>::max() / e[i])
      throw std::overflow_error("shape: the element count overflows size_t");
    p *= e[i];
  }
  return p;
}

}  // namespace

shape::shape(std::initializer_list<std::size_t> extents)
    : shape(std::vector<std::size_t>(extents)) {}

shape::shape(const std::vector<std::size_t>& extents) {
  if (extents.empty() || extents.size() > max_dims)
    throw std::invalid_argument("shape: an array has 1 to 4 dimensions, not " +
                                std::to_string(extents.size()));
  dims_ = static_cast<unsigned>(extents.size());
  for (unsigned i = 0; i < dims_; ++i) e_[i] = extents[i];
  checked_product(e_.data(), dims_);
}

std::size_t shape::size() const noexcept {
  std::size_t p = 1;
  for (unsigned i = 0; i < dims_; ++i) p *= e_[i];
  return p;
}

std::string shape::str() const {
  std::string s = "(";
  for (unsigned i = 0; i < dims_; ++i) {
    if (i) s += ", ";
    s += std::to_string(e_[i]);
  }
  return s + ")";
}

namespace detail {

// --- layout ---

array_layout array_layout::dense(const anycl::shape& s) noexcept {
  array_layout l;
  l.extents = s;
  std::size_t stride = 1;
  for (unsigned i = s.dims(); i-- > 0;) {
    l.strides[i] = stride;
    stride *= s[i];
  }
  return l;
}

bool array_layout::contiguous() const noexcept {
  std::size_t want = 1;
  for (unsigned i = extents.dims(); i-- > 0;) {
    if (extents[i] == 0) return true;
    if (extents[i] != 1 && strides[i] != want) return false;
    want *= extents[i];
  }
  return true;
}

std::size_t array_layout::span() const noexcept {
  if (extents.size() == 0) return 0;
  std::size_t last = offset;
  for (unsigned i = 0; i < extents.dims(); ++i) last += (extents[i] - 1) * strides[i];
  return last + 1;
}

struct array_sync {
  std::mutex m;
  event last;
};

// --- per-context kernels ---

class context_kernels {
 public:
  explicit context_kernels(const anycl::context& ctx) : loader_(ctx) {}

  kernel get(const std::string& file, const std::string& name, const build_options& options) {
    std::string key = file;
    key += '\0';
    key += options.str();
    key += '\0';
    key += name;
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = kernels_.find(key);
      if (it != kernels_.end()) return it->second;
    }
    // The loader builds once even when several threads ask at once; the kernel object is shared.
    kernel k = loader_.load(file, options).kernel(name);
    std::lock_guard<std::mutex> lock(m_);
    return kernels_.emplace(std::move(key), std::move(k)).first->second;
  }

  kernel get_source(const std::string& source, const std::string& program_name,
                    const std::string& name, const build_options& options) {
    std::string key = source;
    key += '\0';
    key += options.str();
    key += '\0';
    key += name;
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = generated_.find(key);
      if (it != generated_.end()) return it->second;
    }
    kernel k = loader_.load_source(source, program_name, options).kernel(name);
    std::lock_guard<std::mutex> lock(m_);
    return generated_.emplace(std::move(key), std::move(k)).first->second;
  }

  device_profile profile(const command_queue& q) {
    cl_device_id id = q.device_id();
    {
      std::lock_guard<std::mutex> lock(m_);
      auto it = profiles_.find(id);
      if (it != profiles_.end()) return it->second;
    }
    device dev = q.device();
    device_profile p;
    p.cpu = takes_cpu_shape(launch_shape_from_env(), dev);
    p.compute_units = std::max<cl_uint>(1, dev.compute_units());
    p.max_work_group = std::max<std::size_t>(1, dev.max_work_group_size());
    p.fp64 = dev.fp64();
    p.local_memory = dev.local_memory();
    p.options.define(p.cpu ? "ANYCL_CPU" : "ANYCL_GPU");
    if (p.fp64) p.options.define("ANYCL_FP64");
    std::lock_guard<std::mutex> lock(m_);
    return profiles_.emplace(id, std::move(p)).first->second;
  }

 private:
  kernel_loader loader_;
  std::mutex m_;
  std::unordered_map<std::string, kernel> kernels_;
  std::unordered_map<std::string, kernel> generated_;
  std::map<cl_device_id, device_profile> profiles_;
};

namespace {

// Weak references only: what the kernels retain lives as long as an array of the context holds
// its context_kernels, never in static storage.
std::mutex registry_mutex;
std::map<cl_context, std::weak_ptr<context_kernels>>& registry() {
  static auto* r = new std::map<cl_context, std::weak_ptr<context_kernels>>();
  return *r;
}

}  // namespace

std::shared_ptr<context_kernels> kernels_for(const anycl::context& ctx) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto& r = registry();
  auto it = r.find(ctx.get());
  if (it != r.end()) {
    if (auto sp = it->second.lock()) return sp;
  }
  for (auto i = r.begin(); i != r.end();) i = i->second.expired() ? r.erase(i) : std::next(i);
  auto sp = std::make_shared<context_kernels>(ctx);
  r[ctx.get()] = sp;
  return sp;
}

device_profile profile(const command_queue& queue) {
  return kernels_for(queue.context())->profile(queue);
}

build_options library_options(const command_queue& queue) { return profile(queue).options; }

kernel library_kernel(const command_queue& queue, const std::string& file, const std::string& name,
                      const build_options& options) {
  return kernels_for(queue.context())->get(file, name, options);
}

kernel generated_kernel(const command_queue& queue, const std::string& source,
                        const std::string& program_name, const std::string& name,
                        const build_options& options) {
  return kernels_for(queue.context())->get_source(source, program_name, name, options);
}

launch_plan plan_launch(const command_queue& queue, std::size_t n, std::size_t elem_bytes) {
  return plan_for(profile(queue), n, elem_bytes);
}

launch_plan plan_for(const device_profile& p, std::size_t n, std::size_t elem_bytes) {
  launch_plan plan;
  plan.cpu = p.cpu;
  if (n == 0) return plan;
  if (p.cpu) {
    // Each work-item a contiguous chunk of at least 16 KiB, at most 4 chunks per core.
    const std::size_t min_chunk =
        std::max<std::size_t>(64, 16384 / std::max<std::size_t>(1, elem_bytes));
    std::size_t items =
        std::min<std::size_t>((n + min_chunk - 1) / min_chunk, std::size_t{4} * p.compute_units);
    items = std::max<std::size_t>(1, items);
    std::size_t chunk = (n + items - 1) / items;
    chunk = (chunk + 15) / 16 * 16;
    plan.chunk = chunk;
    plan.global = (n + chunk - 1) / chunk;
    plan.local = 1;
  } else {
    plan.local = std::min<std::size_t>(256, p.max_work_group);
    std::size_t groups = (n + plan.local - 1) / plan.local;
    groups = std::min<std::size_t>(groups, std::size_t{16} * p.compute_units);
    plan.global = std::max<std::size_t>(1, groups) * plan.local;
    plan.chunk = 1;
  }
  return plan;
}

nd_range launch_plan::range() const { return nd_range(global, local); }

cl_ulong4 padded_extents(const array_layout& l) {
  cl_ulong4 v;
  const unsigned d = l.extents.dims();
  for (unsigned i = 0; i < 4; ++i) v.s[i] = 1;
  for (unsigned i = 0; i < d; ++i) v.s[4 - d + i] = l.extents[i];
  return v;
}

cl_ulong4 padded_strides(const array_layout& l) {
  cl_ulong4 v;
  const unsigned d = l.extents.dims();
  for (unsigned i = 0; i < 4; ++i) v.s[i] = 0;
  for (unsigned i = 0; i < d; ++i) v.s[4 - d + i] = l.strides[i];
  return v;
}

build_options typed_options(const command_queue& queue, scalar_type t) {
  build_options o = library_options(queue);
  o.define("T", cl_type_name(t));
  return o;
}

// --- array_core ---

array_core::array_core(const command_queue& queue, scalar_type type, const anycl::shape& s)
    : queue_(queue), sync_(std::make_shared<array_sync>()), type_(type) {
  if (!queue) throw std::invalid_argument("array: the queue is empty (default-constructed)");
  kernels_ = kernels_for(queue.context());
  // The device profile is read here, so a bad ANYCL_LAUNCH_SHAPE is refused by the first array.
  const bool fp64 = kernels_->profile(queue).fp64;
  if ((type == scalar_type::f64 || type == scalar_type::c128) && !fp64)
    throw std::invalid_argument("array<double>: device '" + queue.device().name() +
                                "' has no double precision (cl_khr_fp64)");
  layout_ = array_layout::dense(s);
  const std::size_t n = s.size();
  if (n > std::numeric_limits<std::size_t>::max() / size_of(type))
    throw std::overflow_error("array: " + s.str() + " elements of " + cl_type_name(type) +
                              " overflow size_t bytes");
  buf_ = anycl::buffer(queue.context(), n * size_of(type));
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

namespace {

void require_valid(const array_core& a, const char* what) {
  if (!a.valid())
    throw std::invalid_argument(std::string(what) + ": the array is empty (default-constructed)");
}

void require_count(const array_core& a, std::size_t count, const char* what) {
  if (count != a.layout().extents.size())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(count) +
                                " host elements for an array of " +
                                std::to_string(a.layout().extents.size()));
}

}  // namespace

void array_core::write_host(const void* src, std::size_t count) const {
  require_valid(*this, "array::set");
  require_count(*this, count, "array::set");
  if (count == 0) return;
  if (!layout_.contiguous()) {
    array_core tmp(queue_, type_, layout_.extents);
    tmp.write_host(src, count);
    assign(tmp);
    return;
  }
  const std::size_t es = size_of(type_);
  std::vector<event> deps = dependencies({this});
  queue_.write_bytes(buf_, layout_.offset * es, count * es, src, deps);
}

void array_core::read_host(void* dst, std::size_t count) const {
  require_valid(*this, "array::to_host");
  require_count(*this, count, "array::to_host");
  if (count == 0) return;
  if (!layout_.contiguous()) {
    copy().read_host(dst, count);
    return;
  }
  const std::size_t es = size_of(type_);
  std::vector<event> deps = dependencies({this});
  queue_.read_bytes(buf_, layout_.offset * es, count * es, dst, deps);
}

array_core array_core::copy() const {
  require_valid(*this, "array::copy");
  array_core out(queue_, type_, layout_.extents);
  out.assign(*this);
  return out;
}

void array_core::assign(const array_core& src) const {
  require_valid(*this, "array::assign");
  require_valid(src, "array::assign");
  if (src.type_ != type_)
    throw std::invalid_argument(std::string("array::assign: ") + cl_type_name(src.type_) +
                                " elements into a " + cl_type_name(type_) + " array");
  if (src.layout_.extents != layout_.extents)
    throw std::invalid_argument("array::assign: shape " + src.layout_.extents.str() + " into " +
                                layout_.extents.str());
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
    const launch_plan plan = plan_launch(queue_, n, es);
    kernel k = library_kernel(queue_, "anycl/array.cl", "anycl_copy_strided",
                              typed_options(queue_, type_));
    e = detail::launch(k, queue_, plan.range(), deps, src.buf_, cl_ulong(src.layout_.offset),
                       padded_strides(src.layout_), buf_, cl_ulong(layout_.offset),
                       padded_strides(layout_), padded_extents(layout_), cl_ulong(n),
                       cl_ulong(plan.chunk));
  }
  record(e);
  src.record(e);
}

void array_core::fill(const void* value) const {
  require_valid(*this, "array::fill");
  const std::size_t n = layout_.extents.size();
  if (n == 0) return;
  const std::size_t es = size_of(type_);
  std::vector<event> deps = dependencies({this});
  event e;
  if (layout_.contiguous()) {
    e = queue_.fill_bytes(buf_, layout_.offset * es, n * es, value, es, deps);
  } else {
    const launch_plan plan = plan_launch(queue_, n, es);
    kernel k = library_kernel(queue_, "anycl/array.cl", "anycl_fill_strided",
                              typed_options(queue_, type_));
    const cl_ulong off = layout_.offset, count = n, chunk = plan.chunk;
    const cl_ulong4 st = padded_strides(layout_), ext = padded_extents(layout_);
    std::array<kernel_arg, 7> args{arg_traits<anycl::buffer>::make(buf_),
                                   arg_traits<cl_ulong>::make(off),
                                   arg_traits<cl_ulong4>::make(st),
                                   arg_traits<cl_ulong4>::make(ext),
                                   arg_traits<cl_ulong>::make(count),
                                   arg_traits<cl_ulong>::make(chunk),
                                   raw_arg(value, es)};
    e = enqueue_kernel(k, queue_, plan.range(), args.data(), args.size(), deps);
  }
  record(e);
}

void array_core::iota(const void* start, const void* step) const {
  require_valid(*this, "array::arange");
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
  require_valid(*this, "array::slice");
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
  require_valid(*this, "array::reshape");
  if (s.size() != layout_.extents.size())
    throw std::invalid_argument("array::reshape: " + layout_.extents.str() + " has " +
                                std::to_string(layout_.extents.size()) + " elements, " + s.str() +
                                " has " + std::to_string(s.size()));
  if (!layout_.contiguous())
    throw std::invalid_argument(
        "array::reshape: a strided view cannot be reshaped without a copy; "
        "call copy() first");
  array_layout l = array_layout::dense(s);
  l.offset = layout_.offset;
  return with_layout(l);
}

array_core array_core::transpose(const std::vector<unsigned>& axes) const {
  require_valid(*this, "array::transpose");
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
  const std::size_t a0 = layout_.offset, a1 = layout_.span();
  const std::size_t b0 = other.layout_.offset, b1 = other.layout_.span();
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

std::vector<event> dependencies(std::initializer_list<const array_core*> arrays) {
  std::vector<event> out;
  for (const array_core* a : arrays) {
    if (!a) continue;
    event e = a->last_event();
    if (!e) continue;
    bool dup = false;
    for (const event& x : out) dup = dup || x.get() == e.get();
    if (!dup) out.push_back(std::move(e));
  }
  return out;
}

kernel_arg raw_arg(const void* value, std::size_t bytes) noexcept {
  kernel_arg a;
  a.size = bytes;
  a.value = value;
  return a;
}

}  // namespace detail
}  // namespace anycl
