// SPDX-License-Identifier: Apache-2.0
// SVM allocations: capabilities checked before clSVMAlloc (which returns no status), the free
// deferred until the commands using the memory are done, and mappings of coarse-grained memory.
#include "anycl/svm.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/device.hpp"
#include "anycl/error.hpp"
#include "core/buffer_create.hpp"
#include "core/check.hpp"
#include "core/process.hpp"
#include "core/svm_state.hpp"

namespace anycl {

// --- svm_support ---
std::string svm_support::to_string() const {
  std::string out;
  auto add = [&out](bool has, const char* name) {
    if (has) out += (out.empty() ? "" : ", ") + std::string(name);
  };
  add(coarse_grain_buffer, "coarse-grained buffer");
  add(fine_grain_buffer, "fine-grained buffer");
  add(fine_grain_system, "fine-grained system");
  add(atomics, "atomics");
  return out.empty() ? "none" : out;
}

bool svm_support::allows(svm_kind kind) const noexcept {
  switch (kind) {
    case svm_kind::coarse_grain:
      return coarse_grain_buffer;
    case svm_kind::fine_grain:
      return fine_grain_buffer;
    case svm_kind::fine_grain_atomics:
      return fine_grain_buffer && atomics;
  }
  return false;
}

void svm_support::require(svm_kind kind, const std::string& device_name, const char* what) const {
  if (allows(kind)) return;
  const char* wanted = kind == svm_kind::coarse_grain ? "coarse-grained buffer SVM"
                       : kind == svm_kind::fine_grain ? "fine-grained buffer SVM"
                                                      : "fine-grained buffer SVM with atomics";
  std::string instead = !coarse_grain_buffer ? "use buffers (anycl::buffer, anycl::array)"
                        : fine_grain_buffer  ? "allocate svm_kind::fine_grain"
                                             : "allocate svm_kind::coarse_grain and map it";
  throw std::invalid_argument(std::string(what) + ": device '" + device_name + "' has no " +
                              wanted + " (CL_DEVICE_SVM_CAPABILITIES: " + to_string() + "); " +
                              instead);
}

svm_support device::svm_capabilities() const {
  svm_support s;
  if (version_number().first < 2) return s;  // the query does not exist before OpenCL 2.0
  const auto caps = info<cl_device_svm_capabilities>(CL_DEVICE_SVM_CAPABILITIES);
  s.coarse_grain_buffer = (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
  s.fine_grain_buffer = (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
  s.fine_grain_system = (caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0;
  s.atomics = (caps & CL_DEVICE_SVM_ATOMICS) != 0;
  return s;
}

// --- the shared state ---
namespace detail {

svm_state::~svm_state() {
  if (p == nullptr || in_forked_child()) return;
  for (const event& e : pending) {
    // A failed command no longer uses the memory either; a failed wait is reported, and the
    // memory leaked rather than freed under a command that may still run.
    const cl_event raw = e.get();
    const cl_int status = clWaitForEvents(1, &raw);
    if (status != CL_SUCCESS && status != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
      detail::report_cleanup_error("SVM allocation", "clWaitForEvents", status);
      return;
    }
  }
  clSVMFree(ctx.get(), p);
}

void svm_record(svm_state* s, cl_event ev) {
  if (s == nullptr || ev == nullptr) return;
  event e = event::retain(ev);
  std::lock_guard<std::mutex> lock(s->m);
  s->pending.push_back(std::move(e));
  // Past a few commands, completed ones are forgotten, so the list holds what may still run.
  if (s->pending.size() < 32) return;
  std::vector<bool> running(s->pending.size());
  for (std::size_t i = 0; i < running.size(); ++i) {
    cl_int st = CL_QUEUED;
    ANYCL_CHECK(clGetEventInfo(s->pending[i].get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st,
                               &st, nullptr),
                "clGetEventInfo", "CL_EVENT_COMMAND_EXECUTION_STATUS of a command using SVM");
    running[i] = st > CL_COMPLETE;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < running.size(); ++i)
    if (running[i]) s->pending[kept++] = std::move(s->pending[i]);
  s->pending.resize(kept);
}

void check_svm_context(const svm_state* s, cl_context ctx, const std::string& what) {
  if (s != nullptr && s->ctx.get() != ctx)
    throw std::invalid_argument(what +
                                ": the SVM allocation belongs to another context; SVM pointers "
                                "are valid only in the context that allocated them");
}

}  // namespace detail

// --- svm_memory ---
namespace {

cl_svm_mem_flags svm_flags(svm_kind kind, memory_access access) {
  cl_svm_mem_flags f = detail::flags_of(access);
  if (kind != svm_kind::coarse_grain) f |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
  if (kind == svm_kind::fine_grain_atomics) f |= CL_MEM_SVM_ATOMICS;
  return f;
}

// The checks clSVMAlloc cannot report: each device's capabilities and allocation limit.
void check_svm_alloc(const context& ctx, std::size_t bytes, svm_kind kind) {
  for (const device& d : ctx.devices()) {
    d.svm_capabilities().require(kind, d.name(), "svm_memory");
    if (bytes > d.max_alloc())
      detail::throw_api_error("clSVMAlloc", CL_INVALID_BUFFER_SIZE,
                              detail::cat("checked before the call: ", bytes,
                                          " bytes exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE of ",
                                          d.max_alloc(), " bytes on '", d.name(), "'"));
  }
}

}  // namespace

svm_memory::svm_memory(const anycl::context& ctx, std::size_t bytes, svm_kind kind,
                       memory_access access) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("svm_memory: the context is empty");
  check_svm_alloc(ctx, bytes, kind);
  if (bytes == 0) return;
  auto s = std::make_shared<detail::svm_state>();
  s->ctx = detail::handle<cl_context>::retain(ctx.get());
  s->size = bytes;
  s->kind = kind;
  s->p = clSVMAlloc(ctx.get(), svm_flags(kind, access), bytes, 0);
  if (s->p == nullptr)
    detail::throw_api_error(
        "clSVMAlloc", CL_MEM_OBJECT_ALLOCATION_FAILURE,
        detail::cat(bytes, " bytes: the driver returned no memory (clSVMAlloc reports no reason)"));
  s_ = std::move(s);
}

void* svm_memory::get() const noexcept { return s_ ? s_->p : nullptr; }
std::size_t svm_memory::size() const noexcept { return s_ ? s_->size : 0; }
svm_kind svm_memory::kind() const noexcept { return s_ ? s_->kind : svm_kind::coarse_grain; }

anycl::context svm_memory::context() const {
  return s_ ? anycl::context::retain(s_->ctx.get()) : anycl::context();
}

void svm_memory::check_within(const char* what, const void* p, std::size_t bytes) const {
  const auto* base = static_cast<const char*>(get());
  const auto* at = static_cast<const char*>(p);
  const std::size_t size = this->size();
  // Compared as addresses: `p` may come from anywhere.
  const auto b = reinterpret_cast<std::uintptr_t>(base), a = reinterpret_cast<std::uintptr_t>(at);
  if (bytes == 0 && at == base) return;  // the start, also of an empty allocation
  if (base == nullptr || a < b || a - b > size || bytes > size - (a - b))
    throw std::out_of_range(detail::cat(what, ": ", bytes, " bytes at ", p,
                                        " do not lie within the SVM allocation of ", size,
                                        " bytes at ", get()));
}

svm_memory svm_memory::from_state(detail::svm_state* s) {
  svm_memory m;
  if (s != nullptr) m.s_ = s->shared_from_this();
  return m;
}

// --- svm_mapped_bytes ---
svm_mapped_bytes::svm_mapped_bytes(cl_command_queue queue, svm_memory mem, void* p,
                                   std::size_t bytes)
    : queue_(detail::handle<cl_command_queue>::retain(queue)),
      mem_(std::move(mem)),
      p_(p),
      bytes_(bytes) {}

svm_mapped_bytes::svm_mapped_bytes(svm_mapped_bytes&& other) noexcept
    : queue_(std::move(other.queue_)),
      mem_(std::move(other.mem_)),
      p_(std::exchange(other.p_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)) {}

svm_mapped_bytes& svm_mapped_bytes::operator=(svm_mapped_bytes&& other) noexcept {
  if (this != &other) {
    release();
    queue_ = std::move(other.queue_);
    mem_ = std::move(other.mem_);
    p_ = std::exchange(other.p_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

svm_mapped_bytes::~svm_mapped_bytes() { release(); }

event svm_mapped_bytes::unmap() {
  detail::check_not_forked();
  if (p_ == nullptr) return event();
  void* p = std::exchange(p_, nullptr);
  bytes_ = 0;
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueSVMUnmap(queue_.get(), p, 0, nullptr, &ev), "clEnqueueSVMUnmap",
              "SVM memory at ", p);
  detail::svm_record(mem_.state(), ev);
  return event::adopt(ev);
}

void svm_mapped_bytes::release() noexcept {
  if (p_ == nullptr || detail::in_forked_child()) return;
  cl_event ev = nullptr;
  cl_int status = clEnqueueSVMUnmap(queue_.get(), p_, 0, nullptr, &ev);
  if (status == CL_SUCCESS) {
    status = clWaitForEvents(1, &ev);  // done: nothing to remember for the free
    clReleaseEvent(ev);
  }
  if (status != CL_SUCCESS)
    detail::report_cleanup_error("SVM mapping", "clEnqueueSVMUnmap", status);
  p_ = nullptr;
  bytes_ = 0;
}

}  // namespace anycl
