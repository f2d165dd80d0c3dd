// SPDX-License-Identifier: Apache-2.0
// Reductions: the two-kernel engine, the built-in reductions of arrays and reduction_kernel.
#include "anycl/reduce.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace anycl {
namespace detail {

namespace {

// --- helpers ---

void require_array(const array_core& a, const char* what) {
  if (!a.valid())
    throw std::invalid_argument(std::string(what) + ": the array is empty (default-constructed)");
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// The accumulator of `op` over elements of `t`. Integer sums accumulate in 64 bits; signed ones
// are i64 on the host and ulong on the device (the same bits, wrapping without undefined
// overflow).
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
  }
  return t;
}

// Float and double sums (and dots) are compensated on the device: (sum, error) pairs.
bool compensated(scalar_type t, reduce_op op) { return op == reduce_op::sum && is_floating(t); }

std::size_t device_acc_size(scalar_type t, reduce_op op) {
  return compensated(t, op) ? 2 * size_of(t) : size_of(acc_type(t, op));
}

// The result from the device's accumulator at `acc`: sum + error for a compensated pair.
void finish(scalar_type t, reduce_op op, const unsigned char* acc, void* result) {
  if (!compensated(t, op)) {
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

const char* device_acc_name(scalar_type acc) {
  return acc == scalar_type::i64 ? "ulong" : cl_type_name(acc);
}

// The kernels of reduce.cl for `op` are anycl_<name>_partial, _final, _axis, _axis_final.
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
  }
  return "anycl_sum";
}

// OpenCL C's <limits.h> names of the extremes of an integer type.
void define_limits(build_options& o, scalar_type t) {
  const char* lo = "0";
  const char* hi = "0";
  switch (t) {
    case scalar_type::i8:
      lo = "CHAR_MIN", hi = "CHAR_MAX";
      break;
    case scalar_type::i16:
      lo = "SHRT_MIN", hi = "SHRT_MAX";
      break;
    case scalar_type::i32:
      lo = "INT_MIN", hi = "INT_MAX";
      break;
    case scalar_type::i64:
      lo = "LONG_MIN", hi = "LONG_MAX";
      break;
    case scalar_type::u8:
      hi = "UCHAR_MAX";
      break;
    case scalar_type::u16:
      hi = "USHRT_MAX";
      break;
    case scalar_type::u32:
      hi = "UINT_MAX";
      break;
    case scalar_type::u64:
      hi = "ULONG_MAX";
      break;
    case scalar_type::f32:
    case scalar_type::f64:
    case scalar_type::c64:  // never reduced (the templates take real types only)
    case scalar_type::c128:
      return;  // fmin/fmax with NaN as the neutral element
  }
  o.define("ANYCL_LOWEST", lo);
  o.define("ANYCL_HIGHEST", hi);
}

// Options for reduce.cl: element type, sum accumulator, limits, addressing and launch shape.
build_options builtin_options(const command_queue& q, scalar_type t, bool strided, bool grouped) {
  build_options o = library_options(q);
  o.define("T", cl_type_name(t));
  o.define("ACC", device_acc_name(acc_type(t, reduce_op::sum)));
  define_limits(o, t);
  if (is_floating(t)) o.define("ACC2", t == scalar_type::f32 ? "float2" : "double2");
  if (strided) o.define("ANYCL_STRIDED");
  if (grouped) o.define("ANYCL_REDUCE_GROUPED");
  return o;
}

launch_plan choose_plan(const command_queue& q, std::size_t n, std::size_t elem_bytes,
                        const launch_plan* given) {
  return given ? *given : plan_launch(q, n, elem_bytes);
}

// The two stages: partials of `partial` (one per work-item on the CPU shape, per work-group on
// the GPU shape), combined by `final_k` into out[out_index]; one partial goes straight there.
event enqueue_stages(const command_queue& q, const kernel& partial, const kernel& final_k,
                     std::size_t acc_size, std::size_t n, const launch_plan& plan,
                     const kernel_arg* user, std::size_t count, const wait_list& deps,
                     const anycl::buffer& out, std::size_t out_index) {
  const std::size_t local = std::max<std::size_t>(1, plan.local);
  const std::size_t global = std::max<std::size_t>(local, plan.global);
  const std::size_t parts = plan.cpu ? global : global / local;
  anycl::buffer scratch;
  if (parts > 1) scratch = anycl::buffer(q.context(), parts * acc_size);
  const anycl::buffer& part = parts > 1 ? scratch : out;
  const cl_ulong nn = n, chunk = plan.chunk, part_off = parts > 1 ? 0 : out_index;
  std::vector<kernel_arg> args;
  args.reserve(5 + count);
  args.push_back(arg_traits<cl_ulong>::make(nn));
  args.push_back(arg_traits<cl_ulong>::make(chunk));
  args.push_back(arg_traits<anycl::buffer>::make(part));
  args.push_back(arg_traits<cl_ulong>::make(part_off));
  kernel_arg scratch_arg;
  scratch_arg.k = kernel_arg::kind::local;
  scratch_arg.size = (plan.cpu ? 1 : local) * acc_size;
  args.push_back(scratch_arg);
  args.insert(args.end(), user, user + count);
  const nd_range range = plan.cpu ? nd_range(global, 1) : nd_range(global, local);
  event e = enqueue_kernel(partial, q, range, args.data(), args.size(), deps);
  if (parts == 1) return e;
  const std::size_t l2 = plan.cpu ? 1 : std::min(local, parts);
  return launch(final_k, q, nd_range(l2, l2), wait_list{e}, cl_ulong(parts), scratch, out,
                cl_ulong(out_index));
}

// enqueue_stages into a one-element buffer, then a blocking read of it into `result`.
event stages_to_host(const command_queue& q, const kernel& partial, const kernel& final_k,
                     std::size_t acc_size, std::size_t n, const launch_plan& plan,
                     const kernel_arg* user, std::size_t count, const wait_list& deps,
                     void* result) {
  anycl::buffer out(q.context(), acc_size);
  event e = enqueue_stages(q, partial, final_k, acc_size, n, plan, user, count, deps, out, 0);
  q.read_bytes(out, 0, acc_size, result, wait_list{e});
  return e;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return s;
}

void require_text(const std::string& s, const char* what, const char* field) {
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    throw std::invalid_argument(std::string(what) + ": the " + field + " is empty");
}

}  // namespace

