// SPDX-License-Identifier: Apache-2.0
// Arrays over host memory (array::from_buffer on buffer::use_host and alloc_host) and host views
// (anycl::map): the mapped path and the copy path against host computations, on contiguous
// arrays, strided and transposed views; ordering with kernels before and after; bad inputs.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <vector>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

struct free_deleter {
  void operator()(float* p) const noexcept { std::free(p); }
};

/// `n` floats at the devices' alignment, element i = i / 4.
std::unique_ptr<float[], free_deleter> aligned_floats(const anycl::context& ctx, std::size_t n) {
  const std::size_t align = anycl::buffer::host_alignment(ctx);
  const std::size_t bytes =
      (std::max<std::size_t>(n, 1) * sizeof(float) + align - 1) / align * align;
  auto* p = static_cast<float*>(std::aligned_alloc(align, bytes));
  REQUIRE(p != nullptr);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<float>(i) / 4.0f;
  return std::unique_ptr<float[], free_deleter>(p);
}

}  // namespace

TEST_CASE("host_view: an array over the caller's memory computes there and maps without a copy",
          "[host_view]") {
  anycl::test::env e;
  for (const std::size_t n : {std::size_t{1}, std::size_t{1009}, (std::size_t{1} << 20) + 3}) {
    CAPTURE(n);
    auto in = aligned_floats(e.ctx, n);
    auto out = aligned_floats(e.ctx, n);
    float* in_ptr = in.get();
    auto x = anycl::array<float>::from_buffer(
        e.queue, anycl::buffer::use_host(e.ctx, in.get(), n * sizeof(float), anycl::borrowed), {n});
    auto y = anycl::array<float>::from_buffer(
        e.queue, anycl::buffer::use_host(e.ctx, std::move(out), n), {n});
    y = x * 2.0f + 1.0f;
    {
      anycl::host_view<float> v = anycl::map(y, anycl::map_access::read);
      REQUIRE(v.size() == n);
      CHECK(v.zero_copy() == e.dev.host_unified_memory());
      for (std::size_t i = 0; i < n; ++i)
        REQUIRE(v[i] == static_cast<float>(i) / 4.0f * 2.0f + 1.0f);
    }
    {
      // Writing through a view of x changes what the next kernel reads; on a host-unified
      // device the view is the caller's memory itself.
      anycl::host_view<float> v = anycl::map(x, anycl::map_access::read_write);
      if (v.zero_copy()) CHECK(v.data() == in_ptr);
      for (float& f : v) f = -f;
    }
    y = x + 0.5f;
    const std::vector<float> got = y.to_host();
    for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == -static_cast<float>(i) / 4.0f + 0.5f);
  }
}

TEST_CASE("host_view: the mapped and the copy path agree, for each access", "[host_view]") {
  anycl::test::env e;
  const std::size_t rows = 37, cols = 29;  // primes
  std::vector<float> host(rows * cols);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 101) - 50.0f;
  for (const bool zero_copy : {true, false}) {
    CAPTURE(zero_copy);
    auto a = anycl::array<float>::from_host(e.queue, host, {rows, cols});
    {
      anycl::host_view<float> v(a, anycl::map_access::read, zero_copy);
      CHECK(v.zero_copy() == zero_copy);
      REQUIRE(std::vector<float>(v.begin(), v.end()) == host);
    }
    {
      // write: every element is the host's; what was there is not read.
      anycl::host_view<float> v(a, anycl::map_access::write, zero_copy);
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    }
    std::vector<float> got = a.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == static_cast<float>(i));
    {
      anycl::host_view<float> v(a, anycl::map_access::read_write, zero_copy);
      for (float& f : v) f *= 3.0f;
      v.close();
      CHECK(v.data() == nullptr);
      v.close();  // a second close does nothing
    }
    const anycl::array<float> b = a + 1.0f;
    got = b.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) REQUIRE(got[i] == static_cast<float>(i) * 3 + 1);
  }
}

