// SPDX-License-Identifier: Apache-2.0
// The queue's SVM commands: memcpy, fill and map, each end checked against its allocation and
// context before the driver (POCL 3.1 copies and fills past an allocation's end, and crashes on a
// null fill pattern: catalogue row B-74), and each command remembered by the allocations it uses.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "anycl/command_queue.hpp"
#include "core/check.hpp"
#include "core/event_state.hpp"
#include "core/process.hpp"
#include "core/queue_internal.hpp"
#include "core/svm_state.hpp"

namespace anycl {

namespace {

cl_context context_of(const command_queue& q) {
  cl_context ctx = nullptr;
  ANYCL_CHECK(clGetCommandQueueInfo(q.get(), CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr),
              "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
  return ctx;
}

// One end of an SVM command: inside its allocation, which belongs to the queue's context.
void check_end(const char* what, const svm_memory& mem, const void* p, std::size_t bytes,
               cl_context ctx) {
  mem.check_within(what, p, bytes);
  detail::check_svm_context(mem.state(), ctx, what);
}

// A host end: memory to read or write.
void check_host_end(const char* what, const void* p) {
  if (p == nullptr) throw std::invalid_argument(std::string(what) + ": null host pointer");
}

event recorded(cl_event ev, const svm_memory* a, const svm_memory* b = nullptr) {
  event out = event::adopt(ev);
  if (a != nullptr) detail::svm_record(a->state(), ev);
  if (b != nullptr) detail::svm_record(b->state(), ev);
  return out;
}

}  // namespace

event command_queue::svm_memcpy_bytes(bool blocking, const svm_memory* dst_mem, void* dst,
                                      const svm_memory* src_mem, const void* src, std::size_t bytes,
                                      const wait_list& waits) const {
  detail::require(*this);
  if (blocking) detail::check_not_in_callback("command_queue::svm_write/svm_read (blocking)");
  if (bytes == 0) return marker(waits);
  const cl_context ctx = context_of(*this);
  if (dst_mem != nullptr) check_end("svm copy destination", *dst_mem, dst, bytes, ctx);
  if (dst_mem == nullptr) check_host_end("svm_read", dst);
  if (src_mem != nullptr) check_end("svm copy source", *src_mem, src, bytes, ctx);
  if (src_mem == nullptr) check_host_end("svm_write", src);
  const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
  if (d < s + bytes && s < d + bytes)
    throw std::invalid_argument(detail::cat("svm_copy: source ", src, " and destination ", dst,
                                            " of ", bytes, " bytes overlap"));
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueSVMMemcpy(get(), blocking ? CL_TRUE : CL_FALSE, dst, src, bytes,
                                 waits.size(), waits.data(), &ev),
              "clEnqueueSVMMemcpy", bytes, " bytes from ", src, " to ", dst);
  return recorded(ev, dst_mem, src_mem);
}

event command_queue::svm_fill_bytes(const svm_memory& mem, void* dst, std::size_t bytes,
                                    const void* pattern, std::size_t pattern_size,
                                    const wait_list& waits) const {
  detail::require(*this);
  if (bytes != 0) check_end("svm_fill", mem, dst, bytes, context_of(*this));
  // The pointer as an offset: OpenCL wants it aligned to the pattern (POCL: CL_INVALID_VALUE).
  const std::size_t offset = bytes == 0 ? 0
                                        : reinterpret_cast<std::uintptr_t>(dst) -
                                              reinterpret_cast<std::uintptr_t>(mem.get());
  detail::check_pattern("svm_fill", offset, bytes, pattern, pattern_size);
  if (bytes == 0) return marker(waits);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueSVMMemFill(get(), dst, pattern, pattern_size, bytes, waits.size(),
                                  waits.data(), &ev),
              "clEnqueueSVMMemFill", bytes, " bytes at ", dst, ", pattern of ", pattern_size,
              " bytes");
  return recorded(ev, &mem);
}

svm_mapped_bytes command_queue::svm_map_bytes(const svm_memory& mem, void* p, std::size_t bytes,
                                              map_access access, const wait_list& waits) const {
  detail::require(*this);
  detail::check_not_in_callback("command_queue::svm_map (blocking)");
  if (bytes == 0) {
    detail::wait_list_only(waits);
    return svm_mapped_bytes();
  }
  check_end("svm_map", mem, p, bytes, context_of(*this));
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueSVMMap(get(), CL_TRUE, detail::map_flags(access), p, bytes, waits.size(),
                              waits.data(), &ev),
              "clEnqueueSVMMap", bytes, " bytes at ", p);
  svm_mapped_bytes out(get(), mem, p, bytes);  // unmapped again if remembering the map throws
  recorded(ev, &mem);
  return out;
}

}  // namespace anycl
