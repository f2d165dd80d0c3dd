// SPDX-License-Identifier: Apache-2.0
// What the copies of one SVM allocation share: the memory, its context, and the events of the
// commands enqueued with it, which its free waits for (clSVMFree does not).
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "anycl/detail/handle.hpp"
#include "anycl/event.hpp"
#include "anycl/svm.hpp"

namespace anycl::detail {

struct svm_state : std::enable_shared_from_this<svm_state> {
  handle<cl_context> ctx;
  void* p = nullptr;
  std::size_t size = 0;
  svm_kind kind = svm_kind::coarse_grain;
  std::mutex m;
  std::vector<event> pending;  // commands that may still use the memory (under m)

  svm_state() = default;
  svm_state(const svm_state&) = delete;
  svm_state& operator=(const svm_state&) = delete;
  ~svm_state();  // waits for `pending`, then frees
};

/// Remembers that the command of `ev` uses `s` (null: nothing), so that its free waits for it;
/// thread-safe. Past 32 remembered commands it forgets the completed ones (api_error from
/// clGetEventInfo, after the command was enqueued and remembered).
void svm_record(svm_state* s, cl_event ev);

/// Throws std::invalid_argument unless `s` (an allocation, or null for a null pointer) belongs to
/// `ctx`; `what` names the caller.
void check_svm_context(const svm_state* s, cl_context ctx, const std::string& what);

}  // namespace anycl::detail