TEST_CASE("host_view: strided and transposed views copy, and write back where they lie",
          "[host_view]") {
  anycl::test::env e;
  const std::size_t rows = 23, cols = 17;
  std::vector<float> host(rows * cols);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  auto a = anycl::array<float>::from_host(e.queue, host, {rows, cols});
  {
    auto t = a.transpose();  // (cols, rows)
    anycl::host_view<float> v = anycl::map(t, anycl::map_access::read_write);
    CHECK_FALSE(v.zero_copy());
    REQUIRE(v.size() == rows * cols);
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t r = 0; r < rows; ++r) {
        REQUIRE(v[c * rows + r] == host[r * cols + c]);
        v[c * rows + r] += 1000.0f * static_cast<float>(c);
      }
  }
  {
    auto s = a.slice(1, 2, 11, 3);  // columns 2, 5, 8
    anycl::host_view<float> v = anycl::map(s, anycl::map_access::write);
    CHECK_FALSE(v.zero_copy());
    for (float& f : v) f = -1.0f;
  }
  const std::vector<float> got = a.to_host();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const bool written = c >= 2 && c < 11 && (c - 2) % 3 == 0;
      const float want = written ? -1.0f : host[r * cols + c] + 1000.0f * static_cast<float>(c);
      REQUIRE(got[r * cols + c] == want);
    }
}

TEST_CASE("host_view: moves keep one access, and alloc_host arrays work as any other",
          "[host_view]") {
  anycl::test::env e;
  const std::size_t n = 4099;
  auto a = anycl::array<float>::from_buffer(
      e.queue, anycl::buffer::alloc_host(e.ctx, n * sizeof(float)), {n});
  {
    anycl::host_view<float> v = anycl::map(a, anycl::map_access::write);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i);
    anycl::host_view<float> w = std::move(v);
    CHECK(v.data() == nullptr);  // NOLINT: the moved-from view is empty
    anycl::host_view<float> u;
    u = std::move(w);
    REQUIRE(u.size() == n);
  }
  const float total = anycl::sum(a);
  CHECK(total == static_cast<float>(n * (n - 1) / 2));
  // Empty arrays give empty views.
  auto none = anycl::array<float>(e.queue, {0});
  anycl::host_view<float> v = anycl::map(none);
  CHECK(v.data() == nullptr);
  CHECK(v.size() == 0);
}

TEST_CASE("host_view: bad arrays and buffers are refused with what is wrong", "[host_view]") {
  anycl::test::env e;
  REQUIRE_THROWS_WITH(anycl::map(anycl::array<float>()), Contains("default-constructed"));
  auto row = anycl::array<float>::from_host(e.queue, std::vector<float>{1, 2, 3}, {1, 3});
  auto wide = anycl::broadcast_to(row, {4, 3});
  REQUIRE_THROWS_WITH(anycl::map(wide, anycl::map_access::write),
                      Contains("broadcast view") && Contains("map_access::read only"));
  {
    anycl::host_view<float> v = anycl::map(wide, anycl::map_access::read);
    REQUIRE(v.size() == 12);
    for (std::size_t i = 0; i < 12; ++i) REQUIRE(v[i] == static_cast<float>(i % 3 + 1));
  }
  anycl::buffer small(e.ctx, 40);
  REQUIRE_THROWS_WITH(
      anycl::array<float>::from_buffer(e.queue, small, {11}),
      Contains("(11) elements of float need 44 bytes") && Contains("the buffer has 40"));
  REQUIRE_THROWS_WITH(anycl::array<double>::from_buffer(anycl::command_queue(), small, {1}),
                      Contains("queue is empty"));
  anycl::test::env other(anycl::test::fresh_context);
  anycl::buffer theirs(other.ctx, 64);
  REQUIRE_THROWS_WITH(anycl::array<float>::from_buffer(e.queue, theirs, {16}),
                      Contains("another context"));
  // The buffer and the queue are fine afterwards: a buffer of the right size works.
  auto ok = anycl::array<float>::from_buffer(e.queue, small, {10});
  ok = anycl::array<float>::full(e.queue, {10}, 2.5f) + 0.0f;
  std::vector<float> got(10);
  e.queue.read(anycl::buffer_view<float>(small, 0, 10), got.data());
  CHECK(got == std::vector<float>(10, 2.5f));
}
