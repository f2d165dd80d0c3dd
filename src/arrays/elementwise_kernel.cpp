// SPDX-License-Identifier: Apache-2.0
// elementwise_kernel: a parameter list and a loop body made into a generated kernel, and its calls.
#include "anycl/elementwise_kernel.hpp"

#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrays/library_kernels.hpp"
#include "arrays/param_list.hpp"

namespace anycl {
namespace detail {

struct elementwise_state {
  anycl::context ctx;
  std::string name;
  std::string source;
  std::vector<elementwise_kernel::parameter> params;
  std::string signature;  // the parameter list as given, for messages
  // The kernel built at construction and the options it was built with.
  kernel built;
  std::string built_options;
};

namespace {

std::vector<elementwise_kernel::parameter> parse_parameters(const std::string& kernel_name,
                                                            const std::string& list) {
  const param_list_rules rules{"elementwise_kernel '" + kernel_name + "'", {"i", "i_end", "k"}};
  std::vector<elementwise_kernel::parameter> out;
  for (parsed_parameter& p : parse_param_list(list, rules))
    out.push_back({std::move(p.name), p.type, p.pointer, std::move(p.declaration)});
  return out;
}

// The kernel: each pointer moved to its array's first element, then the body in the loop over i.
std::string kernel_source(const elementwise_state& s, const std::string& body,
                          const std::string& preamble) {
  std::string src = "#include \"anycl/loop.h\"\n";
  if (!preamble.empty()) src += preamble + "\n";
  src += "kernel void " + s.name + "(";
  for (const elementwise_kernel::parameter& p : s.params) {
    src += p.declaration;
    if (p.pointer) src += ", ulong " + p.name + "__off";
    src += ", ";
  }
  src += "ulong anycl_n, ulong anycl_chunk) {\n";
  for (const elementwise_kernel::parameter& p : s.params)
    if (p.pointer) src += "  " + p.name + " += " + p.name + "__off;\n";
  src += "  ANYCL_FOR_EACH(i, anycl_n, anycl_chunk) {\n" + body + "\n;\n  }\n}\n";
  return src;
}

// The kernel arguments of one call: values first (their addresses must not move), then the list.
class call_binding {
 public:
  call_binding(const elementwise_state& s, const command_queue& queue, std::size_t count)
      : s_(s), queue_(queue), who_("elementwise_kernel '" + s.name + "'"), values_(count) {
    args_.reserve(2 * count + 2);
  }

  void bind(std::size_t i, const call_arg& a) {
    const elementwise_kernel::parameter& p = s_.params[i];
    const std::string arg = "argument " + std::to_string(i) + " ('" + p.declaration + "')";
    if (p.pointer)
      bind_array(i, a, p, arg);
    else
      bind_scalar(i, a, p, arg);
  }

  // The size of the first array, or the count given; throws when there is neither.
  std::size_t count(const std::size_t* given) const {
    if (given) return *given;
    if (arrays_.empty())
      throw std::invalid_argument(who_ +
                                  ": no array argument to take the size from; pass an "
                                  "anycl::element_count{n} after the queue");
    return arrays_.front()->layout().extents.size();
  }
  std::size_t elem_bytes(const std::size_t* given) const {
    return given || arrays_.empty() ? 4 : size_of(arrays_.front()->type());
  }
  std::vector<event> dependencies() const {
    std::vector<event> deps;
    for (const array_core* c : arrays_) add_dependency(deps, *c);
    return deps;
  }
  std::vector<kernel_arg>& args() { return args_; }
  const std::vector<const array_core*>& arrays() const { return arrays_; }

 private:
  void bind_array(std::size_t i, const call_arg& a, const elementwise_kernel::parameter& p,
                  const std::string& arg) {
    if (a.k != call_arg::kind::array)
      fail(arg + " takes an array<" + cl_type_name(p.type) + ">, not a scalar");
    const array_core& c = *a.array;
    if (!c.valid()) fail(arg + " is an empty (default-constructed) array");
    if (c.type() != p.type)
      fail(arg + " takes an array of " + cl_type_name(p.type) + ", given an array of " +
           cl_type_name(c.type()));
    if (!c.layout().contiguous())
      fail(arg +
           " is a strided view; pass a contiguous array (view.copy(), assigned back if written)");
    if (c.queue().get() != queue_.get() && c.queue().context() != queue_.context())
      fail(arg + " is an array of another context");
    arrays_.push_back(&c);
    args_.push_back(arg_traits<anycl::buffer>::make(c.buffer()));
    const cl_ulong off = c.layout().offset;
    std::memcpy(values_[i].data(), &off, sizeof off);
    args_.push_back(raw_arg(values_[i].data(), sizeof off));
  }