// --- the engine ---

std::string reduction_source(const reduction_spec& s) {
  const char* what = "anycl::detail::reduction_spec";
  require_text(s.acc_type, what, "accumulator type");
  require_text(s.neutral, what, "neutral element");
  require_text(s.reduce, what, "reduce expression");
  require_text(s.map, what, "map expression");
  require_text(s.params, what, "parameter list");
  if (s.acc_size == 0) throw std::invalid_argument(std::string(what) + ": acc_size is 0");
  std::string src;
  src += "// Generated by anycl::detail::reduction_source.\n";
  src += "#include \"anycl/loop.h\"\n";
  src += s.preamble;
  src += "\n#define ANYCL_R_ACC " + one_line(s.acc_type) + "\n";
  src += "inline ANYCL_R_ACC anycl_reduce_neutral(void) {\n  return (ANYCL_R_ACC)(\n";
  src += s.neutral;
  src += "\n  );\n}\n";
  src += "inline ANYCL_R_ACC anycl_reduce_op(ANYCL_R_ACC a, ANYCL_R_ACC b) {\n  return (\n";
  src += s.reduce;
  src += "\n  );\n}\n";
  src += "#define ANYCL_R_KERNEL(s) anycl_reduce_##s\n";
  src += "#define ANYCL_R_OP(a, b) anycl_reduce_op(a, b)\n";
  src += "#define ANYCL_R_NEUTRAL anycl_reduce_neutral()\n";
  src += "#define ANYCL_R_MAP(i) (" + one_line(s.map) + ")\n";
  src += "#define ANYCL_R_PARAMS " + one_line(s.params) + "\n";
  src += "#define ANYCL_R_PROLOGUE " + one_line(s.prologue) + "\n";
  src += "#include \"anycl/reduce_engine.h\"\n";
  return src;
}

