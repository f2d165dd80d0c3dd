// SPDX-License-Identifier: Apache-2.0
// Element-wise expressions: their code, collected while the expression's nodes are visited, and
// its evaluation as one generated kernel per expression shape.
#include "anycl/expression.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>

#include "anycl/error.hpp"
#include "arrays/broadcast.hpp"
#include "arrays/expression_launch.hpp"
#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/require.hpp"

namespace anycl {
namespace detail {

namespace {

std::atomic<std::uint64_t> builds{0};

// Which generated sources have been built for each context's kernel table, to count builds. Keys
// only: the kernels themselves live in the table, which dies with the context's last array.
struct built_sources {
  std::weak_ptr<context_kernels> owner;
  std::unordered_set<std::string> keys;
};
std::mutex built_mutex;
std::map<cl_context, built_sources>& built() {
  static auto* b = new std::map<cl_context, built_sources>();
  return *b;
}

// Counts the build of generated `source` with `options` on `ctx` unless counted before.
void count_build(const anycl::context& ctx, const build_options& options,
                 const std::string& source) {
  std::shared_ptr<context_kernels> owner = kernels_for(ctx);
  std::string key = options.str();
  key += '\0';
  key += source;
  std::lock_guard<std::mutex> lock(built_mutex);
  auto& table = built();
  for (auto i = table.begin(); i != table.end();)
    i = i->second.owner.expired() && i->first != ctx.get() ? table.erase(i) : std::next(i);
  built_sources& b = table[ctx.get()];
  if (b.owner.lock() != owner) {
    b.owner = owner;
    b.keys.clear();
  }
  if (b.keys.insert(std::move(key)).second) ++builds;
}

// generated_kernel() plus the build count.
kernel counted_kernel(const command_queue& q, const std::string& source,
                      const std::string& program_name, const std::string& name,
                      const build_options& options) {
  kernel k = generated_kernel(q, source, program_name, name, options);
  count_build(q.context(), options, source);
  return k;
}

void require_same_context(const anycl::context& a, const anycl::context& b, const char* what) {
  if (a != b)
    throw std::invalid_argument(std::string(what) +
                                ": arrays of different OpenCL contexts in one expression");
}

}  // namespace

std::uint64_t expression_builds() noexcept { return builds.load(); }

void expression_builder::scalar_out_of_range(const std::string& value, scalar_type t) {
  throw std::invalid_argument("anycl expression: the scalar " + value + " does not fit in " +
                              cl_type_name(t) + ", the element type of the expression next to it");
}

// --- expression_builder ---

expression_builder::expression_builder(std::string prefix) : prefix_(std::move(prefix)) {}

std::string expression_builder::add_array(const array_core& a) {
  if (!a.valid())
    throw std::invalid_argument(
        "anycl expression: an operand array is empty (default-constructed)");
  if (!code_.arrays.empty() && a.queue().get() != code_.arrays.front().queue().get())
    require_same_context(code_.arrays.front().queue().context(), a.queue().context(),
                         "anycl expression");
  code_.arrays.push_back(a);
  const std::string name = prefix_ + std::to_string(next_++);
  names_.push_back(name);
  if (!code_.params.empty()) code_.params += ", ";
  code_.params += std::string("global const ") + cl_type_name(a.type()) + "* " + name + ", ulong " +
                  name + "_off";
  expression_arg mem;
  mem.is_buffer = true;
  mem.mem = a.buffer();
  code_.args.push_back(std::move(mem));
  const cl_ulong off = a.layout().offset;
  expression_arg o;
  o.size = sizeof off;
  std::memcpy(o.bytes.data(), &off, sizeof off);
  code_.args.push_back(o);
  return placeholder(code_.arrays.size() - 1);
}

std::string expression_builder::add_scalar(scalar_type t, const void* value) {
  const std::string name = prefix_ + std::to_string(next_++);
  if (!code_.params.empty()) code_.params += ", ";
  code_.params += std::string(cl_type_name(t)) + " " + name;
  expression_arg v;
  v.size = size_of(t);
  std::memcpy(v.bytes.data(), value, v.size);
  code_.args.push_back(v);
  return name;
}

namespace {

expression_arg vector_arg(const index_vector& v) {
  expression_arg a;
  a.size = v.bytes;
  std::memcpy(a.bytes.data(), v.lanes.s, v.bytes);
  return a;
}

// The shape the operands broadcast to, or `target`, to which it must broadcast.
anycl::shape result_shape(const std::vector<array_core>& arrays, const anycl::shape* target) {
  anycl::shape s = arrays.front().layout().extents;
  for (std::size_t i = 1; i < arrays.size(); ++i)
    s = broadcast_shapes(s, arrays[i].layout().extents, "anycl expression");
  if (target && !broadcasts_to(s, *target))
    throw std::invalid_argument("anycl expression: assigning an expression of shape " + s.str() +
                                " to an array of shape " + target->str() +
                                " (the value broadcasts to the destination, never the "
                                "destination to the value)");
  return target ? *target : s;
}

}  // namespace

namespace {

void replace_all(std::string& s, const std::string& mark, const std::string& text) {
  for (std::size_t at = s.find(mark); at != std::string::npos; at = s.find(mark, at + text.size()))
    s.replace(at, mark.size(), text);
}

// The text of element `index` of array `name` of elements `t`: half ones through vload_half.
std::string load(scalar_type t, const std::string& name, const std::string& index) {
  return is_half(t) ? "vload_half(" + index + ", " + name + ")" : name + "[" + index + "]";
}

// The statement storing `value` as element `index` of `name`: half rounded to nearest even.
std::string store(scalar_type t, const std::string& name, const std::string& index,
                  const std::string& value) {
  return is_half(t) ? "vstore_half_rte(" + value + ", " + index + ", " + name + ")"
                    : name + "[" + index + "] = " + value;
}

}  // namespace

std::string expression_builder::placeholder(std::size_t i) {
  return "\x01" + std::to_string(i) + "\x02";
}

expression_code expression_builder::finish(std::string value, scalar_type t,
                                           const anycl::shape* target) {
  if (code_.arrays.empty()) throw std::invalid_argument("anycl expression: no array operand");
  code_.extents = result_shape(code_.arrays, target);
  const unsigned d = code_.extents.dims();
  std::string row = value;
  for (std::size_t i = 0; i < code_.arrays.size(); ++i) {
    const array_layout l =
        broadcast_layout(code_.arrays[i].layout(), code_.extents, "anycl expression");
    const std::string& name = names_[i];
    const scalar_type et = code_.arrays[i].type();
    std::string text = load(et, name, name + "_off + k");
    std::string run = load(et, name, name + "_off + k + j");
    if (!l.contiguous()) {
      code_.params += std::string(", ") + index_type(d) + " " + name + "_st";
      code_.args.push_back(vector_arg(index_of(l, d, true)));
      code_.uses_extents = true;
      const std::string at = std::string(index_function(d)) + "(k, " + prefix_ + "_ext, " + name +
                             "_st, " + name + "_off)";
      text = load(et, name, at);
      code_.row_setup += "const ulong " + name + "_p = " + at + "; ";
      run = load(et, name, run_index(name + "_p", l, name + "_st"));
    }
    replace_all(value, placeholder(i), text);
    replace_all(row, placeholder(i), run);
  }
  code_.row_value = std::move(row);
  if (code_.uses_extents) {
    code_.params += std::string(", ") + index_type(d) + " " + prefix_ + "_ext";
    code_.args.push_back(vector_arg(index_of(dense_layout(code_.extents), d, false)));
  }
  code_.value = std::move(value);
  code_.element = t;
  code_.type = cl_value_name(t);
  return std::move(code_);
}

// --- evaluation ---

namespace {

void check_destination(const array_core& dst, const expression_code& code) {
  if (!dst.valid()) throw std::invalid_argument("anycl expression: the destination array is empty");
  require_writable(dst, "anycl expression");
  if (dst.type() != code.element)
    throw std::invalid_argument(std::string("anycl expression: a ") + cl_type_name(code.element) +
                                " expression into an array of " + cl_type_name(dst.type()));
  if (dst.layout().extents != code.extents)
    throw std::invalid_argument("anycl expression: assigning an expression of shape " +
                                code.extents.str() + " to an array of shape " +
                                dst.layout().extents.str());
  if (dst.queue().get() != code.queue().get())
    require_same_context(dst.queue().context(), code.queue().context(), "anycl expression");
}

// The name of the kernel expression_source() writes (prepare renames it in the joint program).
constexpr const char* expr_kernel = "anycl_expr";

// How the destination relates to the operands' buffers.
enum class aliasing { none, same_layout, other_layout };

aliasing aliasing_of(const array_core& dst, const expression_code& code) {
  aliasing found = aliasing::none;
  for (const array_core& a : code.arrays) {
    if (a.buffer().get() != dst.buffer().get()) continue;
    found = aliasing::same_layout;
    // A broadcast operand (other extents) reads elements that other work-items write.
    const bool same_layout = a.layout().extents == dst.layout().extents &&
                             a.layout().offset == dst.layout().offset &&
                             a.layout().strides == dst.layout().strides;
    if (!same_layout && dst.may_overlap(a)) return aliasing::other_layout;
  }
  return found;
}

// The kernel writing `code`'s value to a destination laid out as `dst` (contiguous when null).
// With a strided or broadcast operand or destination, a CPU work-item walks its chunk a run of the
// last axis at a time: each operand's position is computed once a run instead of once an element
// (divisions), and runs whose stride is 0 or 1 are written as such, so they vectorise.
std::string expression_source(const expression_code& code, const array_layout* dst,
                              bool shares_buffer) {
  const bool dst_contiguous = dst == nullptr || dst->contiguous();
  const bool needs_extents = !dst_contiguous && !code.uses_extents;
  const unsigned d = code.extents.dims();
  const std::string vec = index_type(d);
  const std::string dst_at = std::string(index_function(d)) + "(k, e_ext, r_st, r_off)";
  // restrict on the destination when no operand reads its buffer lets the compiler vectorise
  // without run-time alias checks.
  std::string src = "#include \"anycl/loop.h\"\nkernel void ";
  src += expr_kernel;
  src += "(global ";
  src += cl_type_name(code.element);
  src += shares_buffer ? "* r" : "* restrict r";
  src += ", ulong r_off, ";
  if (!dst_contiguous) src += vec + " r_st, ";
  src += code.params;
  if (needs_extents) src += ", " + vec + " e_ext";
  src += ", ulong n, ulong chunk) {\n";
  const std::string each =
      "  ANYCL_FOR_EACH(k, n, chunk) { " +
      store(code.element, "r", dst_contiguous ? std::string("r_off + k") : dst_at, code.value) +
      "; }\n";
  if (dst_contiguous && !code.uses_extents) return src + each + "}\n";
  std::string setup = code.row_setup;
  if (!dst_contiguous) setup += "const ulong r_p = " + dst_at + "; ";
  const std::string dst_run =
      dst_contiguous ? std::string("r_off + k + j") : run_index("r_p", *dst, "r_st");
  src += "#ifdef ANYCL_CPU\n  const ulong last = e_ext." + std::string(index_last_lane(d)) + ";\n";
  src +=
      "  for (ulong k = (ulong)get_global_id(0) * chunk, k_end = min(n, k + chunk); k < k_end;) "
      "{\n";
  src += "    const ulong run = min(k_end - k, last - k % last);\n    " + setup + "\n";
  src += "    for (ulong j = 0; j < run; ++j) " +
         store(code.element, "r", dst_run, code.row_value) + ";\n";
  src += "    k += run;\n  }\n#else\n" + each + "#endif\n}\n";
  return src;
}

// The arguments of expression_source's kernel; they point into `values` (r_st, e_ext) and
// `counts` (r_off, n, chunk), which must outlive the launch.
std::vector<kernel_arg> expression_args(const array_core& dst, const expression_code& code,
                                        const launch_plan& plan,
                                        std::array<index_vector, 2>& values,
                                        std::array<cl_ulong, 3>& counts) {
  const bool dst_contiguous = dst.layout().contiguous();
  const bool needs_extents = !dst_contiguous && !code.uses_extents;
  const unsigned d = code.extents.dims();
  values[0] = index_of(dst.layout(), d, true);
  values[1] = index_of(dense_layout(code.extents), d, false);
  counts = {dst.layout().offset, code.size(), plan.chunk};
  std::vector<kernel_arg> args;
  args.reserve(code.args.size() + 6);
  args.push_back(arg_traits<anycl::buffer>::make(dst.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(counts[0]));
  if (!dst_contiguous) args.push_back(raw_arg(values[0].lanes.s, values[0].bytes));
  for (const expression_arg& a : code.args) args.push_back(launch_arg(a));
  if (needs_extents) args.push_back(raw_arg(values[1].lanes.s, values[1].bytes));
  args.push_back(arg_traits<cl_ulong>::make(counts[1]));
  args.push_back(arg_traits<cl_ulong>::make(counts[2]));
  return args;
}

}  // namespace

void evaluate(const array_core& dst, const expression_code& code) {
  check_destination(dst, code);
  const std::size_t n = code.size();
  if (n == 0) return;
  const aliasing alias = aliasing_of(dst, code);
  if (alias == aliasing::other_layout) {
    // Another layout of the same elements: work-items would read elements others have written.
    array_core tmp(dst.queue(), dst.type(), dst.layout().extents);
    evaluate(tmp, code);
    dst.assign(tmp);
    return;
  }

  const command_queue& q = dst.queue();
  const std::string src = expression_source(code, &dst.layout(), alias == aliasing::same_layout);
  const device_profile prof = profile(q);
  kernel k = counted_kernel(q, src, "anycl-expression", expr_kernel, prof.options);
  const launch_plan plan = plan_for(prof, n, size_of(code.element));
  std::array<index_vector, 2> values{};
  std::array<cl_ulong, 3> counts{};
  std::vector<kernel_arg> args = expression_args(dst, code, plan, values, counts);

  std::vector<event> deps = dependencies({&dst});
  for (const array_core& a : code.arrays) add_dependency(deps, a);
  event e = enqueue_kernel(k, q, plan.range(), args.data(), args.size(), deps);
  dst.record(e);
  for (const array_core& a : code.arrays) a.record(e);
}

void prepare_expressions(const std::vector<expression_code>& codes) {
  if (codes.empty()) return;
  const command_queue& q = codes.front().queue();
  for (const expression_code& c : codes) {
    if (c.queue().context() != q.context())
      throw std::invalid_argument(
          "anycl::prepare: expressions of different OpenCL contexts; prepare each context's "
          "separately");
    if (c.queue().device_id() != q.device_id())
      throw std::invalid_argument(
          "anycl::prepare: expressions on queues of different devices (the kernels are built "
          "with one device's options); prepare each device's separately");
  }
  // The kernels eval() and assignment to a contiguous array that no operand shares build.
  std::vector<std::string> sources;
  for (const expression_code& c : codes) sources.push_back(expression_source(c, nullptr, false));
  const device_profile prof = profile(q);
  generated_kernels_together(q, sources, "anycl-expressions", expr_kernel, prof.options);
  for (const std::string& src : sources) count_build(q.context(), prof.options, src);
}

}  // namespace detail
}  // namespace anycl
