// SPDX-License-Identifier: Apache-2.0
// Events: user events as gates, failures, profiling times and exception-safe callbacks.
#include <atomic>
#include <stdexcept>

#include "support/device_fixture.hpp"
#include "support/quirks.hpp"

using Catch::Matchers::Contains;

TEST_CASE("event: a user event gates the commands that wait on it", "[event]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  e.queue.fill(anycl::buffer_view<int>(buf), 1).wait();
  anycl::user_event gate(e.ctx);
  CHECK(gate.status() == anycl::event_status::submitted);
  anycl::event run = e.queue.launch_after({gate}, prog.kernel("add_one"), anycl::nd_range{64}, buf);
  CHECK(run.status() != anycl::event_status::complete);
  gate.set_complete();
  run.wait();
  CHECK(run.status() == anycl::event_status::complete);
  CHECK(run.raw_status() == CL_COMPLETE);
  for (int v : e.queue.read(anycl::buffer_view<int>(buf))) CHECK(v == 2);
  REQUIRE_THROWS_WHAT(gate.set_complete(), anycl::api_error, Contains("clSetUserEventStatus"));
}

TEST_CASE("event: a failed dependency surfaces at wait() and the queue stays usable", "[event]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  e.queue.fill(anycl::buffer_view<int>(buf), 7).wait();
  anycl::user_event gate(e.ctx);
  anycl::event run = e.queue.launch_after({gate}, prog.kernel("add_one"), anycl::nd_range{64}, buf);
  gate.set_error(-5);
  CHECK(gate.status() == anycl::event_status::error);
  REQUIRE_THROWS_WHAT(gate.wait(), anycl::api_error, Contains("clWaitForEvents"));
  try {
    run.wait();
    FAIL("waiting on a command whose dependency failed did not throw");
  } catch (const anycl::api_error& err) {
    CHECK(err.status() < 0);
    CHECK_THAT(err.what(), Contains("failed"));
  }
  // The queue still works.
  e.queue.launch(prog.kernel("add_one"), anycl::nd_range{64}, buf).wait();
  // 7 + the one launch that ran: the command behind the failed gate did not.
  for (int v : e.queue.read(anycl::buffer_view<int>(buf))) CHECK(v == 8);
  REQUIRE_THROWS_WHAT(gate.set_error(3), std::invalid_argument, Contains("not negative"));
}

TEST_CASE("event: profiling times are ordered and need a profiling queue", "[event]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  anycl::buffer buf(e.ctx, 4096 * sizeof(int));
  anycl::event run = e.queue.launch(prog.kernel("write_index"), anycl::nd_range{4096}, buf);
  run.wait();
  CHECK(run.queued_time() <= run.submit_time());
  CHECK(run.submit_time() <= run.start_time());
  CHECK(run.start_time() <= run.end_time());
  CHECK(run.duration() == run.end_time() - run.start_time());

  anycl::command_queue plain(e.ctx, e.dev);
  anycl::event p = plain.launch(prog.kernel("write_index"), anycl::nd_range{64}, buf);
  p.wait();
  REQUIRE_THROWS_WHAT(p.duration(), anycl::api_error,
                      Contains("CL_PROFILING_INFO_NOT_AVAILABLE") && Contains("profiling"));
}

TEST_CASE("event: callbacks run once with the final status", "[event][callback]") {
  anycl::test::env e;
  anycl::user_event gate(e.ctx);
  std::atomic<int> calls{0};
  std::atomic<cl_int> seen{1};
  gate.on_complete([&](cl_int status) {
    seen = status;
    ++calls;
  });
  anycl::event m = e.queue.marker({gate});
  std::atomic<cl_int> marker_status{1};
  m.on_complete([&](cl_int status) { marker_status = status; });
  gate.set_complete();
  gate.wait();
  m.wait();
  CHECK(calls == 1);
  CHECK(seen == CL_COMPLETE);
  CHECK(marker_status == CL_COMPLETE);
}

TEST_CASE("event: an exception thrown by a callback is rethrown from wait()", "[event][callback]") {
  anycl::test::env e;
  SECTION("a user event (callback on the setting thread)") {
    anycl::user_event gate(e.ctx);
    gate.on_complete([](cl_int) { throw std::runtime_error("callback failed on purpose"); });
    gate.set_complete();
    REQUIRE_THROWS_WHAT(gate.wait(), std::runtime_error, Contains("callback failed on purpose"));
    anycl::event copy = gate;  // copies share what the callback left
    REQUIRE_THROWS_AS(copy.wait(), std::runtime_error);
  }
  SECTION("a command event (callback on a driver thread)") {
    anycl::event m = e.queue.marker();
    m.on_complete([](cl_int) { throw std::logic_error("driver-thread callback failed"); });
    REQUIRE_THROWS_WHAT(m.wait(), std::logic_error, Contains("driver-thread callback failed"));
  }
  SECTION("a failed user event passes its status to the callback") {
    anycl::user_event gate(e.ctx);
    if (anycl::test::quirks::no_callbacks_on_failed_user_event(e.dev)) {
      // The callback would never run and its data would leak; check the failure alone.
      gate.set_error(-7);
      REQUIRE_THROWS_WHAT(gate.wait(), anycl::api_error, Contains("(-7)"));
      return;
    }
    std::atomic<cl_int> seen{0};
    gate.on_complete([&](cl_int status) { seen = status; });
    gate.set_error(-7);
    REQUIRE_THROWS_WHAT(gate.wait(), anycl::api_error, Contains("(-7)"));
    CHECK(seen == -7);
  }
}

TEST_CASE("event: empty events and empty callbacks", "[event]") {
  anycl::event none;
  CHECK_FALSE(none);
  CHECK_NOTHROW(none.wait());
  REQUIRE_THROWS_WHAT(none.status(), std::invalid_argument, Contains("empty event"));
  REQUIRE_THROWS_AS(none.on_complete([](cl_int) {}), std::invalid_argument);
  anycl::test::env e;
  anycl::event m = e.queue.marker();
  REQUIRE_THROWS_WHAT(m.on_complete(nullptr), std::invalid_argument, Contains("empty callback"));
  anycl::wait_all({m, e.queue.marker()});
  CHECK(m.status() == anycl::event_status::complete);
  CHECK(anycl::event::retain(m.get()).get() == m.get());
}