event enqueue_reduction(const command_queue& queue, const reduction_spec& spec, std::size_t n,
                        kernel_arg* args, std::size_t count, const wait_list& deps,
                        const anycl::buffer& out, std::size_t out_index, const launch_plan* plan) {
  if (!queue) throw std::invalid_argument("anycl::detail::enqueue_reduction: the queue is empty");
  if (out.get() == nullptr || (out_index + 1) * spec.acc_size > out.size())
    throw std::invalid_argument("anycl::detail::enqueue_reduction: element " +
                                std::to_string(out_index) + " of " + std::to_string(spec.acc_size) +
                                " bytes is outside the output buffer");
  const std::string src = reduction_source(spec);
  const launch_plan p = choose_plan(queue, n, spec.acc_size, plan);
  build_options o = library_options(queue);
  if (!p.cpu) o.define("ANYCL_REDUCE_GROUPED");
  kernel k1 = generated_kernel(queue, src, spec.name, "anycl_reduce_partial", o);
  kernel k2 = generated_kernel(queue, src, spec.name, "anycl_reduce_final", o);
  return enqueue_stages(queue, k1, k2, spec.acc_size, n, p, args, count, deps, out, out_index);
}

event run_reduction(const command_queue& queue, const reduction_spec& spec, std::size_t n,
                    kernel_arg* args, std::size_t count, const wait_list& deps, void* result,
                    const launch_plan* plan) {
  if (!queue) throw std::invalid_argument("anycl::detail::run_reduction: the queue is empty");
  reduction_source(spec);  // checks the spec before any allocation
  anycl::buffer out(queue.context(), spec.acc_size);
  event e = enqueue_reduction(queue, spec, n, args, count, deps, out, 0, plan);
  queue.read_bytes(out, 0, spec.acc_size, result, wait_list{e});
  return e;
}

// --- built-in reductions ---

void reduce_all(const array_core& a, reduce_op op, void* result, const char* what,
                const launch_plan* plan) {
  require_array(a, what);
  const scalar_type t = a.type();
  const scalar_type acc = acc_type(t, op);
  const std::size_t n = a.layout().extents.size();
  const std::size_t acc_size = size_of(acc);
  if (n == 0) {
    switch (op) {
      case reduce_op::sum:
      case reduce_op::any:
        std::memset(result, 0, acc_size);
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
    }
  }
  const command_queue& q = a.queue();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous();
  const build_options o = builtin_options(q, t, strided, !p.cpu);
  kernel k1 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_partial", o);
  kernel k2 = library_kernel(q, "anycl/reduce.cl", op_name(op) + "_final", o);
  const cl_ulong off = a.layout().offset;
  const cl_ulong4 ext = padded_extents(a.layout()), st = padded_strides(a.layout());
  std::vector<kernel_arg> args;
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(ext));
  args.push_back(arg_traits<anycl::buffer>::make(a.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(off));
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(st));
  const std::vector<event> deps = dependencies({&a});
  unsigned char dev_acc[16] = {};
  event e = stages_to_host(q, k1, k2, device_acc_size(t, op), n, p, args.data(), args.size(), deps,
                           dev_acc);
  a.record(e);
  finish(t, op, dev_acc, result);
}

