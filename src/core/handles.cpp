// SPDX-License-Identifier: Apache-2.0
// Retain and release for every reference-counted cl_* type; nothing is released in a forked child.
// With ANYCL_HANDLE_COUNTERS each type also keeps a count of the references handles own.
#include <atomic>
#include <string>

#include "anycl/debug.hpp"
#include "anycl/detail/handle.hpp"
#include "core/process.hpp"

namespace anycl::detail {
namespace {

struct live_counters {
  std::atomic<long> devices{0}, contexts{0}, queues{0}, mems{0}, programs{0}, kernels{0}, events{0},
      samplers{0};
};

live_counters& counters() noexcept {
  static live_counters c;
  return c;
}

}  // namespace

#ifdef ANYCL_HANDLE_COUNTERS
#define ANYCL_COUNT(field, delta) counters().field.fetch_add(delta, std::memory_order_relaxed)
#else
#define ANYCL_COUNT(field, delta) static_cast<void>(delta)
#endif

#define ANYCL_DEFINE_HANDLE_TRAITS(raw_type, field, retain_fn, release_fn) \
  const char* const handle_traits<raw_type>::retain_call = #retain_fn;     \
  const char* const handle_traits<raw_type>::release_call = #release_fn;   \
  cl_int handle_traits<raw_type>::retain(raw_type raw) noexcept {          \
    if (in_forked_child()) return CL_SUCCESS;                              \
    return retain_fn(raw);                                                 \
  }                                                                        \
  cl_int handle_traits<raw_type>::release(raw_type raw) noexcept {         \
    if (in_forked_child()) return CL_SUCCESS;                              \
    return release_fn(raw);                                                \
  }                                                                        \
  void handle_traits<raw_type>::count(int delta) noexcept { ANYCL_COUNT(field, delta); }

ANYCL_DEFINE_HANDLE_TRAITS(cl_device_id, devices, clRetainDevice, clReleaseDevice)
ANYCL_DEFINE_HANDLE_TRAITS(cl_context, contexts, clRetainContext, clReleaseContext)
ANYCL_DEFINE_HANDLE_TRAITS(cl_command_queue, queues, clRetainCommandQueue, clReleaseCommandQueue)
ANYCL_DEFINE_HANDLE_TRAITS(cl_mem, mems, clRetainMemObject, clReleaseMemObject)
ANYCL_DEFINE_HANDLE_TRAITS(cl_program, programs, clRetainProgram, clReleaseProgram)
ANYCL_DEFINE_HANDLE_TRAITS(cl_kernel, kernels, clRetainKernel, clReleaseKernel)
ANYCL_DEFINE_HANDLE_TRAITS(cl_event, events, clRetainEvent, clReleaseEvent)
ANYCL_DEFINE_HANDLE_TRAITS(cl_sampler, samplers, clRetainSampler, clReleaseSampler)
#undef ANYCL_DEFINE_HANDLE_TRAITS
#undef ANYCL_COUNT

}  // namespace anycl::detail

namespace anycl::debug {

std::string handle_counts::to_string() const {
  std::string out;
  auto add = [&out](const char* name, long n) {
    if (n == 0) return;
    if (!out.empty()) out += ", ";
    out += name;
    out += ' ';
    out += std::to_string(n);
  };
  add("cl_device_id", devices);
  add("cl_context", contexts);
  add("cl_command_queue", queues);
  add("cl_mem", mems);
  add("cl_program", programs);
  add("cl_kernel", kernels);
  add("cl_event", events);
  add("cl_sampler", samplers);
  return out.empty() ? "none" : out;
}

bool handle_counting() noexcept {
#ifdef ANYCL_HANDLE_COUNTERS
  return true;
#else
  return false;
#endif
}

handle_counts live_handles() noexcept {
  handle_counts h;
#ifdef ANYCL_HANDLE_COUNTERS
  auto& c = detail::counters();
  h.devices = c.devices.load();
  h.contexts = c.contexts.load();
  h.queues = c.queues.load();
  h.mems = c.mems.load();
  h.programs = c.programs.load();
  h.kernels = c.kernels.load();
  h.events = c.events.load();
  h.samplers = c.samplers.load();
#endif
  return h;
}

}  // namespace anycl::debug
