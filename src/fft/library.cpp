// SPDX-License-Identifier: Apache-2.0
// clFFT's process-wide setup: clfftSetup with the first anycl::fft::library_guard, clfftTeardown
// when the last one ends, and the counts of calls, setups and teardowns tests read.
#include "fft/library.hpp"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>
#include <utility>

#include "anycl/fft.hpp"
#include "fft/counters.hpp"

namespace anycl {
namespace detail {
namespace {

// Never destroyed: a static destructor must not run clfftTeardown (OpenCL may be gone by then),
// and guards in other static objects may still end after this translation unit's statics.
struct library_state {
  std::mutex m;
  std::size_t guards = 0, setups = 0, teardowns = 0;
  std::atomic<std::size_t> calls{0};
  std::mutex enqueue;  // see clfft_enqueue_lock
};

library_state& lib() {
  static library_state* s = new library_state;  // intentionally leaked, see above
  return *s;
}

void acquire_library() {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  if (s.guards == 0) {
    clfftSetupData data;
    clfft_check(clfft_call([&] { return clfftInitSetupData(&data); }), "clfftInitSetupData", "");
    clfft_check(clfft_call([&] { return clfftSetup(&data); }), "clfftSetup", "");
    ++s.setups;
  }
  ++s.guards;
}

// clfftTeardown frees every plan clFFT still knows without forgetting it, so a second teardown
// with a plan left over is a double free; here it runs only when no guard, and so no plan, is
// left (every plan is destroyed before its guard), which makes setup/teardown cycles safe.
void release_library() noexcept {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  if (--s.guards == 0) {
    const clfftStatus status = clfft_call([] { return clfftTeardown(); });
    ++s.teardowns;
    if (status != CLFFT_SUCCESS) report_cleanup_error("clFFT", "clfftTeardown", status);
  }
}

}  // namespace

void count_clfft_call() noexcept { lib().calls.fetch_add(1, std::memory_order_relaxed); }

void clfft_check(clfftStatus status, const char* call, const std::string& detail) {
  if (status != CLFFT_SUCCESS) throw fft_error(call, status, detail);
}

std::mutex& clfft_enqueue_lock() { return lib().enqueue; }

fft_counters fft_library_counters() {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  return {s.calls.load(), s.setups, s.teardowns, s.guards};
}

}  // namespace detail

namespace fft {

library_guard::library_guard() {
  detail::acquire_library();
  held_ = true;
}

library_guard::library_guard(const library_guard& other) {
  if (other.held_) {
    detail::acquire_library();
    held_ = true;
  }
}

library_guard::library_guard(library_guard&& other) noexcept
    : held_(std::exchange(other.held_, false)) {}

library_guard& library_guard::operator=(library_guard other) noexcept {
  std::swap(held_, other.held_);
  return *this;
}

library_guard::~library_guard() {
  if (held_) detail::release_library();
}

}  // namespace fft
}  // namespace anycl