void reduce_dot(const array_core& a, const array_core& b, void* result, const launch_plan* plan) {
  const char* what = "anycl::dot";
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
  const scalar_type acc = acc_type(t, reduce_op::sum);
  const std::size_t acc_size = size_of(acc);
  const std::size_t n = a.layout().extents.size();
  if (n == 0) {
    std::memset(result, 0, acc_size);
    return;
  }
  const command_queue& q = a.queue();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous() || !b.layout().contiguous();
  const build_options o = builtin_options(q, t, strided, !p.cpu);
  kernel k1 = library_kernel(q, "anycl/reduce.cl", "anycl_dot_partial", o);
  kernel k2 = library_kernel(q, "anycl/reduce.cl", "anycl_dot_final", o);
  const cl_ulong aoff = a.layout().offset, boff = b.layout().offset;
  const cl_ulong4 ext = padded_extents(a.layout());
  const cl_ulong4 ast = padded_strides(a.layout()), bst = padded_strides(b.layout());
  std::vector<kernel_arg> args;
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(ext));
  args.push_back(arg_traits<anycl::buffer>::make(a.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(aoff));
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(ast));
  args.push_back(arg_traits<anycl::buffer>::make(b.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(boff));
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(bst));
  const std::vector<event> deps = dependencies({&a, &b});
  unsigned char dev_acc[16] = {};
  event e = stages_to_host(q, k1, k2, device_acc_size(t, reduce_op::sum), n, p, args.data(),
                           args.size(), deps, dev_acc);
  a.record(e);
  b.record(e);
  finish(t, reduce_op::sum, dev_acc, result);
}

std::uint64_t reduce_count(const array_core& a, const std::string& predicate,
                           const launch_plan* plan) {
  const char* what = "anycl::count_if";
  require_array(a, what);
  require_text(predicate, what, "predicate");
  const std::size_t n = a.layout().extents.size();
  if (n == 0) return 0;
  const command_queue& q = a.queue();
  const scalar_type t = a.type();
  const launch_plan p = choose_plan(q, n, size_of(t), plan);
  const bool strided = !a.layout().contiguous();
  build_options o = builtin_options(q, t, strided, !p.cpu);
  o.define("ANYCL_ONLY_COUNT");
  std::string src =
      "// Generated by anycl::count_if.\n#include \"anycl/loop.h\"\n"
      "#define ANYCL_HAVE_PREDICATE\ninline int anycl_predicate(T x) {\n  return (\n";
  src += predicate;
  src += "\n  ) ? 1 : 0;\n}\n#include \"anycl/reduce.cl\"\n";
  kernel k1 = generated_kernel(q, src, "anycl::count_if", "anycl_count_partial", o);
  kernel k2 = generated_kernel(q, src, "anycl::count_if", "anycl_count_final", o);
  const cl_ulong off = a.layout().offset;
  const cl_ulong4 ext = padded_extents(a.layout()), st = padded_strides(a.layout());
  std::vector<kernel_arg> args;
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(ext));
  args.push_back(arg_traits<anycl::buffer>::make(a.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(off));
  if (strided) args.push_back(arg_traits<cl_ulong4>::make(st));
  const std::vector<event> deps = dependencies({&a});
  std::uint64_t r = 0;
  event e = stages_to_host(q, k1, k2, sizeof r, n, p, args.data(), args.size(), deps, &r);
  a.record(e);
  return r;
}

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

// --- reduction_kernel ---

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

