// SPDX-License-Identifier: Apache-2.0
// clFFT's process-wide state as the plan code uses it: counted calls, status checks and the one
// lock every transform is enqueued under. Private to src/fft.
#pragma once

#include <clFFT.h>

#include <mutex>
#include <string>

namespace anycl::detail {

/// Counts one call into clFFT (see fft_library_counters).
void count_clfft_call() noexcept;

/// Calls `f` (one clFFT call), counted, and returns its status.
template <class F>
clfftStatus clfft_call(F&& f) {
  count_clfft_call();
  return f();
}

/// Throws fft_error{call, status, detail} when `status` is not CLFFT_SUCCESS.
void clfft_check(clfftStatus status, const char* call, const std::string& detail);

/// clFFT 2.12 shares one cl_kernel between plans of equal parameters and sets its arguments
/// without a lock, so every transform in the process is enqueued under this one.
std::mutex& clfft_enqueue_lock();

}  // namespace anycl::detail
