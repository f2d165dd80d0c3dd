// SPDX-License-Identifier: Apache-2.0
// Kernels: creation with helpful errors and queries.
#include "anycl/kernel.hpp"

#include <mutex>
#include <stdexcept>

#include "anycl/command_queue.hpp"
#include "core/info.hpp"
#include "core/kernel_state.hpp"
#include "core/process.hpp"
#include "core/svm_state.hpp"

namespace anycl {
namespace detail {

const launch_limits& kernel_state::limits_for(cl_device_id dev) {
  for (const auto& l : limits)
    if (l.device == dev) return l.limits;
  launch_limits lim;
  device d = device::retain(dev);
  auto items = d.max_work_item_sizes();
  lim.max_dims = static_cast<unsigned>(items.size());
  for (std::size_t i = 0; i < items.size() && i < 3; ++i) lim.max_item_sizes[i] = items[i];
  lim.device_local_memory = d.local_memory();
  lim.kernel_work_group_size = query<std::size_t>(
      "clGetKernelWorkGroupInfo", CL_KERNEL_WORK_GROUP_SIZE, [&](size_t s, void* p, size_t* r) {
        return clGetKernelWorkGroupInfo(h.get(), dev, CL_KERNEL_WORK_GROUP_SIZE, s, p, r);
      });
  lim.kernel_local_memory = query<cl_ulong>(
      "clGetKernelWorkGroupInfo", CL_KERNEL_LOCAL_MEM_SIZE, [&](size_t s, void* p, size_t* r) {
        return clGetKernelWorkGroupInfo(h.get(), dev, CL_KERNEL_LOCAL_MEM_SIZE, s, p, r);
      });
  limits.push_back({dev, lim});
  return limits.back().limits;
}

namespace {
std::shared_ptr<kernel_state> make_state(handle<cl_kernel> h, std::string program_name) {
  auto s = std::make_shared<kernel_state>();
  cl_kernel raw = h.get();
  s->h = std::move(h);
  s->program_name = std::move(program_name);
  s->name = query<std::string>("clGetKernelInfo", CL_KERNEL_FUNCTION_NAME,
                               [&](size_t n, void* p, size_t* r) {
                                 return clGetKernelInfo(raw, CL_KERNEL_FUNCTION_NAME, n, p, r);
                               });
  s->num_args =
      query<cl_uint>("clGetKernelInfo", CL_KERNEL_NUM_ARGS, [&](size_t n, void* p, size_t* r) {
        return clGetKernelInfo(raw, CL_KERNEL_NUM_ARGS, n, p, r);
      });
  return s;
}

const std::string& empty_string() {
  static const std::string s;
  return s;
}

}  // namespace

kernel_state& require(const kernel& k, const char* what) {
  check_not_forked();
  if (k.state() == nullptr)
    throw std::invalid_argument(std::string(what) +
                                ": the kernel is empty (default-constructed or "
                                "moved from)");
  return *k.state();
}

}  // namespace detail

// --- kernel ---
kernel::kernel(const program& prog, const std::string& name) {
  detail::check_not_forked();
  if (!prog) throw std::invalid_argument("kernel '" + name + "': the program is empty");
  cl_int status = CL_SUCCESS;
  cl_kernel raw = clCreateKernel(prog.get(), name.c_str(), &status);
  if (status != CL_SUCCESS) {
    std::string detail;
    try {
      auto names = prog.kernel_names();
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      detail = "no kernel '" + name + "' in program '" + prog.name() +
               "'; kernels there: " + (list.empty() ? std::string("none") : list);
    } catch (const api_error&) {
      detail = "kernel '" + name + "': program '" + prog.name() +
               "' has not been built successfully; call build() first";
    }
    detail::throw_api_error("clCreateKernel", status, detail);
  }
  state_ = detail::make_state(detail::handle<cl_kernel>::adopt(raw), prog.name());
  if (prog.launch_hook() && !prog.launch_hook()->fired.load()) state_->hook = prog.launch_hook();
}

kernel kernel::retain(cl_kernel raw) {
  detail::check_not_forked();
  if (raw == nullptr) return kernel();
  return kernel(detail::make_state(detail::handle<cl_kernel>::retain(raw), "<program>"));
}

cl_kernel kernel::get() const noexcept { return state_ ? state_->h.get() : nullptr; }
const std::string& kernel::name() const noexcept {
  return state_ ? state_->name : detail::empty_string();
}
const std::string& kernel::program_name() const noexcept {
  return state_ ? state_->program_name : detail::empty_string();
}
cl_uint kernel::num_args() const noexcept { return state_ ? state_->num_args : 0; }

anycl::context kernel::context() const {
  auto& s = detail::require(*this, "kernel::context");
  return anycl::context::retain(detail::query<cl_context>(
      "clGetKernelInfo", CL_KERNEL_CONTEXT, [&](size_t n, void* p, size_t* r) {
        return clGetKernelInfo(s.h.get(), CL_KERNEL_CONTEXT, n, p, r);
      }));
}

std::optional<kernel_arg_info> kernel::arg_info(cl_uint index) const {
  auto& s = detail::require(*this, "kernel::arg_info");
  if (index >= s.num_args)
    throw std::out_of_range("kernel '" + s.name + "': argument " + std::to_string(index) +
                            " asked for, it has " + std::to_string(s.num_args));
  auto get_string = [&](cl_kernel_arg_info param, std::string& out) {
    std::size_t size = 0;
    cl_int st = clGetKernelArgInfo(s.h.get(), index, param, 0, nullptr, &size);
    if (st != CL_SUCCESS) return st;
    std::vector<char> buf(size + 1, '\0');
    st = clGetKernelArgInfo(s.h.get(), index, param, size, buf.data(), nullptr);
    out = buf.data();
    return st;
  };
  kernel_arg_info info;
  cl_int st = get_string(CL_KERNEL_ARG_NAME, info.name);
  if (st == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) return std::nullopt;
  ANYCL_CHECK(st, "clGetKernelArgInfo", "argument ", index, " of kernel '", s.name, "'");
  ANYCL_CHECK(get_string(CL_KERNEL_ARG_TYPE_NAME, info.type_name), "clGetKernelArgInfo",
              "argument ", index, " of kernel '", s.name, "'");
  // The two qualifiers (cl_uint values): CL_KERNEL_ARG_ADDRESS_QUALIFIER and ..._ACCESS_QUALIFIER.
  auto qualifier = [&](cl_kernel_arg_info param, cl_uint none) {
    cl_uint v = none;
    ANYCL_CHECK(clGetKernelArgInfo(s.h.get(), index, param, sizeof(v), &v, nullptr),
                "clGetKernelArgInfo", "argument ", index, " of kernel '", s.name, "'");
    return v;
  };
  const cl_uint q = qualifier(CL_KERNEL_ARG_ADDRESS_QUALIFIER, CL_KERNEL_ARG_ADDRESS_PRIVATE);
  info.space = q == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? address_space::global
               : q == CL_KERNEL_ARG_ADDRESS_LOCAL    ? address_space::local
               : q == CL_KERNEL_ARG_ADDRESS_CONSTANT ? address_space::constant
                                                     : address_space::private_;
  const cl_uint a = qualifier(CL_KERNEL_ARG_ACCESS_QUALIFIER, CL_KERNEL_ARG_ACCESS_NONE);
  info.access = a == CL_KERNEL_ARG_ACCESS_READ_ONLY    ? access_qualifier::read_only
                : a == CL_KERNEL_ARG_ACCESS_WRITE_ONLY ? access_qualifier::write_only
                : a == CL_KERNEL_ARG_ACCESS_READ_WRITE ? access_qualifier::read_write
                                                       : access_qualifier::none;
  return info;
}

void kernel::use_svm(const std::vector<svm_memory>& indirect) const {
  auto& s = detail::require(*this, "kernel::use_svm");
  const anycl::context ctx = context();
  for (const svm_memory& m : indirect) {
    if (m.empty())
      throw std::invalid_argument("kernel::use_svm of kernel '" + s.name +
                                  "': an empty SVM allocation");
    detail::check_svm_context(m.state(), ctx.get(), "kernel::use_svm of kernel '" + s.name + "'");
  }
  std::lock_guard<std::mutex> lock(s.m);
  std::vector<svm_memory> old = std::move(s.indirect_svm);
  s.indirect_svm = indirect;
  try {
    detail::set_indirect_svm(s.h.get(), s);
  } catch (...) {
    s.indirect_svm = std::move(old);
    throw;
  }
}

work_group_info kernel::work_group(const device& dev) const {
  auto& s = detail::require(*this, "kernel::work_group");
  auto q = [&](auto tag, cl_kernel_work_group_info param) {
    using T = decltype(tag);
    return detail::query<T>("clGetKernelWorkGroupInfo", param, [&](size_t n, void* p, size_t* r) {
      return clGetKernelWorkGroupInfo(s.h.get(), dev.get(), param, n, p, r);
    });
  };
  work_group_info w;
  w.work_group_size = q(std::size_t{}, CL_KERNEL_WORK_GROUP_SIZE);
  w.compile_size = q(std::array<std::size_t, 3>{}, CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
  w.local_memory = q(cl_ulong{}, CL_KERNEL_LOCAL_MEM_SIZE);
  w.private_memory = q(cl_ulong{}, CL_KERNEL_PRIVATE_MEM_SIZE);
  w.preferred_multiple = q(std::size_t{}, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
  return w;
}

}  // namespace anycl
