// SPDX-License-Identifier: Apache-2.0
// Contexts and command queues: creation, checks, ordering and synchronisation.
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

TEST_CASE("context: holds the devices it was made for", "[context]") {
  anycl::test::env e;
  auto devs = e.ctx.devices();
  REQUIRE(devs.size() == 1);
  CHECK(devs[0] == e.dev);
  CHECK(e.ctx.platform() == e.dev.platform());
  anycl::context copy = e.ctx;
  CHECK(copy == e.ctx);
  anycl::context moved = std::move(copy);
  CHECK(moved == e.ctx);
  CHECK_FALSE(copy);  // NOLINT: moved-from handles are null
  CHECK(anycl::context::retain(e.ctx.get()) == e.ctx);
}

TEST_CASE("context: bad device lists are refused", "[context]") {
  REQUIRE_THROWS_WHAT(anycl::context(std::vector<anycl::device>{}), std::invalid_argument,
                      Contains("no devices"));
  REQUIRE_THROWS_WHAT(anycl::context(std::vector<anycl::device>{anycl::device()}),
                      std::invalid_argument, Contains("null"));
}

TEST_CASE("command_queue: a device outside the context is refused", "[queue]") {
  anycl::test::env e;
  // (Two distinct devices are needed for the membership check: see the [.multi] test.)
  auto subs = e.dev.create_sub_devices_equally(1);
  anycl::context sub_ctx(subs[0]);
  CHECK(anycl::command_queue(sub_ctx, subs[0]).device() == subs[0]);
  REQUIRE_THROWS_WHAT(anycl::command_queue(anycl::context(), e.dev), std::invalid_argument,
                      Contains("context is empty"));
}

TEST_CASE("command_queue: properties, device and context round-trip", "[queue]") {
  anycl::test::env e;
  auto p = e.queue.properties();
  CHECK(p.profiling);
  CHECK_FALSE(p.out_of_order);
  CHECK(e.queue.device() == e.dev);
  CHECK(e.queue.context() == e.ctx);
  anycl::command_queue plain(e.dev);
  CHECK_FALSE(plain.properties().profiling);
  CHECK(plain.context() != e.ctx);
  auto q2 = anycl::command_queue::retain(e.queue.get());
  CHECK(q2.device_id() == e.dev.get());
  auto q3 = anycl::command_queue::from_spec("all");
  CHECK(q3);
}

TEST_CASE("command_queue: an out-of-order queue orders commands by wait lists", "[queue]") {
  anycl::test::env e;
  anycl::command_queue q;
  try {
    q = anycl::command_queue(e.ctx, e.dev, {true, false});
  } catch (const anycl::api_error& err) {
    // Out-of-order execution is optional; POCL supports it, so this path is for other drivers.
    REQUIRE(err.status() == CL_INVALID_QUEUE_PROPERTIES);
    return;
  }
  CHECK(q.properties().out_of_order);
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  auto add_one = prog.function<anycl::buffer_view<int>>("add_one");
  anycl::buffer buf(e.ctx, 256 * sizeof(int));
  anycl::buffer_view<int> v(buf);
  anycl::event filled = q.fill(v, 0);
  anycl::event last = filled;
  for (int i = 0; i < 10; ++i) last = add_one(q, anycl::nd_range{256}, {last}, v);
  std::vector<int> host(256);
  q.read(v, host.data(), {last});
  for (int x : host) CHECK(x == 10);
  anycl::event b = q.barrier();
  anycl::event m = q.marker({b});
  m.wait();
  CHECK(m.status() == anycl::event_status::complete);
  q.flush();
  q.finish();
}

TEST_CASE("command_queue: an empty queue is refused with a message", "[queue]") {
  anycl::command_queue q;
  REQUIRE_THROWS_WHAT(q.finish(), std::invalid_argument, Contains("queue is empty"));
  REQUIRE_THROWS_AS(q.marker(), std::invalid_argument);
}