bool scalar_from_name(const std::string& s, scalar_type& out) {
  static const std::pair<const char*, scalar_type> names[] = {
      {"char", scalar_type::i8},   {"short", scalar_type::i16}, {"int", scalar_type::i32},
      {"long", scalar_type::i64},  {"uchar", scalar_type::u8},  {"ushort", scalar_type::u16},
      {"uint", scalar_type::u32},  {"ulong", scalar_type::u64}, {"float", scalar_type::f32},
      {"double", scalar_type::f64}};
  for (const auto& n : names) {
    if (s == n.first) {
      out = n.second;
      return true;
    }
  }
  return false;
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  const std::size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

[[noreturn]] void bad_param(std::size_t index, const std::string& decl, const std::string& why) {
  throw std::invalid_argument("anycl::reduction_kernel: parameter " + std::to_string(index + 1) +
                              " '" + decl + "': " + why);
}

reduction_program::param parse_param(std::size_t index, const std::string& decl) {
  reduction_program::param p;
  p.decl = decl;
  std::vector<std::string> words;
  std::string cur;
  int stars = 0;
  for (char c : decl) {
    if (c == '*' || std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) words.push_back(cur), cur.clear();
      if (c == '*') {
        ++stars;
        words.push_back("*");
      }
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  if (stars > 1) bad_param(index, decl, "pointers to pointers are not supported");
  p.pointer = stars == 1;
  if (words.empty() || words.back() == "*") bad_param(index, decl, "no parameter name");
  p.name = words.back();
  words.pop_back();
  if (!is_identifier(p.name)) bad_param(index, decl, "'" + p.name + "' is not a name");
  scalar_type ignored;
  if (scalar_from_name(p.name, ignored)) bad_param(index, decl, "no parameter name");
  if (p.name == "i" || p.name == "a" || p.name == "b")
    bad_param(index, decl, "'" + p.name + "' is reserved (the index and the reduce operands)");
  const bool off_suffix = p.name.size() > 5 && p.name.compare(p.name.size() - 5, 5, "__off") == 0;
  if (p.name.compare(0, 6, "anycl_") == 0 || off_suffix)
    bad_param(index, decl, "names starting with 'anycl_' or ending in '__off' are reserved");
  bool global = false, have_type = false, seen_star = false;
  for (const std::string& w : words) {
    if (w == "*") {
      seen_star = true;
    } else if (w == "global" || w == "__global") {
      global = true;
    } else if (w == "const" || w == "__const") {
      if (!seen_star) p.is_const = true;
    } else if (w == "restrict" || w == "__restrict" || w == "volatile") {
    } else if (w == "local" || w == "__local" || w == "constant" || w == "__constant" ||
               w == "private" || w == "__private") {
      bad_param(index, decl, "only global pointers and scalars are supported");
    } else if (scalar_type t; scalar_from_name(w, t)) {
      if (have_type || seen_star) bad_param(index, decl, "more than one type");
      have_type = true;
      p.type = t;
    } else {
      bad_param(index, decl,
                "unknown type or qualifier '" + w +
                    "' (types: char, uchar, short, ushort, int, uint, long, ulong, float, double)");
    }
  }
  if (!have_type) bad_param(index, decl, "no type");
  if (p.pointer && !global) bad_param(index, decl, "a pointer parameter needs 'global'");
  if (!p.pointer && global) bad_param(index, decl, "'global' applies to pointers only");
  return p;
}

// Converts a scalar of type `from` at `src` to type `to` at `dst`. A floating value that does not
// fit an integer type throws (the conversion would be undefined).
void convert_scalar(scalar_type from, const unsigned char* src, scalar_type to, unsigned char* dst,
                    const std::string& where) {
  long double v = 0;
  std::int64_t iv = 0;
  std::uint64_t uv = 0;
  const bool fl = is_floating(from), sg = is_signed(from);
  switch (from) {
    case scalar_type::i8: {
      std::int8_t x;
      std::memcpy(&x, src, 1);
      iv = x;
      break;
    }
    case scalar_type::i16: {
      std::int16_t x;
      std::memcpy(&x, src, 2);
      iv = x;
      break;
    }
    case scalar_type::i32: {
      std::int32_t x;
      std::memcpy(&x, src, 4);
      iv = x;
      break;
    }
    case scalar_type::i64:
      std::memcpy(&iv, src, 8);
      break;
    case scalar_type::u8: {
      std::uint8_t x;
      std::memcpy(&x, src, 1);
      uv = x;
      break;
    }
    case scalar_type::u16: {
      std::uint16_t x;
      std::memcpy(&x, src, 2);
      uv = x;
      break;
    }
    case scalar_type::u32: {
      std::uint32_t x;
      std::memcpy(&x, src, 4);
      uv = x;
      break;
    }
    case scalar_type::u64:
      std::memcpy(&uv, src, 8);
      break;
    case scalar_type::f32: {
      float x;
      std::memcpy(&x, src, 4);
      v = x;
      break;
    }
    case scalar_type::f64: {
      double x;
      std::memcpy(&x, src, 8);
      v = x;
      break;
    }
    case scalar_type::c64:  // parameter lists name real types only
    case scalar_type::c128:
      break;
  }
  auto put = [&](auto tag) {
    using D = decltype(tag);
    D out;
    if (fl) {
      if constexpr (std::is_integral_v<D>) {
        if (!std::isfinite(v) || v < static_cast<long double>(std::numeric_limits<D>::min()) ||
            v > static_cast<long double>(std::numeric_limits<D>::max()))
          throw std::invalid_argument("anycl::reduction_kernel: " + where + ": " +
                                      std::to_string(static_cast<double>(v)) + " does not fit " +
                                      cl_type_name(to));
      }
      if constexpr (std::is_same_v<D, float>) {
        if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max())
          throw std::invalid_argument("anycl::reduction_kernel: " + where + ": " +
                                      std::to_string(static_cast<double>(v)) +
                                      " does not fit float");
      }
      out = static_cast<D>(v);
    } else {
      out = sg ? static_cast<D>(iv) : static_cast<D>(uv);
    }
    std::memcpy(dst, &out, sizeof out);
  };
  switch (to) {
    case scalar_type::i8:
      return put(std::int8_t{});
    case scalar_type::i16:
      return put(std::int16_t{});
    case scalar_type::i32:
      return put(std::int32_t{});
    case scalar_type::i64:
      return put(std::int64_t{});
    case scalar_type::u8:
      return put(std::uint8_t{});
    case scalar_type::u16:
      return put(std::uint16_t{});
    case scalar_type::u32:
      return put(std::uint32_t{});
    case scalar_type::u64:
      return put(std::uint64_t{});
    case scalar_type::f32:
      return put(float{});
    case scalar_type::f64:
      return put(double{});
    case scalar_type::c64:  // parameter lists name real types only
    case scalar_type::c128:
      return;
  }
}

}  // namespace

