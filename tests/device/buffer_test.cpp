// SPDX-License-Identifier: Apache-2.0
// Buffers and transfers: round trips, views, sub-buffers, maps, async ownership, checked ranges.
#include <cstdint>
#include <limits>
#include <numeric>
#include <type_traits>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {
std::vector<int> iota(std::size_t n, int start = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}
}  // namespace

TEST_CASE("buffer: write then read returns the same data", "[buffer][transfer]") {
  anycl::test::env e;
  auto host = iota(1000, -500);
  anycl::buffer buf(e.ctx, host.size() * sizeof(int));
  CHECK(buf.size() == 4000);
  anycl::buffer_view<int> v(buf);
  e.queue.write(v, host);
  CHECK(e.queue.read(v) == host);
  auto from = anycl::buffer::from(e.ctx, host, anycl::memory_access::read_only);
  CHECK(e.queue.read(anycl::buffer_view<const int>(from)) == host);
  CHECK(from.context() == e.ctx);
  CHECK(anycl::buffer::retain(buf.get()).size() == buf.size());
}

TEST_CASE("buffer: views and subviews address the right elements", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 100 * sizeof(int));
  anycl::buffer_view<int> all(buf);
  e.queue.write(all, iota(100));
  anycl::buffer_view<int> mid(buf, 10, 20);
  CHECK(mid.byte_offset() == 40);
  CHECK(e.queue.read(mid) == iota(20, 10));
  auto inner = mid.subview(5, 5);
  CHECK(inner.offset() == 15);
  e.queue.write(inner, std::vector<int>(5, -1));
  auto back = e.queue.read(all);
  for (int i = 0; i < 100; ++i) CHECK(back[i] == (i >= 15 && i < 20 ? -1 : i));
  anycl::buffer_view<const int> ro = mid;
  CHECK(ro.size() == 20);
  REQUIRE_THROWS_WHAT(anycl::buffer_view<int>(buf, 90, 11), std::out_of_range,
                      Contains("exceeds the size 100"));
  REQUIRE_THROWS_AS(mid.subview(15, 6), std::out_of_range);
  anycl::buffer odd(e.ctx, 10);
  REQUIRE_THROWS_WHAT(anycl::buffer_view<int>{odd}, std::invalid_argument,
                      Contains("10 bytes") && Contains("4-byte"));
}

TEST_CASE("buffer: transfers out of range are refused before the driver", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  std::vector<int> host(65);
  REQUIRE_THROWS_WHAT(e.queue.read_bytes(buf, 0, 65 * sizeof(int), host.data()), std::out_of_range,
                      Contains("read") && Contains("256"));
  const std::size_t huge = std::numeric_limits<std::size_t>::max() - 4;
  REQUIRE_THROWS_AS(e.queue.write_bytes(buf, 8, huge, host.data()), std::out_of_range);
  REQUIRE_THROWS_AS(e.queue.read_bytes(buf, huge, 8, host.data()), std::out_of_range);
  REQUIRE_THROWS_AS(e.queue.copy_bytes(buf, 0, buf, 200, 100), std::out_of_range);
  REQUIRE_THROWS_AS(e.queue.fill_bytes(buf, 252, 8, host.data(), 4), std::out_of_range);
  REQUIRE_THROWS_AS(e.queue.map_bytes(buf, 0, 257, anycl::map_access::read), std::out_of_range);
  REQUIRE_THROWS_WHAT(e.queue.write(anycl::buffer_view<int>(buf), std::vector<int>(3)),
                      std::invalid_argument, Contains("3 elements"));
  REQUIRE_THROWS_WHAT(e.queue.read_bytes(buf, 0, 4, nullptr), std::invalid_argument,
                      Contains("null host pointer"));
  // The buffer is still usable.
  e.queue.write(anycl::buffer_view<int>(buf), iota(64));
  CHECK(e.queue.read(anycl::buffer_view<int>(buf)) == iota(64));
}

TEST_CASE("buffer: zero-size transfers and empty buffers are no-ops", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer empty(e.ctx, 0);
  CHECK(empty.get() == nullptr);
  CHECK(empty.empty());
  anycl::buffer_view<int> ev(empty);
  CHECK(e.queue.read(ev).empty());
  e.queue.write(ev, std::vector<int>{});
  anycl::buffer buf(e.ctx, 16);
  anycl::event c = e.queue.copy_bytes(buf, 0, buf, 8, 0);  // drivers disagree on this; AnyCL no-ops
  c.wait();
  CHECK(c.status() == anycl::event_status::complete);
  e.queue.fill(ev, 3).wait();
  auto pr = e.queue.enqueue_read(ev);
  CHECK(pr.get().empty());
  auto m = e.queue.map(ev);
  CHECK(m.size() == 0);
  CHECK(anycl::buffer(e.ctx, nullptr, 0).empty());
  REQUIRE_THROWS_WHAT(anycl::buffer(e.ctx, nullptr, 8), std::invalid_argument,
                      Contains("null host data"));
}

