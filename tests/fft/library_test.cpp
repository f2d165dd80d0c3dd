// SPDX-License-Identifier: Apache-2.0
// clFFT's process-wide setup: the guard sets clFFT up once for any number of plans and tears it
// down once when the last ends (setup/teardown cycles work); one plan executed from many threads
// at once gives every thread its right result; clFFT's kernel builds leave stderr clean.
#include <stdlib.h>  // setenv

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "anycl/fft.hpp"
#include "fft/counters.hpp"
#include "support/device_fixture.hpp"
#include "support/fft_reference.hpp"
#include "support/stderr_capture.hpp"

using anycl::fft::plan_desc;
using anycl::test::cd;
using anycl::test::stderr_of;
using Catch::Matchers::Contains;
using cf = std::complex<float>;

namespace {

anycl::detail::fft_counters counters() { return anycl::detail::fft_library_counters(); }

// One forward transform of 16 points on `p`, checked against the host DFT.
void transform_and_check(const anycl::test::env& e, const anycl::fft::plan& p, std::uint32_t seed) {
  const std::vector<cd> x = anycl::test::random_values(16, false, seed);
  std::vector<cf> xf(x.begin(), x.end());
  anycl::buffer in = anycl::buffer::from(e.ctx, xf);
  anycl::buffer out(e.ctx, in.size());
  p.execute(e.queue, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(out)).wait();
  const std::vector<cf> got = e.queue.read(anycl::buffer_view<cf>(out));
  const std::vector<cd> want = anycl::test::host_dft(x, {16}, -1);
  INFO("seed " << seed);
  REQUIRE(anycl::test::relative_error(std::vector<cd>(got.begin(), got.end()), want) < 2e-5);
}

}  // namespace

TEST_CASE("fft library: set up once for many plans, torn down once after the last", "[library]") {
  anycl::test::env e;
  REQUIRE(counters().guards == 0);
  const auto start = counters();
  {
    anycl::fft::plan a(e.queue, plan_desc::c2c({16}));
    CHECK(counters().setups == start.setups + 1);
    CHECK(counters().guards == 1);
    {
      anycl::fft::plan b(e.queue, plan_desc::c2c({16}));
      CHECK(counters().setups == start.setups + 1);  // no second clfftSetup
      CHECK(counters().guards == 2);
      transform_and_check(e, b, 1);
    }
    CHECK(counters().teardowns == start.teardowns);  // a is alive: no teardown
    transform_and_check(e, a, 2);
  }
  CHECK(counters().guards == 0);
  CHECK(counters().teardowns == start.teardowns + 1);
}

TEST_CASE("fft library: setup, teardown, setup cycles keep working", "[library]") {
  anycl::test::env e;
  const auto start = counters();
  for (std::uint32_t cycle = 0; cycle < 3; ++cycle) {
    INFO("cycle " << cycle);
    anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
    transform_and_check(e, p, 10 + cycle);
  }
  CHECK(counters().setups == start.setups + 3);
  CHECK(counters().teardowns == start.teardowns + 3);
}

TEST_CASE("fft library: guards for code calling clFFT directly; copies and moves count",
          "[library]") {
  anycl::test::env e;
  const auto start = counters();
  {
    anycl::fft::library_guard g;
    CHECK(counters().guards == 1);
    anycl::fft::library_guard copy = g;
    CHECK(counters().guards == 2);
    anycl::fft::library_guard moved = std::move(copy);
    CHECK(counters().guards == 2);
    copy = moved;  // assigns to the moved-from guard: one more reference
    CHECK(counters().guards == 3);
    {
      anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
      transform_and_check(e, p, 20);
    }
    CHECK(counters().teardowns == start.teardowns);  // the guards keep clFFT set up
  }
  CHECK(counters().guards == 0);
  CHECK(counters().setups == start.setups + 1);
  CHECK(counters().teardowns == start.teardowns + 1);
}

TEST_CASE("fft library: a refused plan neither sets up nor tears down clFFT", "[library]") {
  anycl::test::env e;
  const auto start = counters();
  CHECK_THROWS_AS(anycl::fft::plan(e.queue, plan_desc::c2c({17})), std::invalid_argument);
  CHECK(counters().calls == start.calls);
  CHECK(counters().setups == start.setups);
  CHECK(counters().guards == 0);
}

TEST_CASE("fft library: one plan executed from four threads at once", "[library][threads]") {
  anycl::test::env e;
  anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
  anycl::fft::plan twin(e.queue, plan_desc::c2c({16}));  // shares clFFT's kernels with p
  constexpr int threads = 4, rounds = 25;
  std::vector<std::string> failures(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        // Each thread has a queue of its own on the plan's context and device.
        anycl::command_queue q(e.ctx, e.dev);
        const anycl::fft::plan& use = t % 2 == 0 ? p : twin;
        for (int r = 0; r < rounds; ++r) {
          const std::uint32_t seed = static_cast<std::uint32_t>(1000 * t + r);
          const std::vector<cd> x = anycl::test::random_values(16, false, seed);
          std::vector<cf> xf(x.begin(), x.end());
          anycl::buffer in = anycl::buffer::from(e.ctx, xf);
          anycl::buffer out(e.ctx, in.size());
          use.execute(q, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(out)).wait();
          const std::vector<cf> got = q.read(anycl::buffer_view<cf>(out));
          const std::vector<cd> want = anycl::test::host_dft(x, {16}, -1);
          const double err =
              anycl::test::relative_error(std::vector<cd>(got.begin(), got.end()), want);
          if (err > 2e-5)
            failures[t] += "seed " + std::to_string(seed) + ": error " + std::to_string(err) + "; ";
        }
      } catch (const std::exception& ex) {
        failures[t] += ex.what();
      }
    });
  for (std::thread& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    CHECK(failures[t].empty());
    if (!failures[t].empty()) WARN(failures[t]);
  }
}

// CTest runs this with POCL_KERNEL_CACHE=0, so that POCL's Clang compiles clFFT's generated kernels
// (which have warnings) for every plan: first with ANYCL_COMPILER_OUTPUT=1, which shows the
// compiler's summary line (so the check can see it), then without, which must not.
TEST_CASE("fft library: clFFT's kernel builds print no compiler summary", "[.fft_quiet]") {
  for (const char* output : {"1", "0"}) {
    INFO("ANYCL_COMPILER_OUTPUT=" << output);
    ::setenv("ANYCL_COMPILER_OUTPUT", output, 1);
    anycl::test::env e;
    const std::string err = stderr_of([&] {
      anycl::fft::plan p(e.queue, plan_desc::c2c({1024}));
      (void)p;
    });
    ::unsetenv("ANYCL_COMPILER_OUTPUT");
    if (std::string(output) == "1")
      CHECK_THAT(err, Contains("generated."));
    else
      CHECK_THAT(err, !Contains("generated."));
  }
}
