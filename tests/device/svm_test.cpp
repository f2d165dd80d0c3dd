// SPDX-License-Identifier: Apache-2.0
// Shared virtual memory: linked structures built on the host and walked by kernels (what only SVM
// can do), transfers and maps against host computations, fine-grained memory used directly, and
// the free that waits for pending commands. Bad inputs are catalogue row B-74
// (tests/reliability/catalogue_test.cpp).
#include <algorithm>
#include <chrono>
#include <future>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "support/device_fixture.hpp"

namespace {

struct node {
  node* next;
  int value;
  int pad;
};

bool has(const anycl::device& d, anycl::svm_kind kind) { return d.svm_capabilities().allows(kind); }

anycl::program svm_program(const anycl::test::env& e) {
  return anycl::test::build(e.ctx, "tests/cl_kernels/svm.cl");
}

// The nodes' visiting order: a random permutation, so that the list jumps around its memory.
std::vector<std::size_t> visiting_order(std::size_t n, unsigned seed) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937(seed));
  return order;
}

// Links `nodes[order[0]] -> nodes[order[1]] -> ...` with values i * 3 + 1; returns the values' sum.
int link(node* nodes, const std::vector<std::size_t>& order) {
  int sum = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    node& n = nodes[order[i]];
    n.value = static_cast<int>(i * 3 + 1);
    n.next = i + 1 < order.size() ? &nodes[order[i + 1]] : nullptr;
    sum += n.value;
  }
  return sum;
}

}  // namespace

TEST_CASE("svm: a linked list built on the host is walked by a kernel", "[svm]") {
  anycl::test::env e;
  REQUIRE(has(e.dev, anycl::svm_kind::coarse_grain));
  auto walk = svm_program(e).function<anycl::svm_ptr<node>, anycl::svm_ptr<int>>("walk");
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{997}}) {
    for (auto kind : {anycl::svm_kind::coarse_grain, anycl::svm_kind::fine_grain}) {
      if (!has(e.dev, kind)) continue;
      INFO(n << " nodes, kind " << static_cast<int>(kind));
      anycl::svm_buffer<node> nodes(e.ctx, n, kind);
      anycl::svm_buffer<int> out(e.ctx, 2, kind);
      int sum = 0;
      {
        auto m = e.queue.svm_map(nodes, n, anycl::map_access::write);
        REQUIRE(m.data() == nodes.data());  // SVM maps at the allocation's own address
        sum = link(m.data(), visiting_order(n, seed));
      }
      // The head is the first node visited: a pointer into the middle of the allocation.
      const std::size_t head = visiting_order(n, seed)[0];
      walk(e.queue, anycl::nd_range{1}, nodes.ptr(head), out).wait();
      const std::vector<int> got = e.queue.svm_read(out, 2);
      CHECK(got[0] == sum);
      CHECK(got[1] == static_cast<int>(n));
    }
  }
}

TEST_CASE("svm: nodes in allocations of their own, reached through kernel::use_svm", "[svm]") {
  anycl::test::env e;
  auto prog = svm_program(e);
  auto walk = prog.function<anycl::svm_ptr<node>, anycl::svm_ptr<int>>("walk");
  const std::size_t n = 40;
  std::vector<anycl::svm_buffer<node>> nodes;
  std::vector<anycl::svm_memory> all;
  for (std::size_t i = 0; i < n; ++i) {
    nodes.emplace_back(e.ctx, 1);
    all.push_back(nodes.back());
  }
  int sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    auto m = e.queue.svm_map(nodes[i], 1, anycl::map_access::write);
    m[0].value = static_cast<int>(i * i);
    m[0].next = i + 1 < n ? nodes[i + 1].data() : nullptr;
    sum += m[0].value;
  }
  walk.kernel().use_svm(all);
  anycl::svm_buffer<int> out(e.ctx, 2);
  walk(e.queue, anycl::nd_range{1}, nodes[0], out).wait();
  CHECK(e.queue.svm_read(out, 2) == std::vector<int>{sum, static_cast<int>(n)});

  // A table of pointers to other allocations: each work-item follows its own.
  auto through = prog.function<anycl::svm_ptr<int* const>>("add_one_through");
  std::vector<anycl::svm_buffer<int>> targets;
  anycl::svm_buffer<int*> table(e.ctx, 8);
  std::vector<anycl::svm_memory> reached;
  for (int i = 0; i < 8; ++i) {
    targets.emplace_back(e.ctx, 1);
    e.queue.svm_fill(targets.back(), 100 * i, 1);
    reached.push_back(targets.back());
  }
  {
    auto m = e.queue.svm_map(table, 8, anycl::map_access::write);
    for (int i = 0; i < 8; ++i)
      m[static_cast<std::size_t>(i)] = targets[static_cast<std::size_t>(i)].data();
  }
  through.kernel().use_svm(reached);
  through(e.queue, anycl::nd_range{8}, table).wait();
  for (int i = 0; i < 8; ++i)
    CHECK(e.queue.svm_read(targets[static_cast<std::size_t>(i)], 1)[0] == 100 * i + 1);
}

