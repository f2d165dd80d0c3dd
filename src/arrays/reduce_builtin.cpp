// SPDX-License-Identifier: Apache-2.0
// The built-in reductions of whole arrays: sum, min, max, any, all, dot and count_if, through the
// kernels of cl_kernels/anycl/reduce.cl.
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/reduce_internal.hpp"

namespace anycl::detail {

namespace {

// Float and double sums (and dots) are compensated on the device: (sum, error) pairs.
bool compensated(scalar_type t, reduce_op op) { return op == reduce_op::sum && is_floating(t); }

const char* device_acc_name(scalar_type acc) {
  return acc == scalar_type::i64 ? "ulong" : cl_type_name(acc);
}

// The kernel arguments of the one or two arrays a reduction reads: the extents (strided kernels
// only), then per array its buffer, offset and (strided) strides, of their layouts collapsed
// (at most 4 axes: see beyond_kernel_dims). Holds what the arguments point to, so it is neither
// copied nor moved.
class reduce_inputs {
 public:
  reduce_inputs(const array_core& a, const array_core* b, bool strided) {
    const std::vector<array_layout> l =
        collapsed(b ? std::vector<array_layout>{a.layout(), b->layout()}
                    : std::vector<array_layout>{a.layout()});
    ext_ = padded_extents(l[0]);
    if (strided) args_.push_back(arg_traits<cl_ulong4>::make(ext_));
    add(0, a, l[0], strided);
    if (b) add(1, *b, l[1], strided);
  }
  reduce_inputs(const reduce_inputs&) = delete;
  reduce_inputs& operator=(const reduce_inputs&) = delete;
  const kernel_arg* data() const noexcept { return args_.data(); }
  std::size_t size() const noexcept { return args_.size(); }

 private:
  void add(std::size_t i, const array_core& a, const array_layout& l, bool strided) {
    off_[i] = l.offset;
    st_[i] = padded_strides(l);
    args_.push_back(arg_traits<anycl::buffer>::make(a.buffer()));
    args_.push_back(arg_traits<cl_ulong>::make(off_[i]));
    if (strided) args_.push_back(arg_traits<cl_ulong4>::make(st_[i]));
  }
  cl_ulong4 ext_;
  std::array<cl_ulong, 2> off_{};
  std::array<cl_ulong4, 2> st_{};
  std::vector<kernel_arg> args_;
};

// True when `a` (with `b`) keeps more axes than reduce.cl's strided kernels address even with its
// axes collapsed: such a rare view is reduced from a dense copy.
bool beyond_kernel_dims(const array_core& a, const array_core* b = nullptr) {
  const std::vector<array_layout> l =
      collapsed(b ? std::vector<array_layout>{a.layout(), b->layout()}
                  : std::vector<array_layout>{a.layout()});
  return l[0].extents.dims() > kernel_dims;
}

}  // namespace

scalar_type acc_type(scalar_type t, reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      if (is_floating(t)) return t;
      return is_signed(t) ? scalar_type::i64 : scalar_type::u64;
    case reduce_op::min:
    case reduce_op::max:
      return t;
    case reduce_op::any:
    case reduce_op::all:
      return scalar_type::u32;
    case reduce_op::argmin:
    case reduce_op::argmax:
      return scalar_type::u64;
  }
  return t;
}

std::size_t device_acc_size(scalar_type t, reduce_op op) {
  if (is_arg(op)) return 16;  // argreduce.cl's {T v; ulong i;}
  return compensated(t, op) ? 2 * size_of(t) : size_of(acc_type(t, op));
}

std::string op_name(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return "anycl_sum";
    case reduce_op::min:
      return "anycl_min";
    case reduce_op::max:
      return "anycl_max";
    case reduce_op::any:
      return "anycl_any";
    case reduce_op::all:
      return "anycl_all";
    case reduce_op::argmin:
      return "anycl_argmin";
    case reduce_op::argmax:
      return "anycl_argmax";
  }
  return "anycl_sum";
}

