// SPDX-License-Identifier: Apache-2.0
// Typed and untyped launches, geometry, __local memory, pre-driver checks and thread safety.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <thread>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {
struct launch_env : anycl::test::env {
  anycl::program prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
};
}  // namespace

TEST_CASE("launch: a typed kernel_function computes saxpy like the host", "[launch]") {
  launch_env e;
  const cl_uint n = 1000;
  const unsigned seed = 77;
  INFO("random seed " << seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-10, 10);
  std::vector<float> x(n), y(n);
  for (auto& v : x) v = dist(rng);
  for (auto& v : y) v = dist(rng);
  auto xb = anycl::buffer::from(e.ctx, x);
  auto yb = anycl::buffer::from(e.ctx, y);
  auto saxpy =
      e.prog.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "saxpy");
  // The global size is rounded up to a multiple of 64; the kernel guards i < n.
  saxpy(e.queue, anycl::nd_range{1024, 64}, n, 3, xb, yb);  // 3 converts to float
  auto out = e.queue.read(anycl::buffer_view<float>(yb));
  // The device may contract to fma, the host may not: allow a few ulps of the operands (|.| <= 40).
  for (cl_uint i = 0; i < n; ++i) CHECK(out[i] == Approx(3.0f * x[i] + y[i]).margin(2e-5));
}

TEST_CASE("launch: untyped queue.launch with 1, 2 and 3 dimensions", "[launch]") {
  launch_env e;
  anycl::buffer out(e.ctx, 48 * 64 * sizeof(int));
  e.queue.launch(e.prog.kernel("index_2d"), anycl::nd_range{{48, 64}, {16, 8}}, out, cl_uint{48});
  auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 48; ++x) REQUIRE(v[y * 48 + x] == 1000 * y + x);
  anycl::buffer out3(e.ctx, 8 * 4 * 2 * sizeof(int));
  e.queue.launch(e.prog.kernel("index_3d"), anycl::nd_range{{8, 4, 2}}, out3);
  auto v3 = e.queue.read(anycl::buffer_view<int>(out3));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 8; ++x) REQUIRE(v3[(z * 4 + y) * 8 + x] == 10000 * z + 100 * y + x);
}

TEST_CASE("launch: an offset shifts the global ids", "[launch]") {
  launch_env e;
  anycl::buffer out(e.ctx, 64 * sizeof(int));
  e.queue.fill(anycl::buffer_view<int>(out), -1);
  e.queue.launch(e.prog.kernel("write_index"), anycl::nd_range{{16}, {}, {32}}, out);
  auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 64; ++i) CHECK(v[i] == (i >= 32 && i < 48 ? i : -1));
}

TEST_CASE("launch: __local memory arguments", "[launch]") {
  launch_env e;
  const std::size_t n = 1024, local = 64;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i % 97) - 40;
  auto inb = anycl::buffer::from(e.ctx, in);
  anycl::buffer outb(e.ctx, n / local * sizeof(int));
  auto sum = e.prog.function<anycl::buffer_view<const int>, anycl::buffer_view<int>,
                             anycl::local_memory<int>>("group_sum");
  sum(e.queue, anycl::nd_range{n, local}, inb, outb, anycl::local_memory<int>(local));
  auto out = e.queue.read(anycl::buffer_view<int>(outb));
  for (std::size_t g = 0; g < n / local; ++g) {
    int expect = 0;
    for (std::size_t i = 0; i < local; ++i) expect += in[g * local + i];
    CHECK(out[g] == expect);
  }
}

TEST_CASE("launch: arity and argument mismatches are clear errors", "[launch]") {
  launch_env e;
  REQUIRE_THROWS_WHAT((e.prog.function<cl_uint, float>("saxpy")), std::invalid_argument,
                      Contains("'saxpy'") && Contains("takes 4 arguments") && Contains("lists 2"));
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  REQUIRE_THROWS_WHAT(e.queue.launch(e.prog.kernel("add_one"), anycl::nd_range{64}),
                      std::invalid_argument, Contains("0 arguments given, it takes 1"));
  // A double where the kernel declares int: the driver's size check, with the argument named.
  REQUIRE_THROWS_WHAT(
      e.queue.launch(e.prog.kernel("affine"), anycl::nd_range{8}, buf, 2.0), anycl::api_error,
      Contains("CL_INVALID_ARG_SIZE") && Contains("argument 1 (8 bytes)") && Contains("'affine'"));
  REQUIRE_THROWS_WHAT(e.queue.launch(e.prog.kernel("add_one"), anycl::nd_range{8},
                                     anycl::buffer_view<int>(buf, 4, 4)),
                      std::invalid_argument,
                      Contains("'add_one'") && Contains("argument 0") &&
                          Contains("starting at byte 16") && Contains("sub_buffer"));
  // The same through a kernel_function, and even over an empty range (nothing would run).
  auto add_one = e.prog.function<anycl::buffer_view<int>>("add_one");
  REQUIRE_THROWS_WHAT(add_one(e.queue, anycl::nd_range{0}, anycl::buffer_view<int>(buf, 1, 4)),
                      std::invalid_argument, Contains("starting at byte 4"));
  REQUIRE_THROWS_WHAT(e.queue.launch(anycl::kernel(), anycl::nd_range{8}), std::invalid_argument,
                      Contains("kernel is empty"));
  REQUIRE_THROWS_WHAT(anycl::command_queue().launch(e.prog.kernel("empty"), anycl::nd_range{1}),
                      std::invalid_argument, Contains("queue is empty"));
}

