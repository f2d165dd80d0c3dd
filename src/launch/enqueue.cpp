// SPDX-License-Identifier: Apache-2.0
// The launch step: arguments checked and set, and the kernel enqueued, under the kernel's lock.
#include <mutex>
#include <stdexcept>
#include <string>

#include "anycl/command_queue.hpp"
#include "anycl/kernel.hpp"
#include "core/check.hpp"
#include "core/kernel_state.hpp"
#include "core/svm_state.hpp"
#include "launch/limits.hpp"

namespace anycl::detail {

namespace {

// Each parameter as param_kind sees it, from its CL_KERNEL_ARG_TYPE_NAME ('?' where the driver
// keeps none; POCL keeps type names even without -cl-kernel-arg-info, and not the names).
std::string param_kinds_of(cl_kernel raw, cl_uint count, const std::string& name) {
  std::string out;
  for (cl_uint i = 0; i < count; ++i) {
    std::size_t size = 0;
    cl_int st = clGetKernelArgInfo(raw, i, CL_KERNEL_ARG_TYPE_NAME, 0, nullptr, &size);
    if (st == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) return std::string(count, '?');
    ANYCL_CHECK(st, "clGetKernelArgInfo", "CL_KERNEL_ARG_TYPE_NAME of argument ", i, " of '", name,
                "'");
    std::string type(size, '\0');
    ANYCL_CHECK(clGetKernelArgInfo(raw, i, CL_KERNEL_ARG_TYPE_NAME, size, type.data(), nullptr),
                "clGetKernelArgInfo", "CL_KERNEL_ARG_TYPE_NAME of argument ", i, " of '", name,
                "'");
    type.resize(type.find('\0') == std::string::npos ? type.size() : type.find('\0'));
    out += type.rfind("image", 0) == 0 ? 'i' : type == "sampler_t" ? 's' : '-';
  }
  return out;
}

const char* kind_name(char kind) {
  return kind == 'i' ? "an image" : kind == 's' ? "a sampler" : "neither an image nor a sampler";
}

}  // namespace

void check_arity(const kernel& k, std::size_t expected, const char* kinds) {
  kernel_state& s = require(k, "kernel_function");
  if (s.num_args != expected)
    throw std::invalid_argument("kernel '" + s.name + "' in '" + s.program_name + "' takes " +
                                std::to_string(s.num_args) +
                                " arguments; the kernel_function type "
                                "lists " +
                                std::to_string(expected));
  std::lock_guard<std::mutex> lock(s.m);
  if (s.param_kinds.empty()) s.param_kinds = param_kinds_of(s.h.get(), s.num_args, s.name);
  for (std::size_t i = 0; i < expected; ++i) {
    const char have = s.param_kinds[i], want = kinds[i];
    if (have == '?' || have == want) continue;
    throw std::invalid_argument("kernel '" + s.name + "' in '" + s.program_name + "': parameter " +
                                std::to_string(i) + " is " + kind_name(have) +
                                ", and the kernel_function type gives " + kind_name(want) +
                                " there (anycl::image for image*_t, anycl::sampler for sampler_t)");
  }
}

namespace {

// The checks of every launch before the kernel's lock: the queue, the arity, __local sizes and
// buffer_view offsets; points memory arguments' values at their cl_mem. Returns the __local bytes.
std::uint64_t check_args(kernel_state& s, const command_queue& q, kernel_arg* args,
                         std::size_t count) {
  if (!q) throw std::invalid_argument("launch of kernel '" + s.name + "': the queue is empty");
  if (count != s.num_args)
    throw std::invalid_argument("launch of kernel '" + s.name + "' in '" + s.program_name +
                                "': " + std::to_string(count) + " arguments given, it takes " +
                                std::to_string(s.num_args));
  std::uint64_t local_bytes = 0;
  cl_context ctx = nullptr;  // the queue's, asked for at the first SVM argument
  for (std::size_t i = 0; i < count; ++i) {
    kernel_arg& a = args[i];
    if (a.k == kernel_arg::kind::local) {
      if (a.size == 0)
        throw std::invalid_argument("launch of kernel '" + s.name + "': __local argument " +
                                    std::to_string(i) + " has size 0");
      local_bytes += a.size;
    } else if (a.k == kernel_arg::kind::memory) {
      if (a.offset != 0)
        throw std::invalid_argument(
            "launch of kernel '" + s.name + "': argument " + std::to_string(i) +
            " is a buffer_view starting at byte " + std::to_string(a.offset) +
            ", and OpenCL passes whole buffers; pass buffer.sub_buffer(...), or the whole buffer "
            "and an offset argument");
      a.value = &a.mem;
    } else if (a.k == kernel_arg::kind::sampler) {
      if (a.sampler == nullptr)
        throw std::invalid_argument("launch of kernel '" + s.name + "': argument " +
                                    std::to_string(i) + " is an empty sampler");
      a.value = &a.sampler;
    } else if (a.k == kernel_arg::kind::svm && a.svm != nullptr) {
      if (ctx == nullptr)
        ANYCL_CHECK(clGetCommandQueueInfo(q.get(), CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr),
                    "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
      check_svm_context(a.svm, ctx,
                        "launch of kernel '" + s.name + "': SVM argument " + std::to_string(i));
    }
  }
  return local_bytes;
}

void set_args(cl_kernel raw, const kernel_state& s, const kernel_arg* args, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const kernel_arg& a = args[i];
    if (a.k == kernel_arg::kind::svm) {
      ANYCL_CHECK(clSetKernelArgSVMPointer(raw, static_cast<cl_uint>(i), a.value),
                  "clSetKernelArgSVMPointer", "argument ", i, " (", a.value, ") of kernel '",
                  s.name, "' in '", s.program_name, "'");
      continue;
    }
    const void* value = a.k == kernel_arg::kind::local ? nullptr : a.value;
    ANYCL_CHECK(clSetKernelArg(raw, static_cast<cl_uint>(i), a.size, value), "clSetKernelArg",
                "argument ", i, " (", a.size, " bytes) of kernel '", s.name, "' in '",
                s.program_name, "'");
  }
}

// Remembers the launch `ev` in the SVM allocations it uses, so that none is freed under it.
void record_svm(const kernel_state& s, const kernel_arg* args, std::size_t count, cl_event ev) {
  for (std::size_t i = 0; i < count; ++i)
    if (args[i].k == kernel_arg::kind::svm) svm_record(args[i].svm, ev);
  for (const svm_memory& m : s.indirect_svm) svm_record(m.state(), ev);
}

}  // namespace

void set_indirect_svm(cl_kernel raw, const kernel_state& s) {
  if (s.indirect_svm.empty()) return;
  std::vector<void*> ptrs;
  for (const svm_memory& m : s.indirect_svm) ptrs.push_back(m.get());
  ANYCL_CHECK(clSetKernelExecInfo(raw, CL_KERNEL_EXEC_INFO_SVM_PTRS, ptrs.size() * sizeof(void*),
                                  ptrs.data()),
              "clSetKernelExecInfo", "CL_KERNEL_EXEC_INFO_SVM_PTRS, ", ptrs.size(),
              " allocations, of kernel '", s.name, "'");
}

void check_launch(const kernel& k, const command_queue& q, const nd_range& r, kernel_arg* args,
                  std::size_t count) {
  kernel_state& s = require(k, "launch");
  const std::uint64_t local_bytes = check_args(s, q, args, count);
  if (r.empty()) return;
  std::lock_guard<std::mutex> lock(s.m);
  validate_launch(r, s.limits_for(q.device_id()), local_bytes, s.name.c_str());
}

handle<cl_kernel> kernel_with_args(const kernel& k, const kernel_arg* args, std::size_t count) {
  kernel_state& s = require(k, "command_buffer");
  cl_program prog = nullptr;
  ANYCL_CHECK(clGetKernelInfo(s.h.get(), CL_KERNEL_PROGRAM, sizeof prog, &prog, nullptr),
              "clGetKernelInfo", "CL_KERNEL_PROGRAM of kernel '", s.name, "'");
  cl_int status = CL_SUCCESS;
  handle<cl_kernel> own = handle<cl_kernel>::adopt(clCreateKernel(prog, s.name.c_str(), &status));
  ANYCL_CHECK(status, "clCreateKernel", "a private copy of kernel '", s.name, "' in '",
              s.program_name, "' for a command buffer");
  set_args(own.get(), s, args, count);
  std::lock_guard<std::mutex> lock(s.m);
  set_indirect_svm(own.get(), s);
  return own;
}

event enqueue_kernel(const kernel& k, const command_queue& q, const nd_range& r, kernel_arg* args,
                     std::size_t count, const wait_list& waits) {
  kernel_state& s = require(k, "launch");
  const std::uint64_t local_bytes = check_args(s, q, args, count);
  if (r.empty()) return q.marker(waits);

  std::lock_guard<std::mutex> lock(s.m);
  validate_launch(r, s.limits_for(q.device_id()), local_bytes, s.name.c_str());
  cl_kernel raw = s.h.get();
  set_args(raw, s, args, count);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueNDRangeKernel(
                  q.get(), raw, r.dims(), r.offset().dims() != 0 ? r.offset().data() : nullptr,
                  r.global().data(), r.local().dims() != 0 ? r.local().data() : nullptr,
                  waits.size(), waits.data(), &ev),
              "clEnqueueNDRangeKernel", "kernel '", s.name, "' in '", s.program_name, "', global ",
              r.global()[0], r.dims() > 1 ? " x " + std::to_string(r.global()[1]) : "",
              r.dims() > 2 ? " x " + std::to_string(r.global()[2]) : "");
  event out = event::adopt(ev);
  record_svm(s, args, count, ev);
  if (s.hook) {
    std::shared_ptr<first_launch_hook> hook = std::move(s.hook);
    if (!hook->fired.exchange(true)) hook->launched(ev);
  }
  return out;
}

}  // namespace anycl::detail