namespace {

// The options both kinds of reduce.cl program share.
build_options reduce_options(const command_queue& q, scalar_type t, bool strided, bool grouped) {
  build_options o = library_options(q);
  o.define("T", cl_type_name(t));
  o.define("ACC", device_acc_name(acc_type(t, reduce_op::sum)));
  // OpenCL C's names of the extremes of an integer type; floating min/max use fmin/fmax with NaN
  // as the neutral element.
  if (!is_floating(t) && !is_complex(t)) {
    o.define("ANYCL_LOWEST", scalar_info(t).cl_lowest);
    o.define("ANYCL_HIGHEST", scalar_info(t).cl_highest);
  }
  if (is_floating(t)) o.define("ACC2", t == scalar_type::f32 ? "float2" : "double2");
  if (strided) o.define("ANYCL_STRIDED");
  if (grouped) o.define("ANYCL_REDUCE_GROUPED");
  return o;
}

}  // namespace

build_options builtin_options(const command_queue& q, scalar_type t, bool strided, bool grouped) {
  build_options o = reduce_options(q, t, strided, grouped);
  o.define("ANYCL_ONLY_WHOLE");
  // Float sums in double lanes on CPUs with doubles (the CPU shape's whole-array sums only; the
  // axis programs do not read it, so it stays out of their cache key).
  if (t == scalar_type::f32 && !grouped && profile(q).fp64) o.define("ANYCL_WIDE_SUM");
  return o;
}

build_options axis_options(const command_queue& q, scalar_type t) {
  build_options o = reduce_options(q, t, false, false);
  o.define("ANYCL_ONLY_AXIS");
  return o;
}

// --- built-in reductions ---

void finish_reduction(scalar_type t, reduce_op op, const unsigned char* acc, void* result) {
  if (is_arg(op)) {
    std::memcpy(result, acc + 8, sizeof(std::uint64_t));
  } else if (!compensated(t, op)) {
    std::memcpy(result, acc, size_of(acc_type(t, op)));
  } else if (t == scalar_type::f32) {
    float p[2];
    std::memcpy(p, acc, sizeof p);
    const float r = p[0] + p[1];
    std::memcpy(result, &r, sizeof r);
  } else {
    double p[2];
    std::memcpy(p, acc, sizeof p);
    const double r = p[0] + p[1];
    std::memcpy(result, &r, sizeof r);
  }
}

void empty_reduction(reduce_op op, scalar_type t, void* result, const char* what) {
  switch (op) {
    case reduce_op::sum:
    case reduce_op::any:
      std::memset(result, 0, size_of(acc_type(t, op)));
      return;
    case reduce_op::all: {
      const cl_uint one = 1;
      std::memcpy(result, &one, sizeof one);
      return;
    }
    case reduce_op::min:
    case reduce_op::max:
      throw std::invalid_argument(std::string(what) +
                                  ": the array is empty (a minimum or maximum of no elements)");
    case reduce_op::argmin:
    case reduce_op::argmax:
      throw std::invalid_argument(std::string(what) +
                                  ": the array is empty (no element has the first index)");
  }
}

