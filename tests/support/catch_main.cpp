// SPDX-License-Identifier: Apache-2.0
// The one translation unit that compiles Catch2's implementation; each suite adds a setup hook.
// Every test must end with no live OpenCL handles (anycl/debug.hpp): a test that leaves any is
// named on stderr and the run fails.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>

#include "anycl/debug.hpp"
#include "anycl/kernel_loader.hpp"
#include "support/eventually.hpp"
#include "support/setup.hpp"

namespace {

std::atomic<int> tests_with_live_handles{0};

anycl::debug::handle_counts minus(anycl::debug::handle_counts a,
                                  const anycl::debug::handle_counts& b) {
  a.devices -= b.devices;
  a.contexts -= b.contexts;
  a.queues -= b.queues;
  a.mems -= b.mems;
  a.programs -= b.programs;
  a.kernels -= b.kernels;
  a.events -= b.events;
  return a;
}

struct live_handle_listener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    // A program's first launch saves its binary to the disk cache from the launch's completion
    // callback, holding the program and the event until then: let those saves finish.
    try {
      anycl::wait_for_cache_writes();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: waiting for cache writes after test \"%s\": %s\n",
                   stats.testInfo.name.c_str(), e.what());
      ++tests_with_live_handles;
    }
    // The save's callback releases them when it returns, on the driver's thread, which no API
    // waits for: give that a moment. A handle still live after it, beyond those the fixtures
    // keep, is a leak.
    anycl::debug::handle_counts live;
    const bool none = anycl::test::eventually(
        [&] {
          live = minus(anycl::debug::live_handles(), anycl::test::kept_handles());
          return live.total() == 0;
        },
        2001, std::chrono::milliseconds(1));
    if (none) return;
    std::fprintf(stderr, "error: test \"%s\" ended with live OpenCL handles: %s\n",
                 stats.testInfo.name.c_str(), live.to_string().c_str());
    ++tests_with_live_handles;
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(live_handle_listener)

int main(int argc, char** argv) {
  int status = anycl::test::suite_setup();
  if (status >= 0) return status;
  status = Catch::Session().run(argc, argv);
  anycl::test::release_kept_handles();
  if (status == 0 && tests_with_live_handles > 0) status = 1;
  return status;
}
