// SPDX-License-Identifier: Apache-2.0
// take, put and searchsorted (anycl/indexing.hpp) through cl_kernels/anycl/indexing.cl: one
// program per element and index type, operands made dense first where they are strided views;
// and the entry point of them all, compress included (compact.cpp).
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/indexing.hpp"
#include "arrays/compact.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/memory_pool.hpp"
#include "arrays/reduce_internal.hpp"
#include "arrays/require.hpp"

namespace anycl::detail {
namespace {

build_options index_options(const command_queue& q, scalar_type t, scalar_type index) {
  build_options o = typed_options(q, t);
  o.define("I", cl_type_name(index));
  if (is_floating(t)) o.define("ANYCL_FLOATING");
  return o;
}

kernel index_kernel(const command_queue& q, const char* name, scalar_type t, scalar_type index) {
  return library_kernel(q, "anycl/indexing.cl", name, index_options(q, t, index));
}

array_core dense(const array_core& a) { return a.layout().contiguous() ? a : a.copy(); }

void require_same_context(const array_core& a, const array_core& b, const char* what,
                          const char* role) {
  if (a.queue().context().get() != b.queue().context().get())
    throw std::invalid_argument(std::string(what) + ": the " + role +
                                " belong to another context than the array");
}

void require_index_array(const array_core& a, const array_core& idx, const char* what) {
  require_array(a, what);
  require_array(idx, what, "index");
  if (is_floating(idx.type()) || is_complex(idx.type()))
    throw std::invalid_argument(std::string(what) + ": indices of type " +
                                cl_type_name(idx.type()) + " (an integer type is needed)");
  require_same_context(a, idx, what, "indices");
}

// Index k of the host copy `raw` of indices of type t, and whether it is outside [-n, n).
bool host_index_bad(const unsigned char* raw, scalar_type t, std::size_t k, std::size_t n,
                    std::string& shown) {
  const std::size_t es = size_of(t);
  std::uint64_t u = 0;
  std::memcpy(&u, raw + k * es, es);
  if (is_signed(t) && es < 8 && (u >> (8 * es - 1)) != 0) u |= ~std::uint64_t{0} << (8 * es);
  if (is_signed(t)) {
    const auto v = static_cast<std::int64_t>(u);
    shown = std::to_string(v);
    const auto m = static_cast<std::int64_t>(n);
    return v < -m || v >= m;
  }
  shown = std::to_string(u);
  return u >= n;
}

// After a kernel that flagged *bad: throws std::out_of_range naming the first index outside
// [-n, n) of the dense indices `idx` along `where` ("axis 0 of extent 5 of shape (5)").
void throw_first_bad(const array_core& idx, std::size_t n, const std::string& where,
                     const char* what) {
  const std::size_t m = idx.layout().extents.size(), es = size_of(idx.type());
  std::vector<unsigned char> raw(m * es);
  idx.read_host(raw.data(), m);
  std::string shown;
  for (std::size_t k = 0; k < m; ++k)
    if (host_index_bad(raw.data(), idx.type(), k, n, shown))
      throw std::out_of_range(std::string(what) + ": index " + shown + " (at position " +
                              std::to_string(k) + " of the indices) is out of range for " + where);
  throw std::logic_error(std::string(what) +
                         ": the device flagged an index out of range that "
                         "the host finds in range");
}

// A 4-byte flag the kernels set when an index is out of range under index_mode::raise.
scratch_buffer zero_flag(const command_queue& q, std::vector<event>& deps) {
  scratch_buffer flag(q, sizeof(cl_uint));
  const cl_uint zero = 0;
  deps.push_back(flag.record(q.fill_bytes(flag.buffer(), 0, sizeof zero, &zero, sizeof zero)));
  return flag;
}

bool flag_set(const command_queue& q, const scratch_buffer& flag, const event& after) {
  cl_uint v = 0;
  q.read_bytes(flag.buffer(), 0, sizeof v, &v, wait_list{after});
  return v != 0;
}

std::string axis_text(const array_layout& l, const std::optional<unsigned>& axis) {
  if (!axis) return "an array of " + std::to_string(l.extents.size()) + " elements";
  return "axis " + std::to_string(*axis) + " of extent " + std::to_string(l.extents[*axis]) +
         " of shape " + l.extents.str();
}

// take's result shape: a's with `axis` replaced by the indices' shape (the indices' own for a
// flat take).
anycl::shape take_shape(const anycl::shape& a, const anycl::shape& idx,
                        const std::optional<unsigned>& axis, const char* what) {
  if (!axis) return idx;
  std::vector<std::size_t> e;
  for (unsigned i = 0; i < a.dims(); ++i) {
    if (i != *axis) {
      e.push_back(a[i]);
      continue;
    }
    for (unsigned j = 0; j < idx.dims(); ++j) e.push_back(idx[j]);
  }
  if (e.size() > anycl::shape::max_dims)
    throw std::invalid_argument(std::string(what) + ": indices of shape " + idx.str() +
                                " along axis " + std::to_string(*axis) + " of shape " + a.str() +
                                " give " + std::to_string(e.size()) + " dimensions (at most 8)");
  return anycl::shape(e);
}

array_core run_take(const index_request& r) {
  const array_core& a = *r.a;
  require_index_array(a, *r.indices, r.what);
  const anycl::shape& s = a.layout().extents;
  if (r.axis) require_axis(*r.axis, s, r.what);
  const command_queue& q = a.queue();
  array_core out(q, a.type(), take_shape(s, r.indices->layout().extents, r.axis, r.what));
  const std::size_t n = out.layout().extents.size();
  if (n == 0) return out;
  std::size_t len = s.size(), inner = 1;
  if (r.axis) {
    len = s[*r.axis];
    for (unsigned i = *r.axis + 1; i < s.dims(); ++i) inner *= s[i];
  }
  if (len == 0)
    throw std::out_of_range(std::string(r.what) + ": " + std::to_string(n) +
                            " elements taken from " + axis_text(a.layout(), r.axis));
  const array_core src = dense(a), idx = dense(*r.indices);
  const std::size_t m = idx.layout().extents.size();
  std::vector<event> deps = dependencies({&src, &idx});
  scratch_buffer flag = zero_flag(q, deps);
  kernel k = index_kernel(q, "anycl_take", a.type(), idx.type());
  const launch_plan p = plan_launch(q, n, size_of(a.type()));
  const event e = launch(k, q, p.range(), deps, src.buffer(), cl_ulong(src.layout().offset),
                         idx.buffer(), cl_ulong(idx.layout().offset), cl_ulong(len), cl_ulong(m),
                         cl_ulong(inner), cl_uint(r.mode), flag.buffer(), out.buffer(), cl_ulong(0),
                         cl_ulong(n), cl_ulong(p.chunk));
  flag.record(e);
  src.record(e);
  idx.record(e);
  out.record(e);
  if (r.mode == index_mode::raise && flag_set(q, flag, e))
    throw_first_bad(idx, len, axis_text(a.layout(), r.axis), r.what);
  return out;
}

void check_put(const index_request& r) {
  require_index_array(*r.a, *r.indices, r.what);
  require_array(*r.values, r.what, "values");
  require_writable(*r.a, r.what);
  require_same_context(*r.a, *r.values, r.what, "values");
  if (r.values->type() != r.a->type())
    throw std::invalid_argument(std::string(r.what) + ": values of type " +
                                cl_type_name(r.values->type()) + " for an array of " +
                                cl_type_name(r.a->type()));
  const std::size_t m = r.indices->layout().extents.size();
  if (m >= std::numeric_limits<cl_uint>::max())
    throw std::invalid_argument(std::string(r.what) + ": " + std::to_string(m) +
                                " indices (at most 2^32 - 2 in one call)");
  if (m > 0 && r.values->layout().extents.size() == 0)
    throw std::invalid_argument(std::string(r.what) + ": no values for " + std::to_string(m) +
                                " indices");
  if (m > 0 && r.a->layout().extents.size() == 0)
    throw std::out_of_range(std::string(r.what) + ": " + std::to_string(m) +
                            " indices into an array of 0 elements");
}

void run_put(const index_request& r) {
  check_put(r);
  const std::size_t m = r.indices->layout().extents.size();
  if (m == 0) return;
  const array_core& a = *r.a;
  const command_queue& q = a.queue();
  const array_core dst = dense(a), idx = dense(*r.indices), v = dense(*r.values);
  const std::size_t len = a.layout().extents.size(), nv = v.layout().extents.size();
  std::vector<event> deps = dependencies({&dst, &idx, &v});
  scratch_buffer flag = zero_flag(q, deps);
  scratch_buffer owner(q, len * sizeof(cl_uint));
  const cl_uint none = 0;
  deps.push_back(
      owner.record(q.fill_bytes(owner.buffer(), 0, len * sizeof none, &none, sizeof none)));
  const launch_plan p = plan_launch(q, m, size_of(idx.type()));
  const cl_ulong idx_off = idx.layout().offset;
  const event claimed =
      launch(index_kernel(q, "anycl_put_claim", a.type(), idx.type()), q, p.range(), deps,
             idx.buffer(), idx_off, cl_ulong(len), cl_uint(r.mode), flag.buffer(), owner.buffer(),
             cl_ulong(m), cl_ulong(p.chunk));
  idx.record(claimed);
  flag.record(claimed);
  owner.record(claimed);
  if (r.mode == index_mode::raise && flag_set(q, flag, claimed))
    throw_first_bad(idx, len, axis_text(a.layout(), std::nullopt), r.what);
  const event e =
      launch(index_kernel(q, "anycl_put_write", a.type(), idx.type()), q, p.range(),
             wait_list{claimed}, idx.buffer(), idx_off, cl_ulong(len), cl_uint(r.mode),
             flag.buffer(), owner.buffer(), v.buffer(), cl_ulong(v.layout().offset), cl_ulong(nv),
             dst.buffer(), cl_ulong(dst.layout().offset), cl_ulong(m), cl_ulong(p.chunk));
  idx.record(e);
  v.record(e);
  dst.record(e);
  flag.record(e);
  owner.record(e);
  if (dst.buffer().get() != a.buffer().get()) a.assign(dst);  // a strided view: write it back
}

array_core run_searchsorted(const index_request& r) {
  const array_core& a = *r.a;
  require_array(a, r.what, "sorted");
  require_array(*r.values, r.what, "values");
  require_same_context(a, *r.values, r.what, "values");
  if (a.layout().extents.dims() != 1)
    throw std::invalid_argument(std::string(r.what) + ": the sorted array has shape " +
                                a.layout().extents.str() + " (it must be 1-D)");
  if (r.values->type() != a.type())
    throw std::invalid_argument(std::string(r.what) + ": values of type " +
                                cl_type_name(r.values->type()) + " in a sorted array of " +
                                cl_type_name(a.type()));
  const command_queue& q = a.queue();
  array_core out(q, scalar_type::u64, r.values->layout().extents);
  const std::size_t n = out.layout().extents.size();
  if (n == 0) return out;
  const array_core sorted = dense(a), v = dense(*r.values);
  const launch_plan p = plan_launch(q, n, size_of(a.type()));
  const event e =
      launch(index_kernel(q, "anycl_searchsorted", a.type(), scalar_type::i64), q, p.range(),
             dependencies({&sorted, &v}), sorted.buffer(), cl_ulong(sorted.layout().offset),
             cl_ulong(sorted.layout().extents.size()), v.buffer(), cl_ulong(v.layout().offset),
             cl_uint(r.right ? 1 : 0), out.buffer(), cl_ulong(n), cl_ulong(p.chunk));
  sorted.record(e);
  v.record(e);
  out.record(e);
  return out;
}

// The segmented reduction's launch: a segment a work-item, or in the GPU shape, where segments
// average 64 elements or more, a segment a work-group (of a power of two, at most 64).
event launch_segments(const command_queue& q, const build_options& o, const array_core& v,
                      const array_core& starts, const array_core& out) {
  const std::size_t m = starts.layout().extents.size(), n = v.layout().extents.size();
  const device_profile prof = profile(q);
  const cl_ulong v_off = v.layout().offset, s_off = starts.layout().offset;
  if (!prof.cpu && n / m >= 64) {
    std::size_t local = 64;
    while (local > 1 && local > prof.max_work_group) local /= 2;
    return launch(library_kernel(q, "anycl/segments.cl", "anycl_reduce_segments_group", o), q,
                  nd_range(m * local, local), dependencies({&v, &starts}), v.buffer(), v_off,
                  starts.buffer(), s_off, cl_ulong(m), cl_ulong(n), out.buffer(),
                  local_memory<cl_uchar>(2 * local * size_of(out.type())));
  }
  const launch_plan p = plan_launch(q, m, size_of(v.type()));
  return launch(library_kernel(q, "anycl/segments.cl", "anycl_reduce_segments", o), q, p.range(),
                dependencies({&v, &starts}), v.buffer(), v_off, starts.buffer(), s_off, cl_ulong(m),
                cl_ulong(n), out.buffer(), cl_ulong(p.chunk));
}

// reduce_by_key's segments: r.a's values from each of r.indices (dense uint64 starts) to the
// next.
array_core run_segments(const index_request& r) {
  const array_core v = dense(*r.a), starts = dense(*r.indices);
  const command_queue& q = v.queue();
  const scalar_type t = v.type();
  const scalar_type out_t = acc_type(t, reduce_op::sum);  // integers in 64 bits, every op
  const std::size_t m = starts.layout().extents.size();
  array_core out(q, out_t, anycl::shape(m));
  if (m == 0) return out;
  build_options o = typed_options(q, t);
  o.define("OUT", out_t == scalar_type::i64 ? "long" : cl_type_name(out_t));
  o.define("ANYCL_SEGMENT_OP", std::to_string(static_cast<unsigned>(r.reduction)));
  if (is_floating(t)) o.define("ANYCL_FLOATING");
  const event e = launch_segments(q, o, v, starts, out);
  v.record(e);
  starts.record(e);
  out.record(e);
  return out;
}

}  // namespace

array_core index_builtin(const index_request& r) {
  switch (r.op) {
    case index_op::take:
      return run_take(r);
    case index_op::put:
      run_put(r);
      return array_core();
    case index_op::searchsorted:
      return run_searchsorted(r);
    case index_op::compress:
      return compact(r);
    case index_op::histogram:
      return histogram(r);
    case index_op::segments:
      return run_segments(r);
  }
  throw std::invalid_argument(std::string(r.what) + ": unknown indexing operation");
}

}  // namespace anycl::detail