namespace {

void reduce_all(const array_core& a, reduce_op op, void* result, const char* what,
                const launch_plan* plan) {
  require_array(a, what);
  const scalar_type t = a.type();
  const host_combine combine = builtin_combine(t, op, what);
  const std::size_t n = a.layout().extents.size();
  if (n == 0) {
    empty_reduction(op, t, result, what);
    return;
  }
  if (beyond_kernel_dims(a)) {
    reduce_all(a.copy(), op, result, what, plan);
    return;
  }
  const command_queue& q = a.queue();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous();
  const build_options o = builtin_options(q, t, strided, !p.cpu);
  kernel k = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_partial", o);
  const reduce_inputs in(a, nullptr, strided);
  unsigned char dev_acc[16] = {};
  event e = stages_to_host(q, k, combine, device_acc_size(t, op), n, p, in.data(), in.size(),
                           dependencies({&a}), dev_acc);
  a.record(e);
  finish_reduction(t, op, dev_acc, result);
}

void reduce_dot(const array_core& a, const array_core& b, void* result, const char* what,
                const launch_plan* plan) {
  require_array(a, what);
  require_array(b, what);
  if (a.type() != b.type())
    throw std::invalid_argument(std::string(what) + ": " + cl_type_name(a.type()) + " and " +
                                cl_type_name(b.type()) + " elements");
  if (a.layout().extents != b.layout().extents)
    throw std::invalid_argument(std::string(what) + ": shapes " + a.layout().extents.str() +
                                " and " + b.layout().extents.str() + " differ");
  if (a.queue().context().get() != b.queue().context().get())
    throw std::invalid_argument(std::string(what) + ": the arrays belong to different contexts");
  const scalar_type t = a.type();
  const host_combine combine = builtin_combine(t, reduce_op::sum, what);
  const scalar_type acc = acc_type(t, reduce_op::sum);
  const std::size_t acc_size = size_of(acc);
  const std::size_t n = a.layout().extents.size();
  if (n == 0) {
    std::memset(result, 0, acc_size);
    return;
  }
  if (beyond_kernel_dims(a, &b)) {
    reduce_dot(a.copy(), b.copy(), result, what, plan);
    return;
  }
  const command_queue& q = a.queue();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous() || !b.layout().contiguous();
  const build_options o = builtin_options(q, t, strided, !p.cpu);
  kernel k = library_kernel(q, "anycl/reduce.cl", "anycl_dot_partial", o);
  const reduce_inputs in(a, &b, strided);
  unsigned char dev_acc[16] = {};
  event e = stages_to_host(q, k, combine, device_acc_size(t, reduce_op::sum), n, p, in.data(),
                           in.size(), dependencies({&a, &b}), dev_acc);
  a.record(e);
  b.record(e);
  finish_reduction(t, reduce_op::sum, dev_acc, result);
}

std::uint64_t reduce_count(const array_core& a, const std::string& predicate, const char* what,
                           const launch_plan* plan) {
  require_array(a, what);
  require_text(predicate, what, "predicate");
  const std::size_t n = a.layout().extents.size();
  if (n == 0) return 0;
  if (beyond_kernel_dims(a)) return reduce_count(a.copy(), predicate, what, plan);
  const command_queue& q = a.queue();
  const scalar_type t = a.type();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous();
  build_options o = builtin_options(q, t, strided, !p.cpu);
  o.define("ANYCL_ONLY_COUNT");
  const std::string src = "// Generated by anycl::count_if.\n#include \"anycl/loop.h\"\n" +
                          predicate_source(predicate) + "#include \"anycl/reduce.cl\"\n";
  kernel k = generated_kernel(q, src, "anycl::count_if", "anycl_count_partial", o);
  const reduce_inputs in(a, nullptr, strided);
  std::uint64_t r = 0;
  event e = stages_to_host(q, k, count_combine(), sizeof r, n, p, in.data(), in.size(),
                           dependencies({&a}), &r);
  a.record(e);
  return r;
}

}  // namespace

array_core reduce_builtin(const reduce_request& r, void* result) {
  if (r.axis && r.expr) return reduce_expression_axis(*r.expr, *r.axis, r.op, r.predicate, r.what);
  if (r.axis) return reduce_axis(*r.a, *r.axis, r.op, r.what);
  if (r.expr) {
    reduce_expression(*r.expr, r.op, r.predicate, result, r.what, r.plan);
  } else if (r.b) {
    reduce_dot(*r.a, *r.b, result, r.what, r.plan);
  } else if (r.predicate) {
    const std::uint64_t n = reduce_count(*r.a, *r.predicate, r.what, r.plan);
    std::memcpy(result, &n, sizeof n);
  } else {
    reduce_all(*r.a, r.op, result, r.what, r.plan);
  }
  return array_core();
}

}  // namespace anycl::detail