TEST_CASE("svm: write, fill, copy, read and map match the host", "[svm]") {
  anycl::test::env e;
  auto twice = svm_program(e).function<anycl::svm_ptr<int>>("twice_plus_one");
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{1009}, std::size_t{(1 << 20) + 3}}) {
    INFO(n << " elements");
    std::vector<int> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i * 7919 % 100003) - 5000;
    anycl::svm_buffer<int> a(e.ctx, n), b(e.ctx, n);
    e.queue.svm_write(a, host.data(), n);
    // Fill the middle third of b, copy the rest of a into b around it.
    const std::size_t third = n / 3;
    e.queue.svm_copy(b, a, third);
    e.queue.svm_fill(b.ptr(third), -7, third);
    e.queue.svm_copy(b.ptr(2 * third), a.ptr(2 * third), n - 2 * third);
    if (n != 0) twice(e.queue, anycl::nd_range{n}, b);
    std::vector<int> want(n);
    for (std::size_t i = 0; i < n; ++i)
      want[i] = (i >= third && i < 2 * third ? -7 : host[i]) * 2 + 1;
    CHECK(e.queue.svm_read(b, n) == want);
    {
      auto m = e.queue.svm_map(b, n, anycl::map_access::read_write);
      REQUIRE(m.size() == n);
      CHECK(std::equal(m.begin(), m.end(), want.begin()));
      if (n != 0) m[0] = 12345;
    }
    if (n != 0) CHECK(e.queue.svm_read(b, 1)[0] == 12345);
  }
}

TEST_CASE("svm: fine-grained memory is the host's between commands", "[svm]") {
  anycl::test::env e;
  for (auto kind : {anycl::svm_kind::fine_grain, anycl::svm_kind::fine_grain_atomics}) {
    if (!has(e.dev, kind)) continue;
    auto twice = svm_program(e).function<anycl::svm_ptr<int>>("twice_plus_one");
    const std::size_t n = 4099;
    anycl::svm_buffer<int> a(e.ctx, n, kind);
    CHECK(a.kind() == kind);
    for (std::size_t i = 0; i < n; ++i) a.data()[i] = static_cast<int>(i) - 2000;
    twice(e.queue, anycl::nd_range{n}, a).wait();
    for (std::size_t i = 0; i < n; ++i)
      REQUIRE(a.data()[i] == (static_cast<int>(i) - 2000) * 2 + 1);
  }
}

TEST_CASE("svm: the last copy's free waits for the commands using the memory", "[svm]") {
  anycl::test::env e;
  auto copy_out =
      svm_program(e).function<anycl::svm_ptr<const int>, anycl::buffer_view<int>>("copy_out");
  const std::size_t n = 4096;
  anycl::buffer out(e.ctx, n * sizeof(int));
  cl_int status = CL_SUCCESS;
  cl_event gate_raw = clCreateUserEvent(e.ctx.get(), &status);
  REQUIRE(status == CL_SUCCESS);
  anycl::event gate = anycl::event::adopt(gate_raw);
  std::future<void> freed;
  {
    anycl::svm_buffer<int> a(e.ctx, n, anycl::svm_kind::coarse_grain);
    std::vector<int> host(n);
    std::iota(host.begin(), host.end(), 11);
    // More commands than the allocation remembers before it forgets completed ones.
    for (int i = 0; i < 40; ++i) e.queue.svm_fill(a, i, n);
    e.queue.svm_write(a, host.data(), n);
    copy_out(e.queue, anycl::nd_range{n}, anycl::wait_list(gate), a, out);
    // The last reference ends on another thread: its free must wait for the gated launch.
    freed = std::async(std::launch::async, [held = std::move(a)]() mutable { held = {}; });
  }
  // One-sided: a free that waits is never done before the gate opens.
  CHECK(freed.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  REQUIRE(clSetUserEventStatus(gate_raw, CL_COMPLETE) == CL_SUCCESS);
  freed.get();
  std::vector<int> want(n);
  std::iota(want.begin(), want.end(), 11);
  CHECK(e.queue.read(anycl::buffer_view<int>(out)) == want);
}

TEST_CASE("svm: recorded command buffers keep and use SVM arguments", "[svm]") {
  anycl::test::env e;
  auto prog = svm_program(e);
  auto twice = prog.function<anycl::svm_ptr<int>>("twice_plus_one");
  auto copy_out = prog.function<anycl::svm_ptr<const int>, anycl::buffer_view<int>>("copy_out");
  for (auto mode : {anycl::command_buffer_mode::native, anycl::command_buffer_mode::emulated}) {
    anycl::command_buffer cb;
    try {
      cb = anycl::command_buffer(e.queue, mode);
    } catch (const std::invalid_argument&) {
      continue;  // native on a device without cl_khr_command_buffer
    }
    INFO("native " << cb.native());
    anycl::buffer out(e.ctx, 64 * sizeof(int));
    {
      anycl::svm_buffer<int> a(e.ctx, 64);
      e.queue.svm_fill(a, 1, 64);
      cb.launch(twice, anycl::nd_range{64}, a.ptr());
      cb.launch(copy_out, anycl::nd_range{64}, a, out);
    }  // the recording keeps the allocation
    cb.enqueue();
    cb.enqueue().wait();
    CHECK(e.queue.read(anycl::buffer_view<int>(out)) == std::vector<int>(64, 7));  // (1*2+1)*2+1
  }
}