reduction_program::reduction_program(anycl::context ctx, scalar_type acc, std::string neutral,
                                     std::string reduce, std::string map,
                                     const std::string& arguments, std::string preamble)
    : ctx_(std::move(ctx)) {
  const char* what = "anycl::reduction_kernel";
  if (!ctx_) throw std::invalid_argument(std::string(what) + ": the context is empty");
  require_text(neutral, what, "neutral element");
  require_text(reduce, what, "reduce expression");
  require_text(map, what, "map expression");
  require_text(arguments, what, "parameter list");
  std::size_t start = 0;
  std::set<std::string> names;
  while (start <= arguments.size()) {
    std::size_t comma = arguments.find(',', start);
    if (comma == std::string::npos) comma = arguments.size();
    const std::string decl = trim(arguments.substr(start, comma - start));
    if (decl.empty()) bad_param(params_.size(), decl, "empty (a stray comma?)");
    param p = parse_param(params_.size(), decl);
    if (!names.insert(p.name).second)
      bad_param(params_.size(), decl, "'" + p.name + "' is declared twice");
    params_.push_back(std::move(p));
    start = comma + 1;
  }
  bool any_pointer = false;
  for (const param& p : params_) any_pointer = any_pointer || p.pointer;
  if (!any_pointer)
    throw std::invalid_argument(std::string(what) + ": '" + arguments +
                                "' has no 'global T*' parameter (the first array gives n)");

  spec_.acc_type = cl_type_name(acc);
  spec_.acc_size = size_of(acc);
  spec_.neutral = std::move(neutral);
  spec_.reduce = std::move(reduce);
  spec_.map = std::move(map);
  spec_.preamble = std::move(preamble);
  spec_.name = "anycl::reduction_kernel";
  for (const param& p : params_) {
    if (!spec_.params.empty()) spec_.params += ", ";
    spec_.params += p.decl;
    if (p.pointer) {
      spec_.params += ", ulong " + p.name + "__off";
      spec_.prologue += p.name + " += " + p.name + "__off; ";
    }
  }
}

