// SPDX-License-Identifier: Apache-2.0
// Buffers over host memory: the caller's memory used in place (borrowed or owned) and the
// driver's host-reachable allocations, checked against host computations. Their bad inputs are
// catalogue row B-71 (tests/reliability/catalogue_test.cpp).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "support/device_fixture.hpp"

namespace {

/// An aligned allocation of `count` ints, freed with std::free.
struct free_deleter {
  std::atomic<int>* frees = nullptr;  // counts the calls when set (from the driver's thread)
  void operator()(int* p) const noexcept {
    if (frees != nullptr) ++*frees;
    std::free(p);
  }
};
using host_ints = std::unique_ptr<int[], free_deleter>;

host_ints aligned_ints(std::size_t count, std::size_t align, std::atomic<int>* frees = nullptr) {
  const std::size_t bytes = (count * sizeof(int) + align - 1) / align * align;
  auto* p = static_cast<int*>(std::aligned_alloc(align, bytes));
  REQUIRE(p != nullptr);
  for (std::size_t i = 0; i < count; ++i) p[i] = static_cast<int>(i * 7 + 3);
  return host_ints(p, free_deleter{frees});
}

/// Runs basic.cl's add_one over the first `count` ints of `buf` and waits.
void add_one(const anycl::test::env& e, const anycl::buffer& buf, std::size_t count) {
  anycl::program prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  auto k = prog.function<anycl::buffer_view<int>>("add_one");
  k(e.queue, anycl::nd_range{count}, anycl::buffer_view<int>(buf, 0, count)).wait();
}

/// Waits up to 5 s for `done`: drivers free a released buffer's memory after its last command,
/// possibly on a thread of their own after clFinish returned.
template <class F>
bool eventually(F done) {
  for (int ms = 0; ms < 5000 && !done(); ++ms)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return done();
}

cl_mem_flags flags_of(const anycl::buffer& b) {
  cl_mem_flags flags = 0;
  REQUIRE(clGetMemObjectInfo(b.get(), CL_MEM_FLAGS, sizeof flags, &flags, nullptr) == CL_SUCCESS);
  return flags;
}

}  // namespace

TEST_CASE("host memory: a borrowed buffer works in the caller's memory, mapped without a copy",
          "[host_memory][transfer]") {
  anycl::test::env e;
  const std::size_t n = 1000, align = anycl::buffer::host_alignment(e.ctx);
  host_ints mem = aligned_ints(n, align);
  {
    anycl::buffer b = anycl::buffer::use_host(e.ctx, mem.get(), n * sizeof(int), anycl::borrowed);
    CHECK(b.size() == n * sizeof(int));
    CHECK(b.host_ptr() == mem.get());
    CHECK((flags_of(b) & CL_MEM_USE_HOST_PTR) != 0);
    add_one(e, b, n);
    auto m = e.queue.map(anycl::buffer_view<int>(b), anycl::map_access::read);
    // POCL and every host-unified driver map such a buffer at the caller's own address.
    if (e.dev.host_unified_memory()) CHECK(m.data() == mem.get());
    for (std::size_t i = 0; i < n; ++i) REQUIRE(m[i] == static_cast<int>(i * 7 + 4));
    // A sub-buffer's memory is the same memory, at its offset.
    anycl::buffer sub = b.sub_buffer(align, 64);
    CHECK(sub.host_ptr() == reinterpret_cast<char*>(mem.get()) + align);
  }
  // The memory stays the caller's after the buffer: still readable, and freed by the caller.
  CHECK(mem[0] == 4);
}

TEST_CASE("host memory: an owned buffer frees the memory once, after its last command",
          "[host_memory][transfer]") {
  anycl::test::env e;
  const std::size_t n = 4096, align = anycl::buffer::host_alignment(e.ctx);
  std::atomic<int> frees{0};
  {
    anycl::buffer b = anycl::buffer::use_host(e.ctx, aligned_ints(n, align, &frees), n);
    add_one(e, b, n);
    anycl::buffer copy = b;  // a second handle keeps the memory
    b = anycl::buffer();
    CHECK(frees == 0);
    std::vector<int> back(n);
    e.queue.read(anycl::buffer_view<int>(copy), back.data());
    for (std::size_t i = 0; i < n; ++i) REQUIRE(back[i] == static_cast<int>(i * 7 + 4));
  }
  e.queue.finish();
  CHECK(eventually([&] { return frees == 1; }));

  SECTION("a shared owner, kept as long as the buffer") {
    auto owner =
        std::shared_ptr<int>(aligned_ints(n, align, &frees).release(), free_deleter{&frees});
    std::weak_ptr<int> watch = owner;
    anycl::buffer b = anycl::buffer::use_host(e.ctx, owner, owner.get(), n * sizeof(int));
    owner.reset();
    CHECK(!watch.expired());
    b = anycl::buffer();
    e.queue.finish();
    CHECK(eventually([&] { return watch.expired(); }));
    CHECK(frees == 2);
  }
  SECTION("a refused buffer frees the memory at once") {
    // 4 bytes past an aligned address (a device taking any int-aligned memory refuses nothing).
    host_ints mem = aligned_ints(n + 1, align, &frees);
    int* misaligned = mem.get() + 1;
    auto owner = std::shared_ptr<int>(mem.release(), free_deleter{&frees});
    if (align > sizeof(int)) {
      REQUIRE_THROWS_AS(
          anycl::buffer::use_host(e.ctx, std::move(owner), misaligned, n * sizeof(int)),
          std::invalid_argument);
    } else {
      owner.reset();
    }
    CHECK(frees == 2);
  }
  SECTION("no bytes: an empty buffer, and the owner dropped") {
    anycl::buffer b = anycl::buffer::use_host(e.ctx, aligned_ints(1, align, &frees), 0);
    CHECK(b.empty());
    CHECK(b.host_ptr() == nullptr);
    CHECK(frees == 2);
  }
}

TEST_CASE("host memory: alloc_host buffers hold what is written and map it back",
          "[host_memory][transfer]") {
  anycl::test::env e;
  const std::size_t n = 3001;  // a prime: no size is special
  anycl::buffer b = anycl::buffer::alloc_host(e.ctx, n * sizeof(int));
  CHECK((flags_of(b) & CL_MEM_ALLOC_HOST_PTR) != 0);
  CHECK(b.host_ptr() == nullptr);
  {
    auto m = e.queue.map(anycl::buffer_view<int>(b), anycl::map_access::write);
    for (std::size_t i = 0; i < n; ++i) m[i] = static_cast<int>(i * 3);
  }
  add_one(e, b, n);
  std::vector<int> back(n);
  e.queue.read(anycl::buffer_view<int>(b), back.data());
  for (std::size_t i = 0; i < n; ++i) REQUIRE(back[i] == static_cast<int>(i * 3 + 1));
  CHECK(anycl::buffer::alloc_host(e.ctx, 0).empty());
}

TEST_CASE("host memory: the alignment asked for is the devices' base address alignment",
          "[host_memory][transfer]") {
  anycl::test::env e;
  const std::size_t align = anycl::buffer::host_alignment(e.ctx);
  CHECK(align == e.dev.info<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  CHECK(align == e.dev.base_address_alignment());
  CHECK((align & (align - 1)) == 0);
  // CPU devices work in host memory by definition.
  if (e.dev.type() == anycl::device_type::cpu) CHECK(e.dev.host_unified_memory());
}
