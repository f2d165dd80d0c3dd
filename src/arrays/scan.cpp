// SPDX-License-Identifier: Apache-2.0
#include "anycl/scan.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/require.hpp"

namespace anycl {

scan_op::scan_op(std::string expression, std::string identity)
    : expression_(std::move(expression)), identity_(std::move(identity)) {
  auto check = [](const std::string& s, const char* what) {
    if (s.find_first_not_of(" \t") == std::string::npos)
      throw std::invalid_argument(std::string("scan_op: the ") + what + " is empty");
    if (s.find_first_of("\n\r\\") != std::string::npos)
      throw std::invalid_argument(std::string("scan_op: the ") + what + " '" + s +
                                  "' holds a line break or a backslash");
  };
  check(expression_, "expression");
  check(identity_, "identity");
}

namespace detail {
namespace {

// Independent operator chains per work-item (ANYCL_SCAN_STREAMS in scan.cl).
constexpr std::size_t streams_per_item = 8;
// At most this many streams per block: each work-item adds up the totals before its own.
constexpr std::size_t max_streams = 512;
// Elements per block, in bytes: a few MiB stay in the last-level cache between the two passes.
constexpr std::size_t block_bytes = std::size_t{4} << 20;

kernel scan_kernel(const command_queue& q, scalar_type t, const scan_op& op,
                   const std::string& name) {
  build_options o = typed_options(q, t);
  if (op.is_builtin()) {
    const int b = static_cast<int>(op.builtin());
    o.define("ANYCL_SCAN_BUILTIN", std::to_string(b));
    if (op.builtin() == scan_operator::min)
      o.define("ANYCL_SCAN_IDENTITY", scalar_info(t).cl_highest);
    if (op.builtin() == scan_operator::max)
      o.define("ANYCL_SCAN_IDENTITY", scalar_info(t).cl_lowest);
    return library_kernel(q, "anycl/scan.cl", name, o);
  }
  const std::string source = "#define ANYCL_SCAN_OP(a, b) (" + op.expression() +
                             ")\n#define ANYCL_SCAN_IDENTITY (" + op.identity() +
                             ")\n#include \"anycl/scan.cl\"\n";
  return generated_kernel(q, source, "scan_op{\"" + op.expression() + "\"}", name, o);
}

// Per block: streams of `sub` elements, streams_per_item of them per work-item. A stream spans
// an odd number of 64-byte lines: streams a power of two apart would map to the same cache sets
// (and input and output to the same 4 KiB offsets), which made a scan of 2^26 floats 5x slower.
struct split {
  std::size_t sub, streams, items;
  bool cpu;
  // One work-item per work-group on a CPU: POCL runs a work-group on one thread.
  nd_range range() const { return cpu ? nd_range(items, 1) : nd_range(items); }
};

split split_for(const command_queue& q, std::size_t len, std::size_t es) {
  const launch_plan plan = plan_launch(q, len, es);
  const std::size_t per_line = std::max<std::size_t>(1, 64 / es);
  const std::size_t parts = std::min<std::size_t>(plan.global * streams_per_item, max_streams);
  const std::size_t lines = (len + parts * per_line - 1) / (parts * per_line);
  split sp{};
  sp.cpu = plan.cpu;
  sp.sub = (lines | 1) * per_line;
  sp.streams = (len + sp.sub - 1) / sp.sub;
  sp.items = (sp.streams + streams_per_item - 1) / streams_per_item;
  return sp;
}

// Both arrays set, of one type and one element count; returns the count.
std::size_t check_operands(const array_core& in, const array_core& out, const char* what) {
  require_array(in, what, "input");
  require_array(out, what, "output");
  if (in.type() != out.type())
    throw std::invalid_argument(std::string(what) + ": input elements are " +
                                cl_type_name(in.type()) + ", output elements " +
                                cl_type_name(out.type()));
  const std::size_t n = in.layout().extents.size();
  if (out.layout().extents.size() != n)
    throw std::invalid_argument(std::string(what) + ": input " + in.layout().extents.str() +
                                " has " + std::to_string(n) + " elements, output " +
                                out.layout().extents.str() + " has " +
                                std::to_string(out.layout().extents.size()) + " elements");
  return n;
}

// The scan of contiguous `in` into contiguous `out` (`in` itself or disjoint from it), block by
// block: a block's totals pass leaves it in the last-level cache for its scan pass, so large
// arrays are read from memory once, not twice.
event scan_blocks(const array_core& in, const array_core& out, const scan_op& op,
                  const void* init) {
  const command_queue& q = out.queue();
  const scalar_type t = in.type();
  const std::size_t es = size_of(t), n = in.layout().extents.size();
  const std::size_t block = std::max<std::size_t>(1, block_bytes / es);
  const std::size_t blocks = (n + block - 1) / block;
  array_core totals(q, t, anycl::shape(split_for(q, std::min(n, block), es).streams));
  array_core carries(q, t, anycl::shape(blocks + 1));
  kernel reduce = scan_kernel(q, t, op, "anycl_scan_reduce");
  kernel apply = scan_kernel(q, t, op, "anycl_scan_apply");
  const std::array<unsigned char, 8> zero{};
  const cl_int exclusive = init != nullptr;
  const void* init_value = init ? init : zero.data();

  event e;
  for (std::size_t b = 0; b < blocks; ++b) {
    const std::size_t begin = b * block, len = std::min(block, n - begin);
    const split sp = split_for(q, len, es);
    const cl_ulong in_off = in.layout().offset + begin, out_off = out.layout().offset + begin,
                   count = len, sub = sp.sub, block_index = b;
    std::vector<event> deps = b ? std::vector<event>{e} : dependencies({&in});
    e = launch(reduce, q, sp.range(), deps, in.buffer(), in_off, count, sub, totals.buffer());
    deps = b ? std::vector<event>{e} : dependencies({&out});
    deps.push_back(e);
    std::array<kernel_arg, 11> args{arg_traits<anycl::buffer>::make(in.buffer()),
                                    arg_traits<cl_ulong>::make(in_off),
                                    arg_traits<anycl::buffer>::make(out.buffer()),
                                    arg_traits<cl_ulong>::make(out_off),
                                    arg_traits<cl_ulong>::make(count),
                                    arg_traits<cl_ulong>::make(sub),
                                    arg_traits<anycl::buffer>::make(totals.buffer()),
                                    arg_traits<anycl::buffer>::make(carries.buffer()),
                                    arg_traits<cl_ulong>::make(block_index),
                                    raw_arg(init_value, es),
                                    arg_traits<cl_int>::make(exclusive)};
    e = enqueue_kernel(apply, q, sp.range(), args.data(), args.size(), deps);
  }
  totals.record(e);  // the last command using them, for the memory pool
  carries.record(e);
  return e;
}

}  // namespace

event scan(const array_core& in, const array_core& out, const scan_op& op, const void* init,
           const char* what) {
  const std::size_t n = check_operands(in, out, what);
  if (n == 0) return {};
  if (!in.layout().contiguous()) return scan(in.copy(), out, op, init, what);
  const bool same = in.buffer().get() == out.buffer().get() &&
                    in.layout().offset == out.layout().offset && out.layout().contiguous();
  if (!out.layout().contiguous() || (!same && out.may_overlap(in))) {
    array_core tmp(out.queue(), out.type(), anycl::shape(n));
    scan(in, tmp, op, init, what);
    out.assign(tmp.reshape(out.layout().extents));
    return out.last_event();
  }
  const event e = scan_blocks(in, out, op, init);
  in.record(e);
  out.record(e);
  return e;
}

}  // namespace detail
}  // namespace anycl