void reduction_program::run(const command_queue& queue, const reduction_arg* args,
                            std::size_t count, void* result, const launch_plan* plan) const {
  const char* what = "anycl::reduction_kernel";
  if (!queue) throw std::invalid_argument(std::string(what) + ": the queue is empty");
  if (queue.context().get() != ctx_.get())
    throw std::invalid_argument(std::string(what) +
                                ": the queue belongs to another context than the kernel's");
  if (count != params_.size()) {
    std::string list;
    for (const param& p : params_) list += (list.empty() ? "" : ", ") + p.decl;
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(count) + " argument" +
                                (count == 1 ? "" : "s") + " for " + std::to_string(params_.size()) +
                                " parameters (" + list + ")");
  }
  std::vector<array_core> copies;  // dense copies of strided views
  copies.reserve(count);
  std::vector<const array_core*> arrays;
  std::vector<cl_ulong> offsets(count, 0);
  std::vector<std::array<unsigned char, 8>> values(count);
  std::vector<kernel_arg> kargs;
  std::size_t n = 0;
  bool have_n = false;
  for (std::size_t i = 0; i < count; ++i) {
    const param& p = params_[i];
    const reduction_arg& a = args[i];
    const std::string where = "argument " + std::to_string(i + 1) + " ('" + p.decl + "')";
    if (p.pointer) {
      if (!a.array)
        throw std::invalid_argument(std::string(what) + ": " + where + " needs an array, got a " +
                                    cl_type_name(a.type) + " scalar");
      if (!a.array->valid())
        throw std::invalid_argument(std::string(what) + ": " + where +
                                    " is an empty array (default-constructed)");
      if (a.array->type() != p.type)
        throw std::invalid_argument(std::string(what) + ": " + where + " needs an array of " +
                                    cl_type_name(p.type) + ", got an array of " +
                                    cl_type_name(a.array->type()));
      if (a.array->queue().context().get() != ctx_.get())
        throw std::invalid_argument(std::string(what) + ": " + where +
                                    " belongs to another context");
      const array_core* arr = a.array;
      if (!arr->layout().contiguous()) {
        if (!p.is_const)
          throw std::invalid_argument(std::string(what) + ": " + where +
                                      " is a strided view; only a 'const' pointer takes one (it "
                                      "is copied first)");
        copies.push_back(arr->copy());
        arr = &copies.back();
      }
      if (!have_n) n = arr->layout().extents.size(), have_n = true;
      arrays.push_back(a.array);
      if (arr != a.array) arrays.push_back(arr);
      offsets[i] = arr->layout().offset;
      kargs.push_back(arg_traits<anycl::buffer>::make(arr->buffer()));
      kargs.push_back(arg_traits<cl_ulong>::make(offsets[i]));
    } else {
      if (a.array)
        throw std::invalid_argument(std::string(what) + ": " + where + " needs a " +
                                    cl_type_name(p.type) + " scalar, got an array of " +
                                    cl_type_name(a.array->type()));
      convert_scalar(a.type, a.value, p.type, values[i].data(), where);
      kargs.push_back(raw_arg(values[i].data(), size_of(p.type)));
    }
  }
  std::vector<event> deps;
  for (const array_core* arr : arrays)
    for (event& e : dependencies({arr})) deps.push_back(std::move(e));
  event e = run_reduction(queue, spec_, n, kargs.data(), kargs.size(), deps, result, plan);
  for (const array_core* arr : arrays) arr->record(e);
}

}  // namespace detail
}  // namespace anycl