  void bind_scalar(std::size_t i, const call_arg& a, const elementwise_kernel::parameter& p,
                   const std::string& arg) {
    if (a.k == call_arg::kind::array) fail(arg + " takes a scalar, given an array");
    const std::string why = convert_argument(a, p.type, values_[i].data());
    if (!why.empty()) fail(arg + ": " + why);
    args_.push_back(raw_arg(values_[i].data(), size_of(p.type)));
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(who_ + ": " + what);
  }

  const elementwise_state& s_;
  const command_queue& queue_;
  std::string who_;
  std::vector<std::array<unsigned char, 8>> values_;
  std::vector<kernel_arg> args_;
  std::vector<const array_core*> arrays_;
};

}  // namespace
}  // namespace detail

elementwise_kernel::elementwise_kernel(const anycl::context& ctx, const std::string& params,
                                       const std::string& body, const std::string& name,
                                       const std::string& preamble) {
  if (!ctx) throw std::invalid_argument("elementwise_kernel: the context is empty");
  if (!detail::is_identifier(name) || (name.rfind("anycl_", 0) == 0 && name != "anycl_elementwise"))
    throw std::invalid_argument("elementwise_kernel: the name '" + name +
                                "' is not an identifier (or starts with anycl_)");
  if (detail::trim(body).empty())
    throw std::invalid_argument("elementwise_kernel '" + name + "': the body is empty");
  auto s = std::make_shared<detail::elementwise_state>();
  s->ctx = ctx;
  s->name = name;
  s->signature = params;
  s->params = detail::parse_parameters(name, params);
  s->source = detail::kernel_source(*s, body, preamble);

  // Built now, for the first device, so that a body that does not compile fails here.
  const std::vector<device> devs = ctx.devices();
  const command_queue q(ctx, devs.front());
  const build_options options = detail::library_options(q);
  s->built =
      detail::generated_kernel(q, s->source, "elementwise_kernel '" + name + "'", name, options);
  s->built_options = options.str();
  s_ = std::move(s);
}

const std::string& elementwise_kernel::name() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->name;
}
const std::vector<elementwise_kernel::parameter>& elementwise_kernel::parameters() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->params;
}
const std::string& elementwise_kernel::source() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->source;
}

event elementwise_kernel::launch(const command_queue& queue, const std::size_t* n_given,
                                 const detail::call_arg* args, std::size_t count) const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: called default-constructed");
  const detail::elementwise_state& s = *s_;
  const std::string who = "elementwise_kernel '" + s.name + "'";
  if (!queue) throw std::invalid_argument(who + ": the queue is empty");
  if (count != s.params.size())
    throw std::invalid_argument(who + ": " + std::to_string(count) + " arguments given, it takes " +
                                std::to_string(s.params.size()) + " (" + s.signature + ")");
  if (queue.context() != s.ctx)
    throw std::invalid_argument(who + ": the queue is on another context than the kernel");

  detail::call_binding b(s, queue, count);
  for (std::size_t i = 0; i < count; ++i) b.bind(i, args[i]);
  const std::size_t n = b.count(n_given);
  const std::vector<event> deps = b.dependencies();
  if (n == 0) return queue.marker(deps);

  const build_options options = detail::library_options(queue);
  kernel k = options.str() == s.built_options
                 ? s.built
                 : detail::generated_kernel(queue, s.source, who, s.name, options);
  const detail::launch_plan plan = detail::plan_launch(queue, n, b.elem_bytes(n_given));
  const cl_ulong count_n = n, chunk = plan.chunk;
  b.args().push_back(detail::arg_traits<cl_ulong>::make(count_n));
  b.args().push_back(detail::arg_traits<cl_ulong>::make(chunk));
  event e = detail::enqueue_kernel(k, queue, plan.range(), b.args().data(), b.args().size(), deps);
  for (const detail::array_core* c : b.arrays()) c->record(e);
  return e;
}

}  // namespace anycl
