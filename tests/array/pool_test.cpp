// SPDX-License-Identifier: Apache-2.0
// The memory pool behind arrays and the algorithms' temporaries: size classes, reuse of freed
// blocks (never while a command still uses one, never when a handle to it was kept), statistics,
// trimming on request and before the global-memory accounting refuses a buffer, ANYCL_POOL=off and
// its bad values, and many threads on one pool. Each test uses a context of its own, so its pool
// starts empty.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "arrays/memory_pool.hpp"
#include "support/device_fixture.hpp"
#include "support/files.hpp"

using Catch::Matchers::Contains;

namespace {

struct fresh {
  anycl::test::env e;
  anycl::context ctx{e.dev};
  anycl::command_queue q{ctx, e.dev};
};

std::vector<float> host_of(const anycl::array<float>& a) { return a.to_host(); }

bool all_equal(const std::vector<float>& v, float x) {
  return std::all_of(v.begin(), v.end(), [x](float y) { return y == x; });
}

}  // namespace

TEST_CASE("pool: size classes are at least the request, under a fifth over it, and stable",
          "[pool]") {
  using anycl::detail::pool_class_size;
  CHECK(pool_class_size(1) == 256);
  CHECK(pool_class_size(256) == 256);
  CHECK(pool_class_size(257) == 320);  // four classes per power of two: 256, 320, 384, 448
  CHECK(pool_class_size(4000) == 4096);
  CHECK(pool_class_size(4097) == 5120);
  std::size_t previous = 0;
  for (std::size_t b = 1; b < (std::size_t(1) << 22); b += 1 + b / 97) {
    const std::size_t c = pool_class_size(b);
    INFO(b << " bytes in a class of " << c);
    REQUIRE(c >= b);
    REQUIRE((c <= 256 || (c - b) * 5 < c));
    REQUIRE(pool_class_size(c) == c);
    REQUIRE(c >= previous);
    previous = c;
  }
  const std::size_t top = SIZE_MAX - 3;
  CHECK(pool_class_size(top) == top);  // no class above it fits size_t
}

TEST_CASE("pool: a freed array's block serves the next array of its size class", "[pool]") {
  fresh f;
  anycl::array<float> keeper(f.q, anycl::shape(1));  // keeps the context's pool alive
  const anycl::pool_statistics s0 = anycl::pool_stats(f.ctx);
  CHECK(s0.enabled);
  CHECK(s0.blocks_in_use == 1);
  cl_mem first = nullptr;
  {
    anycl::array<float> a = anycl::array<float>::full(f.q, anycl::shape(1000), 7.0f);
    CHECK(all_equal(host_of(a), 7.0f));
    first = a.buffer().get();
    CHECK(a.buffer().size() == 4096);  // 4,000 bytes in the class of 4,096
    CHECK(anycl::pool_stats(f.ctx).blocks_in_use == 2);
  }
  anycl::pool_statistics s = anycl::pool_stats(f.ctx);
  CHECK(s.blocks_in_use == 1);
  CHECK(s.blocks_held == 1);
  CHECK(s.bytes_held == 4096);
  // 1,010 floats fall in the same class: the block comes back, with the new array's elements.
  anycl::array<float> b(f.q, anycl::shape(1010));
  CHECK(b.buffer().get() == first);
  b.fill(2.0f);
  CHECK(all_equal(host_of(b), 2.0f));
  s = anycl::pool_stats(f.ctx);
  CHECK(s.hits == s0.hits + 1);
  CHECK(s.blocks_held == 0);
  // Another class is a new buffer.
  anycl::array<float> c(f.q, anycl::shape(2000));
  CHECK(c.buffer().get() != first);
  CHECK(anycl::pool_stats(f.ctx).misses == s.misses + 1);
}

TEST_CASE("pool: the algorithms' temporaries come from the pool and go back to it", "[pool]") {
  fresh f;
  std::vector<float> h(100003);
  std::iota(h.begin(), h.end(), 0.0f);
  anycl::array<float> x = anycl::array<float>::from_host(f.q, h);
  const double want = std::accumulate(h.begin(), h.end(), 0.0);
  CHECK(std::abs(anycl::sum(x) - want) <= 1e-6 * want);
  const anycl::pool_statistics s1 = anycl::pool_stats(f.ctx);
  CHECK(s1.blocks_held > 0);  // the partials and the result, given back
  CHECK(std::abs(anycl::sum(x * 2.0f) - 2 * want) <= 2e-6 * want);
  CHECK(anycl::argmax(x) == h.size() - 1);
  const anycl::pool_statistics s2 = anycl::pool_stats(f.ctx);
  CHECK(s2.hits > s1.hits);
  CHECK(s2.blocks_in_use == 1);  // x only
}

