// SPDX-License-Identifier: Apache-2.0
// Reductions along one axis (sum, min, max): one task per output element or per segment of it,
// then a combination of the segments.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/reduce_internal.hpp"

namespace anycl::detail {

array_core reduce_axis(const array_core& a, unsigned axis, reduce_op op, const char* what) {
  require_array(a, what);
  const array_layout& l = a.layout();
  const unsigned d = l.extents.dims();
  if (axis >= d)
    throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) +
                                " of an array with " + std::to_string(d) + " dimension" +
                                (d == 1 ? "" : "s"));
  if (op != reduce_op::sum && op != reduce_op::min && op != reduce_op::max)
    throw std::invalid_argument(std::string(what) + ": only sum, min and max reduce along an axis");
  const scalar_type t = a.type();
  const scalar_type acc = acc_type(t, op);
  const command_queue& q = a.queue();

  // The output: the input's extents without `axis`, placed by the input's strides of those axes.
  std::vector<std::size_t> ext;
  array_layout ol;  // where output element o starts in the input
  for (unsigned i = 0, k = 0; i < d; ++i) {
    if (i == axis) continue;
    ext.push_back(l.extents[i]);
    ol.strides[k++] = l.strides[i];
  }
  if (ext.empty()) ext.push_back(1);
  ol.extents = anycl::shape(ext);
  ol.offset = l.offset;
  array_core out(q, acc, ol.extents);
  const std::size_t m = ol.extents.size(), len = l.extents[axis];
  if (m == 0) return out;
  if (len == 0) {
    if (op != reduce_op::sum)
      throw std::invalid_argument(std::string(what) + ": axis " + std::to_string(axis) +
                                  " has extent 0 (a minimum or maximum of no elements)");
    const std::uint64_t zero = 0;
    out.fill(&zero);
    return out;
  }

  // Split each output's axis so that there are at least as many tasks as work-items.
  const device_profile prof = profile(q);
  const std::size_t es = size_of(t);
  const std::size_t want =
      prof.cpu ? std::size_t{4} * prof.compute_units : plan_launch(q, m * len, es).global;
  std::size_t splits = 1;
  if (m < want) splits = std::min(ceil_div(want, m), std::max<std::size_t>(1, len / 4096));
  const std::size_t seg = ceil_div(len, splits);
  splits = ceil_div(len, seg);
  const std::size_t tasks = m * splits;
  auto shape_for = [&](std::size_t count) {
    launch_plan p;
    if (prof.cpu) {
      const std::size_t items = std::min(count, std::size_t{4} * prof.compute_units);
      p.chunk = ceil_div(count, items);
      p.global = ceil_div(count, p.chunk);
      p.local = 1;
    } else {
      p = plan_for(prof, count, es);
    }
    return p;
  };

  const build_options o = builtin_options(q, t, false, false);
  kernel k1 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_axis", o);
  anycl::buffer scratch;
  if (splits > 1) scratch = anycl::buffer(q.context(), tasks * device_acc_size(t, op));
  const anycl::buffer& dst = splits > 1 ? scratch : out.buffer();
  const launch_plan p1 = shape_for(tasks);
  const std::vector<event> deps = dependencies({&a, &out});
  event e = launch(k1, q, p1.range(), deps, a.buffer(), cl_ulong(l.offset), padded_extents(ol),
                   padded_strides(ol), cl_ulong(len), cl_ulong(l.strides[axis]), cl_ulong(splits),
                   cl_ulong(seg), cl_ulong(tasks), cl_ulong(p1.chunk), dst, cl_ulong(0));
  if (splits > 1) {
    kernel k2 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_axis_final", o);
    const launch_plan p2 = shape_for(m);
    e = launch(k2, q, p2.range(), wait_list{e}, scratch, cl_ulong(splits), cl_ulong(m),
               cl_ulong(p2.chunk), out.buffer(), cl_ulong(0));
  }
  a.record(e);
  out.record(e);
  return out;
}

}  // namespace anycl::detail