TEST_CASE("buffer: allocations above the device limit name the limit", "[buffer]") {
  anycl::test::env e;
  const cl_ulong limit = e.dev.max_alloc();
  try {
    anycl::buffer b(e.ctx, static_cast<std::size_t>(limit) + 1);
    FAIL("an allocation above CL_DEVICE_MAX_MEM_ALLOC_SIZE was accepted");
  } catch (const anycl::api_error& err) {
    CHECK(err.status() == CL_INVALID_BUFFER_SIZE);
    CHECK_THAT(err.what(),
               Contains(std::to_string(limit)) && Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
  }
  REQUIRE_THROWS_AS(anycl::buffer(e.ctx, std::numeric_limits<std::size_t>::max()),
                    anycl::api_error);
}

TEST_CASE("buffer: copies between and within buffers", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer a = anycl::buffer::from(e.ctx, iota(64));
  anycl::buffer b(e.ctx, 64 * sizeof(int));
  e.queue.copy(anycl::buffer_view<int>(a), anycl::buffer_view<int>(b)).wait();
  CHECK(e.queue.read(anycl::buffer_view<int>(b)) == iota(64));
  // Non-overlapping halves of one buffer.
  e.queue.copy(anycl::buffer_view<int>(a, 0, 32), anycl::buffer_view<int>(a, 32, 32)).wait();
  auto back = e.queue.read(anycl::buffer_view<int>(a));
  for (int i = 0; i < 64; ++i) CHECK(back[i] == i % 32);
  REQUIRE_THROWS_WHAT(
      e.queue.copy(anycl::buffer_view<int>(a, 0, 32), anycl::buffer_view<int>(a, 16, 32)),
      std::invalid_argument, Contains("overlap"));
  REQUIRE_THROWS_AS(
      e.queue.copy(anycl::buffer_view<int>(a, 0, 8), anycl::buffer_view<int>(b, 0, 9)),
      std::invalid_argument);
}

TEST_CASE("buffer: fill sets every element, and bad patterns are refused", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 1024 * sizeof(double));
  e.queue.fill(anycl::buffer_view<double>(buf), 2.5).wait();
  for (double v : e.queue.read(anycl::buffer_view<double>(buf))) CHECK(v == 2.5);
  e.queue.fill(anycl::buffer_view<std::uint8_t>(buf, 3, 5), std::uint8_t{0xff}).wait();
  auto bytes = e.queue.read(anycl::buffer_view<std::uint8_t>(buf, 0, 16));
  CHECK(bytes[2] == 0x00);
  CHECK(bytes[3] == 0xff);
  CHECK(bytes[7] == 0xff);
  int pattern = 0;
  REQUIRE_THROWS_WHAT(e.queue.fill_bytes(buf, 0, 12, &pattern, 3), std::invalid_argument,
                      Contains("power of two"));
  REQUIRE_THROWS_WHAT(e.queue.fill_bytes(buf, 2, 8, &pattern, 4), std::invalid_argument,
                      Contains("multiples of the pattern size"));
}

TEST_CASE("buffer: sub-buffers alias their parent and check alignment", "[buffer]") {
  anycl::test::env e;
  const std::size_t align = e.dev.info<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  anycl::buffer parent = anycl::buffer::from(e.ctx, iota(static_cast<std::size_t>(align)));
  anycl::buffer sub = parent.sub_buffer(align, align);
  CHECK(sub.size() == align);
  e.queue.write(anycl::buffer_view<int>(sub), std::vector<int>(align / sizeof(int), 9));
  auto all = e.queue.read(anycl::buffer_view<int>(parent));
  CHECK(all[0] == 0);
  CHECK(all[align / sizeof(int)] == 9);
  if (align > 1)
    REQUIRE_THROWS_WHAT(parent.sub_buffer(1, 4), std::invalid_argument,
                        Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  REQUIRE_THROWS_AS(parent.sub_buffer(align, parent.size()), std::out_of_range);
}

TEST_CASE("buffer: mapped regions read and write, and unmap when they end", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer buf = anycl::buffer::from(e.ctx, iota(32));
  static_assert(!std::is_copy_constructible_v<anycl::mapped_region<int>>);
  static_assert(std::is_nothrow_move_constructible_v<anycl::mapped_region<int>>);
  {
    auto m = e.queue.map(anycl::buffer_view<int>(buf, 8, 8));
    REQUIRE(m.size() == 8);
    CHECK(m[0] == 8);
    for (int& v : m) v *= -1;
    auto moved = std::move(m);
    CHECK(moved[7] == -15);
  }
  auto back = e.queue.read(anycl::buffer_view<int>(buf));
  for (int i = 0; i < 32; ++i) CHECK(back[i] == (i >= 8 && i < 16 ? -i : i));
  auto r = e.queue.map(anycl::buffer_view<int>(buf), anycl::map_access::read);
  CHECK(r[31] == 31);
  r.unmap().wait();
  CHECK(r.size() == 0);
}

TEST_CASE("buffer: async transfers own their host memory until done", "[buffer][transfer]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 1 << 20);
  anycl::buffer_view<int> v(buf);
  anycl::user_event gate(e.ctx);
  anycl::event w;
  {
    std::vector<int> data = iota(v.size(), 3);
    w = e.queue.enqueue_write(v, std::move(data), {gate});
  }  // the caller's vector is gone; the queue holds the data
  auto shared = std::make_shared<const std::vector<int>>(iota(16, 100));
  anycl::event w2 = e.queue.enqueue_write(v.subview(0, 16), shared, {w});
  gate.set_complete();
  auto pending = e.queue.enqueue_read(v, {w2});
  std::vector<int> back = pending.get();
  for (std::size_t i = 0; i < back.size(); ++i)
    CHECK(back[i] == (i < 16 ? 100 + static_cast<int>(i) : 3 + static_cast<int>(i)));
}