TEST_CASE("pool: a block is never reused while a command on it is pending", "[pool]") {
  // The block of `a` has a fill on queue 1 waiting for a user event; `b` on queue 2, of the same
  // class, must not get it: were it reused without order, the late fill would overwrite b.
  fresh f;
  anycl::command_queue q2(f.ctx, f.e.dev);
  anycl::array<float> keeper(f.q, anycl::shape(1));
  anycl::user_event gate(f.ctx);
  cl_mem first = nullptr;
  {
    anycl::array<float> a(f.q, anycl::shape(1 << 16));
    first = a.buffer().get();
    a.record(gate);
    a.fill(7.0f);  // waits for the gate
  }
  anycl::array<float> b(q2, anycl::shape(1 << 16));
  b.fill(1.0f);
  CHECK(b.buffer().get() != first);
  gate.set_complete();
  CHECK(all_equal(host_of(b), 1.0f));
  keeper.wait();
  f.q.finish();
  // Once the fill is done the block serves the next array, which sees only its own elements.
  anycl::array<float> c(q2, anycl::shape(1 << 16));
  CHECK(c.buffer().get() == first);
  c.fill(3.0f);
  CHECK(all_equal(host_of(c), 3.0f));
}

TEST_CASE("pool: a block whose handle was kept is not reused, and keeps its bytes", "[pool]") {
  fresh f;
  anycl::array<float> keeper(f.q, anycl::shape(1));
  anycl::buffer kept;
  {
    anycl::array<float> a = anycl::array<float>::full(f.q, anycl::shape(500), 5.0f);
    a.wait();
    kept = a.buffer();
  }
  anycl::array<float> b = anycl::array<float>::full(f.q, anycl::shape(500), 9.0f);
  CHECK(b.buffer().get() != kept.get());
  CHECK(all_equal(host_of(b), 9.0f));
  std::vector<float> k = f.q.read(anycl::buffer_view<const float>(kept, 0, 500));
  CHECK(all_equal(k, 5.0f));
  CHECK(anycl::pool_stats(f.ctx).hits == 0);
}

TEST_CASE("pool: trim_pool releases the held blocks; statistics count them", "[pool]") {
  fresh f;
  anycl::array<float> keeper(f.q, anycl::shape(1));
  { std::vector<anycl::array<float>> v(3, anycl::array<float>(f.q, anycl::shape(5000))); }
  { anycl::array<float> one(f.q, anycl::shape(5000)), two(f.q, anycl::shape(5000)); }
  anycl::pool_statistics s = anycl::pool_stats(f.ctx);
  CHECK(s.blocks_held == 2);  // the vector's copies shared one block
  CHECK(s.bytes_held == 2 * anycl::detail::pool_class_size(20000));
  CHECK(anycl::trim_pool(f.ctx) == s.bytes_held);
  const anycl::pool_statistics t = anycl::pool_stats(f.ctx);
  CHECK(t.blocks_held == 0);
  CHECK(t.bytes_held == 0);
  CHECK(t.bytes_trimmed == s.bytes_trimmed + s.bytes_held);
  CHECK(anycl::trim_pool(f.ctx) == 0);
  anycl::array<float> again(f.q, anycl::shape(5000));
  CHECK(anycl::pool_stats(f.ctx).misses == t.misses + 1);
  // A context without arrays has no pool.
  anycl::context other(f.e.dev);
  CHECK(anycl::trim_pool(other) == 0);
  CHECK(anycl::pool_stats(other).blocks_in_use == 0);
  REQUIRE_THROWS_AS(anycl::pool_stats(anycl::context()), std::invalid_argument);
  REQUIRE_THROWS_AS(anycl::trim_pool(anycl::context()), std::invalid_argument);
  REQUIRE_THROWS_WITH(anycl::pool_stats(anycl::context()),
                      Contains("pool_stats") && Contains("context is empty"));
  REQUIRE_THROWS_WITH(anycl::trim_pool(anycl::context()), Contains("trim_pool"));
}

