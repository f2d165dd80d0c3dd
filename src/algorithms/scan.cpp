// SPDX-License-Identifier: Apache-2.0
#include "anycl/scan.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

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

const char* largest(scalar_type t) {
  switch (t) {
    case scalar_type::i8:
      return "CHAR_MAX";
    case scalar_type::i16:
      return "SHRT_MAX";
    case scalar_type::i32:
      return "INT_MAX";
    case scalar_type::i64:
      return "LONG_MAX";
    case scalar_type::u8:
      return "UCHAR_MAX";
    case scalar_type::u16:
      return "USHRT_MAX";
    case scalar_type::u32:
      return "UINT_MAX";
    case scalar_type::u64:
      return "ULONG_MAX";
    default:
      return "INFINITY";
  }
}

const char* lowest(scalar_type t) {
  switch (t) {
    case scalar_type::i8:
      return "CHAR_MIN";
    case scalar_type::i16:
      return "SHRT_MIN";
    case scalar_type::i32:
      return "INT_MIN";
    case scalar_type::i64:
      return "LONG_MIN";
    case scalar_type::f32:
    case scalar_type::f64:
      return "-INFINITY";
    default:
      return "0";
  }
}

kernel scan_kernel(const command_queue& q, scalar_type t, const scan_op& op,
                   const std::string& name) {
  build_options o = typed_options(q, t);
  if (op.is_builtin()) {
    const int b = static_cast<int>(op.builtin());
    o.define("ANYCL_SCAN_BUILTIN", std::to_string(b));
    if (op.builtin() == scan_operator::min) o.define("ANYCL_SCAN_IDENTITY", largest(t));
    if (op.builtin() == scan_operator::max) o.define("ANYCL_SCAN_IDENTITY", lowest(t));
    return library_kernel(q, "anycl/scan.cl", name, o);
  }
  const std::string source = "#define ANYCL_SCAN_OP(a, b) (" + op.expression() +
                             ")\n#define ANYCL_SCAN_IDENTITY (" + op.identity() +
                             ")\n#include \"anycl/scan.cl\"\n";
  return generated_kernel(q, source, "scan_op{\"" + op.expression() + "\"}", name, o);
}

void require(const array_core& a, const char* what, const char* role) {
  if (!a.valid())
    throw std::invalid_argument(std::string(what) + ": the " + role +
                                " array is empty (default-constructed)");
}

}  // namespace

event scan(const array_core& in, const array_core& out, const scan_op& op, const void* init,
           const char* what) {
  require(in, what, "input");
  require(out, what, "output");
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

  const command_queue& q = out.queue();
  const scalar_type t = in.type();
  const std::size_t es = size_of(t);
  const launch_plan plan = plan_launch(q, n, es);
  // Streams of `sub` elements (a multiple of 16), streams_per_item of them per work-item.
  std::size_t sub = (n + plan.global * streams_per_item - 1) / (plan.global * streams_per_item);
  sub = std::max<std::size_t>(16, (sub + 15) / 16 * 16);
  const std::size_t streams = (n + sub - 1) / sub;
  const std::size_t items = (streams + streams_per_item - 1) / streams_per_item;
  const nd_range range(items);

  array_core totals(q, t, anycl::shape(streams));
  const cl_ulong in_off = in.layout().offset, out_off = out.layout().offset, count = n, sub_l = sub,
                 streams_l = streams;

  kernel reduce = scan_kernel(q, t, op, "anycl_scan_reduce");
  event e = launch(reduce, q, range, dependencies({&in}), in.buffer(), in_off, count, sub_l,
                   totals.buffer());

  kernel offsets = scan_kernel(q, t, op, "anycl_scan_offsets");
  const std::array<unsigned char, 8> zero{};
  const cl_int has_init = init != nullptr;
  std::array<kernel_arg, 4> oargs{
      arg_traits<anycl::buffer>::make(totals.buffer()), arg_traits<cl_ulong>::make(streams_l),
      raw_arg(init ? init : zero.data(), es), arg_traits<cl_int>::make(has_init)};
  e = enqueue_kernel(offsets, q, nd_range(1), oargs.data(), oargs.size(), wait_list(e));

  kernel apply = scan_kernel(q, t, op, "anycl_scan_apply");
  std::vector<event> deps = dependencies({&out});
  deps.push_back(e);
  e = launch(apply, q, range, deps, in.buffer(), in_off, out.buffer(), out_off, count, sub_l,
             totals.buffer(), has_init);
  in.record(e);
  out.record(e);
  return e;
}

}  // namespace detail
}  // namespace anycl
