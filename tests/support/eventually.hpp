// SPDX-License-Identifier: Apache-2.0
// Waiting for what a driver finishes on its own threads, a moment after the call that caused it
// (POCL releases a finished command's references on its worker thread), which no API waits for.
#pragma once

#include <chrono>
#include <thread>

namespace anycl::test {

/// Calls `done` until it returns true, up to `tries` times, sleeping `step` between calls.
/// Returns its last answer.
template <class F>
bool eventually(F&& done, int tries, std::chrono::milliseconds step) {
  for (int i = 1; i < tries; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(step);
  }
  return done();
}

}  // namespace anycl::test
