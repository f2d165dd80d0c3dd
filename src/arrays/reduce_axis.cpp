// SPDX-License-Identifier: Apache-2.0
// Reductions along one axis (sum, min, max): one task per output element or per segment of it,
// then a combination of the segments.
#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/memory_pool.hpp"
#include "arrays/reduce_internal.hpp"

namespace anycl::detail {
namespace {

void check_axis(const array_core& a, unsigned axis, reduce_op op, const char* what) {
  require_array(a, what);
  require_axis(axis, a.layout().extents, what);
  if (op != reduce_op::sum && op != reduce_op::min && op != reduce_op::max)
    throw std::invalid_argument(std::string(what) + ": only sum, min and max reduce along an axis");
}

// The output: the input's extents without `axis`, placed by the input's strides of those axes,
// so that output element o starts at element o of this layout in the input.
array_layout output_layout(const array_layout& l, unsigned axis) {
  std::vector<std::size_t> ext;
  array_layout ol;
  for (unsigned i = 0, k = 0; i < l.extents.dims(); ++i) {
    if (i == axis) continue;
    ext.push_back(l.extents[i]);
    ol.strides[k++] = l.strides[i];
  }
  if (ext.empty()) ext.push_back(1);
  ol.extents = anycl::shape(ext);
  ol.offset = l.offset;
  return ol;
}

// The tasks' kernel, into `out` or into per-segment scratch that the final kernel combines.
event run_axis(const array_core& a, unsigned axis, reduce_op op, const array_layout& ol,
               const array_core& out) {
  const command_queue& q = a.queue();
  const array_layout& l = a.layout();
  const scalar_type t = a.type();
  const std::size_t m = ol.extents.size(), len = l.extents[axis], es = size_of(t);
  const device_profile prof = profile(q);
  const segments s = split_axis(prof, q, m, len, es);
  const build_options o = axis_options(q, t);
  kernel k1 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_axis", o);
  std::optional<scratch_buffer> scratch;
  if (s.splits > 1) scratch.emplace(q, s.tasks * device_acc_size(t, op));
  const anycl::buffer& dst = scratch ? scratch->buffer() : out.buffer();
  const launch_plan p1 = task_plan(prof, s.tasks, es);
  const array_layout c = collapsed({ol})[0];
  event e = launch(k1, q, p1.range(), dependencies({&a, &out}), a.buffer(), cl_ulong(l.offset),
                   padded_extents(c), padded_strides(c), cl_ulong(len), cl_ulong(l.strides[axis]),
                   cl_ulong(s.splits), cl_ulong(s.seg), cl_ulong(s.tasks), cl_ulong(p1.chunk), dst,
                   cl_ulong(0));
  if (s.splits == 1) return e;
  kernel k2 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_axis_final", o);
  return scratch->record(
      combine_segments(q, prof, k2, s, m, es, e, scratch->buffer(), out.buffer()));
}

}  // namespace

void require_axis(unsigned axis, const anycl::shape& s, const char* what) {
  const unsigned d = s.dims();
  if (axis >= d)
    throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) +
                                " of an operand of shape " + s.str() + ", which has " +
                                std::to_string(d) + " dimension" + (d == 1 ? "" : "s"));
}

segments split_axis(const device_profile& prof, const command_queue& q, std::size_t m,
                    std::size_t len, std::size_t es) {
  const std::size_t want =
      prof.cpu ? std::size_t{4} * prof.compute_units : plan_launch(q, m * len, es).global;
  std::size_t splits = 1;
  if (m < want) splits = std::min(ceil_div(want, m), std::max<std::size_t>(1, len / 4096));
  const std::size_t seg = ceil_div(len, splits);
  splits = ceil_div(len, seg);
  return {splits, seg, m * splits};
}

launch_plan task_plan(const device_profile& prof, std::size_t count, std::size_t es) {
  if (!prof.cpu) return plan_for(prof, count, es);
  launch_plan p;
  const std::size_t items = std::min(count, std::size_t{4} * prof.compute_units);
  p.chunk = ceil_div(count, items);
  p.global = ceil_div(count, p.chunk);
  p.local = 1;
  return p;
}

event combine_segments(const command_queue& q, const device_profile& prof, const kernel& final_k,
                       const segments& s, std::size_t m, std::size_t es, const event& first,
                       const anycl::buffer& scratch, const anycl::buffer& out) {
  const launch_plan p = task_plan(prof, m, es);
  return launch(final_k, q, p.range(), wait_list{first}, scratch, cl_ulong(s.splits), cl_ulong(m),
                cl_ulong(p.chunk), out, cl_ulong(0));
}

array_core reduce_axis(const array_core& a, unsigned axis, reduce_op op, const char* what) {
  check_axis(a, axis, op, what);
  const array_layout ol = output_layout(a.layout(), axis);
  array_core out(a.queue(), acc_type(a.type(), op), ol.extents);
  if (ol.extents.size() == 0) return out;
  if (a.layout().extents[axis] == 0) {
    if (op != reduce_op::sum)
      throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) +
                                  " has extent 0 (a minimum or maximum of no elements)");
    const std::uint64_t zero = 0;
    out.fill(&zero);
    return out;
  }
  if (collapsed({ol})[0].extents.dims() > kernel_dims) {
    // The other axes of a view beyond 4 dimensions: from a dense copy, where they collapse to 2.
    const array_core dense = a.copy();
    const event e = run_axis(dense, axis, op, output_layout(dense.layout(), axis), out);
    dense.record(e);
    out.record(e);
    return out;
  }
  const event e = run_axis(a, axis, op, ol, out);
  a.record(e);
  out.record(e);
  return out;
}

}  // namespace anycl::detail