TEST_CASE("pool: ANYCL_POOL=off makes every block a new buffer; bad values are refused", "[pool]") {
  anycl::test::env e;
  {
    anycl::test::scoped_env off("ANYCL_POOL", "off");
    anycl::context ctx(e.dev);
    anycl::command_queue q(ctx, e.dev);
    anycl::array<float> keeper(q, anycl::shape(1));
    { anycl::array<float> a(q, anycl::shape(1000)); }
    anycl::array<float> b = anycl::array<float>::full(q, anycl::shape(1000), 4.0f);
    CHECK(b.buffer().size() == 4000);  // the bytes asked for, no size class
    CHECK(all_equal(host_of(b), 4.0f));
    const anycl::pool_statistics s = anycl::pool_stats(ctx);
    CHECK_FALSE(s.enabled);
    CHECK(s.hits == 0);
    CHECK(s.misses == 3);
    CHECK(s.blocks_held == 0);
    CHECK(s.blocks_in_use == 2);
  }
  anycl::test::scoped_env bad("ANYCL_POOL", "maybe");
  anycl::context ctx(e.dev);
  anycl::command_queue q(ctx, e.dev);
  REQUIRE_THROWS_AS(anycl::array<float>(q, anycl::shape(4)), std::invalid_argument);
  REQUIRE_THROWS_WITH(anycl::array<float>(q, anycl::shape(4)),
                      Contains("ANYCL_POOL='maybe'") && Contains("on") && Contains("off"));
  REQUIRE_THROWS_WITH(anycl::pool_stats(ctx), Contains("ANYCL_POOL='maybe'"));
}

TEST_CASE("pool: held blocks give way to buffers the global-memory accounting would refuse",
          "[pool]") {
  // Catalogue row B-34 with a pool: blocks held for reuse count as live buffers, and are released
  // before a buffer would be refused. Nothing is written, so nothing is really allocated.
  fresh f;
  anycl::array<float> keeper(f.q, anycl::shape(1));
  const std::uint64_t global = f.e.dev.global_memory(), chunk = f.e.dev.max_alloc();
  { anycl::array<std::uint8_t> big(f.q, anycl::shape(static_cast<std::size_t>(chunk))); }
  REQUIRE(anycl::pool_stats(f.ctx).bytes_held >= chunk);
  std::vector<anycl::buffer> held;
  std::uint64_t total = 256;  // the keeper's block
  while (global - total >= chunk) {
    held.emplace_back(f.ctx, static_cast<std::size_t>(chunk));
    total += chunk;
  }
  if (global > total) held.emplace_back(f.ctx, static_cast<std::size_t>(global - total));
  const anycl::pool_statistics s = anycl::pool_stats(f.ctx);
  CHECK(s.blocks_held == 0);
  CHECK(s.bytes_trimmed >= chunk);
  REQUIRE_THROWS_WITH(anycl::array<int>(f.q, anycl::shape(4)),
                      Contains("CL_DEVICE_GLOBAL_MEM_SIZE"));
  held.pop_back();
  anycl::array<float> fits = anycl::array<float>::full(f.q, anycl::shape(256), 1.0f);
  CHECK(all_equal(host_of(fits), 1.0f));
}

TEST_CASE("pool: threads that make and free arrays on one context each see their own elements",
          "[pool]") {
  fresh f;
  anycl::array<float> keeper(f.q, anycl::shape(1));
  auto work = [&](int id, int& bad) {
    anycl::command_queue q(f.ctx, f.e.dev);
    for (int i = 0; i < 40; ++i) {
      const std::size_t n = 100 + static_cast<std::size_t>((i * 37 + id * 11) % 900);
      const float v = static_cast<float>(id * 1000 + i);
      anycl::array<float> a = anycl::array<float>::full(q, anycl::shape(n), v);
      anycl::array<float> b = a + 1.0f;
      const std::vector<float> h = b.to_host();
      if (!all_equal(h, v + 1.0f)) ++bad;
    }
  };
  int bad0 = 0, bad1 = 0;
  std::thread t0(work, 0, std::ref(bad0)), t1(work, 1, std::ref(bad1));
  t0.join();
  t1.join();
  CHECK(bad0 == 0);
  CHECK(bad1 == 0);
  const anycl::pool_statistics s = anycl::pool_stats(f.ctx);
  CHECK(s.hits > 0);
  CHECK(s.blocks_in_use == 1);
}