TEST_CASE("launch: bad geometry is refused before the driver", "[launch]") {
  launch_env e;
  anycl::kernel k = e.prog.kernel("write_index");
  anycl::buffer buf(e.ctx, 1024 * sizeof(int));
  REQUIRE_THROWS_WHAT(
      e.queue.launch(k, anycl::nd_range{65, 8}, buf), std::invalid_argument,
      Contains("global size 65 is not a multiple of local size 8") && Contains("72"));
  // A 2-D work-group within the per-dimension limits whose product exceeds the kernel's limit.
  const std::size_t wg = k.work_group(e.dev).work_group_size;
  const auto items = e.dev.max_work_item_sizes();
  const std::size_t l0 = std::min(items[0], wg), l1 = wg / l0 + 1;
  REQUIRE(l1 <= items[1]);
  REQUIRE_THROWS_WHAT(e.queue.launch(e.prog.kernel("index_2d"), anycl::nd_range{{l0, l1}, {l0, l1}},
                                     buf, cl_uint{1}),
                      std::invalid_argument, Contains("CL_KERNEL_WORK_GROUP_SIZE"));
  REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{items[0] * 2, items[0] * 2}, buf),
                      std::invalid_argument, Contains("CL_DEVICE_MAX_WORK_ITEM_SIZES"));
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{max}, buf), std::invalid_argument,
                      Contains("work-items per launch"));
  REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{{1u << 20, 1u << 20, 1u << 20}}, buf),
                      std::invalid_argument, Contains("exceeds the limit"));
  REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{{16}, {}, {max - 4}}, buf),
                      std::out_of_range, Contains("overflows"));
  REQUIRE_THROWS_WHAT(anycl::nd_range(anycl::range{}), std::invalid_argument,
                      Contains("0 dimensions"));
  // The same kernel still runs afterwards.
  e.queue.launch(k, anycl::nd_range{1024, 16}, buf);
  auto v = e.queue.read(anycl::buffer_view<int>(buf));
  CHECK(v[1023] == 1023);
}

TEST_CASE("launch: a global size of 0 is a no-op that respects the wait list", "[launch]") {
  launch_env e;
  anycl::buffer buf(e.ctx, 16 * sizeof(int));
  e.queue.fill(anycl::buffer_view<int>(buf), 5);
  anycl::user_event gate(e.ctx);
  anycl::event none =
      e.queue.launch_after({gate}, e.prog.kernel("add_one"), anycl::nd_range{0}, buf);
  CHECK(none.status() != anycl::event_status::complete);
  gate.set_complete();
  none.wait();
  for (int v : e.queue.read(anycl::buffer_view<int>(buf))) CHECK(v == 5);
}

TEST_CASE("launch: __local memory beyond the device's is refused before the driver", "[launch]") {
  launch_env e;
  auto sum = e.prog.function<anycl::buffer_view<const int>, anycl::buffer_view<int>,
                             anycl::local_memory<int>>("group_sum");
  anycl::buffer in(e.ctx, 64 * sizeof(int)), out(e.ctx, sizeof(int));
  const std::size_t too_many = static_cast<std::size_t>(e.dev.local_memory() / sizeof(int)) + 1;
  REQUIRE_THROWS_WHAT(
      sum(e.queue, anycl::nd_range{64, 64}, in, out, anycl::local_memory<int>(too_many)),
      std::invalid_argument, Contains("__local memory") && Contains("CL_DEVICE_LOCAL_MEM_SIZE"));
  REQUIRE_THROWS_WHAT(sum(e.queue, anycl::nd_range{64, 64}, in, out, anycl::local_memory<int>(0)),
                      std::invalid_argument, Contains("size 0"));
  // Static __local in the kernel counts too.
  const auto words = std::to_string(e.dev.local_memory() / sizeof(int) / 2 + 16);
  auto big = anycl::test::build(e.ctx, "tests/cl_kernels/big_local.cl",
                                anycl::build_options{}.define("WORDS", words));
  auto k = big.kernel("big_local");
  // The kernel alone fits; nothing else is passed, so this launch must work.
  e.queue.launch(k, anycl::nd_range{16, 16}, out).wait();
}

TEST_CASE("launch: one kernel object launched from 8 threads gives correct results",
          "[launch][threads]") {
  launch_env e;
  auto affine = e.prog.function<anycl::buffer_view<int>, int>("affine");
  constexpr int threads = 8, iterations = 200, n = 64;
  std::vector<anycl::buffer> outs;
  for (int t = 0; t < threads; ++t) outs.emplace_back(e.ctx, n * sizeof(int));
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      anycl::command_queue own(e.ctx, e.dev);  // queue per thread, kernel shared
      for (int it = 0; it < iterations; ++it) {
        const int value = t * 1000 + it;
        affine(t % 2 == 0 ? own : e.queue, anycl::nd_range{n}, outs[t], value);
        auto v = (t % 2 == 0 ? own : e.queue).read(anycl::buffer_view<int>(outs[t]));
        for (int i = 0; i < n; ++i) wrong[t] += v[i] != value * i;
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(wrong[t] == 0);
}
