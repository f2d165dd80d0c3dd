// SPDX-License-Identifier: Apache-2.0
// reduction_kernel: a parameter list and OpenCL C expressions made into a reduction_spec, and its
// calls.
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrays/library_kernels.hpp"
#include "arrays/param_list.hpp"
#include "arrays/reduce_internal.hpp"

namespace anycl::detail {

namespace {

const char* const who = "anycl::reduction_kernel";

std::vector<reduction_program::param> parse_params(const std::string& arguments) {
  const param_list_rules rules{who, {"i", "a", "b"}};
  std::vector<reduction_program::param> out;
  for (parsed_parameter& p : parse_param_list(arguments, rules))
    out.push_back({std::move(p.text), std::move(p.name), p.type, p.pointer, p.is_const});
  return out;
}

// A scalar argument as parse_param_list's conversion takes it.
call_arg scalar_of(const reduction_arg& a) {
  call_arg c;
  with_real_type(a.type, [&](auto tag) {
    using T = decltype(tag);
    T v;
    std::memcpy(&v, a.value, sizeof v);
    if constexpr (std::is_floating_point_v<T>) {
      c.k = call_arg::kind::floating;
      c.d = v;
    } else if constexpr (std::is_signed_v<T>) {
      c.k = call_arg::kind::signed_integer;
      c.i = v;
    } else {
      c.k = call_arg::kind::unsigned_integer;
      c.u = v;
    }
  });
  return c;
}

[[noreturn]] void fail(const std::string& where, const std::string& why) {
  throw std::invalid_argument(std::string(who) + ": " + where + why);
}

// The kernel arguments of one call; strided views for const pointers are copied first.
class reduction_binding {
 public:
  explicit reduction_binding(std::size_t count) : offsets_(count, 0), values_(count) {
    copies_.reserve(count);
  }

  void bind(std::size_t i, const reduction_program::param& p, const reduction_arg& a,
            const anycl::context& ctx) {
    const std::string where = "argument " + std::to_string(i + 1) + " ('" + p.decl + "')";
    if (p.pointer)
      bind_array(i, p, a, ctx, where);
    else
      bind_scalar(i, p, a, where);
  }

  std::size_t n() const { return n_; }
  std::vector<kernel_arg>& args() { return kargs_; }
  const std::vector<const array_core*>& arrays() const { return arrays_; }
  std::vector<event> dependencies() const {
    std::vector<event> deps;
    for (const array_core* arr : arrays_)
      for (event& e : detail::dependencies({arr})) deps.push_back(std::move(e));
    return deps;
  }

 private:
  void bind_array(std::size_t i, const reduction_program::param& p, const reduction_arg& a,
                  const anycl::context& ctx, const std::string& where) {
    if (!a.array)
      fail(where, std::string(" needs an array, got a ") + cl_type_name(a.type) + " scalar");
    if (!a.array->valid()) fail(where, " is an empty array (default-constructed)");
    if (a.array->type() != p.type)
      fail(where, std::string(" needs an array of ") + cl_type_name(p.type) + ", got an array of " +
                      cl_type_name(a.array->type()));
    if (a.array->queue().context().get() != ctx.get()) fail(where, " belongs to another context");
    const array_core* arr = a.array;
    if (!arr->layout().contiguous()) {
      if (!p.is_const)
        fail(where, " is a strided view; only a 'const' pointer takes one (it is copied first)");
      copies_.push_back(arr->copy());
      arr = &copies_.back();
    }
    if (arrays_.empty()) n_ = arr->layout().extents.size();
    arrays_.push_back(a.array);
    if (arr != a.array) arrays_.push_back(arr);
    offsets_[i] = arr->layout().offset;
    kargs_.push_back(arg_traits<anycl::buffer>::make(arr->buffer()));
    kargs_.push_back(arg_traits<cl_ulong>::make(offsets_[i]));
  }

  void bind_scalar(std::size_t i, const reduction_program::param& p, const reduction_arg& a,
                   const std::string& where) {
    if (a.array)
      fail(where, std::string(" needs a ") + cl_type_name(p.type) + " scalar, got an array of " +
                      cl_type_name(a.array->type()));
    const std::string why = convert_argument(scalar_of(a), p.type, values_[i].data());
    if (!why.empty()) fail(where, ": " + why);
    kargs_.push_back(raw_arg(values_[i].data(), size_of(p.type)));
  }

  std::vector<array_core> copies_;  // dense copies of strided views
  std::vector<const array_core*> arrays_;
  std::vector<cl_ulong> offsets_;
  std::vector<std::array<unsigned char, 8>> values_;
  std::vector<kernel_arg> kargs_;
  std::size_t n_ = 0;
};

}  // namespace

reduction_program::reduction_program(anycl::context ctx, scalar_type acc, std::string neutral,
                                     std::string reduce, std::string map,
                                     const std::string& arguments, std::string preamble)
    : ctx_(std::move(ctx)) {
  if (!ctx_) throw std::invalid_argument(std::string(who) + ": the context is empty");
  require_text(neutral, who, "neutral element");
  require_text(reduce, who, "reduce expression");
  require_text(map, who, "map expression");
  require_text(arguments, who, "parameter list");
  params_ = parse_params(arguments);
  bool any_pointer = false;
  for (const param& p : params_) any_pointer = any_pointer || p.pointer;
  if (!any_pointer)
    throw std::invalid_argument(std::string(who) + ": '" + arguments +
                                "' has no 'global T*' parameter (the first array gives n)");

  spec_.acc_type = cl_type_name(acc);
  spec_.acc_size = size_of(acc);
  spec_.neutral = std::move(neutral);
  spec_.reduce = std::move(reduce);
  spec_.map = std::move(map);
  spec_.preamble = std::move(preamble);
  spec_.name = who;
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
  if (!queue) throw std::invalid_argument(std::string(who) + ": the queue is empty");
  if (queue.context().get() != ctx_.get())
    throw std::invalid_argument(std::string(who) +
                                ": the queue belongs to another context than the kernel's");
  if (count != params_.size()) {
    std::string list;
    for (const param& p : params_) list += (list.empty() ? "" : ", ") + p.decl;
    throw std::invalid_argument(std::string(who) + ": " + std::to_string(count) + " argument" +
                                (count == 1 ? "" : "s") + " for " + std::to_string(params_.size()) +
                                " parameters (" + list + ")");
  }
  reduction_binding b(count);
  for (std::size_t i = 0; i < count; ++i) b.bind(i, params_[i], args[i], ctx_);
  event e = run_reduction(queue, spec_, b.n(), b.args().data(), b.args().size(), b.dependencies(),
                          result, plan);
  for (const array_core* arr : b.arrays()) arr->record(e);
}

}  // namespace anycl::detail
