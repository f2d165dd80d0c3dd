// SPDX-License-Identifier: Apache-2.0
// Command buffers, native (cl_khr_command_buffer) and emulated, against a host simulation of the
// same commands: replays, arguments captured at record, update(), ordering on in-order and
// out-of-order queues, wait lists. Bad inputs are catalogue row B-73.
#include <string>
#include <vector>

#include "support/device_fixture.hpp"

using anycl::buffer_view;
using anycl::command_buffer_mode;

namespace {

const char* const kernels_src =
    "kernel void add(global int* a, int v) { a[get_global_id(0)] += v; }\n"
    "kernel void mul(global int* a, int v) { a[get_global_id(0)] *= v; }\n";

using int_kernel = anycl::kernel_function<buffer_view<int>, int>;

struct fixture {
  anycl::test::env e;
  anycl::program prog{e.ctx, kernels_src, "command_buffer_test.cl"};
  int_kernel add, mul;
  fixture() {
    prog.build();
    add = prog.function<buffer_view<int>, int>("add");
    mul = prog.function<buffer_view<int>, int>("mul");
  }
};

std::vector<command_buffer_mode> modes(const anycl::test::env& e) {
  std::vector<command_buffer_mode> m{command_buffer_mode::emulated};
  if (e.dev.has_extension("cl_khr_command_buffer")) m.push_back(command_buffer_mode::native);
  return m;
}

}  // namespace

TEST_CASE("command_buffer: replays run the recorded commands in order, as the host does",
          "[command_buffer]") {
  fixture f;
  const std::size_t n = 97;
  for (const command_buffer_mode mode : modes(f.e)) {
    CAPTURE(static_cast<int>(mode));
    anycl::buffer a(f.e.ctx, n * sizeof(int)), b(f.e.ctx, n * sizeof(int));
    f.e.queue.fill(buffer_view<int>(b), 0).wait();
    anycl::command_buffer cb(f.e.queue, mode);
    CHECK(cb.native() == (mode == command_buffer_mode::native));
    int v = 2;
    cb.fill(buffer_view<int>(a), 1);
    const std::size_t first_add = cb.launch(f.add, anycl::nd_range{n}, a, v);
    cb.launch(f.add, anycl::nd_range{n}, a, v);
    cb.copy(buffer_view<int>(a), buffer_view<int>(b, 0, n));
    cb.launch(f.mul, anycl::nd_range{n}, b, 3);
    cb.launch(f.add, anycl::nd_range{0}, b, 1000);  // an empty range does nothing
    CHECK(cb.size() == 6);
    // Arguments were captured: the host variable and the kernel's own arguments may change.
    v = 100;
    anycl::buffer other(f.e.ctx, n * sizeof(int));
    f.add(f.e.queue, anycl::nd_range{n}, other, 100).wait();
    std::vector<int> want_a(n, 1 + 2 + 2), want_b(n, (1 + 2 + 2) * 3);
    for (int replay = 0; replay < 3; ++replay) {
      cb.enqueue().wait();
      CHECK(f.e.queue.read(buffer_view<int>(a)) == want_a);
      CHECK(f.e.queue.read(buffer_view<int>(b)) == want_b);
    }
    // update(): the first add now adds 10, in every later replay.
    cb.update(first_add, f.add, a, 10);
    cb.enqueue().wait();
    CHECK(f.e.queue.read(buffer_view<int>(a)) == std::vector<int>(n, 1 + 10 + 2));
    CHECK(f.e.queue.read(buffer_view<int>(b)) == std::vector<int>(n, (1 + 10 + 2) * 3));
  }
}

TEST_CASE("command_buffer: replays wait for their wait list and follow one another",
          "[command_buffer]") {
  fixture f;
  const std::size_t n = 64;
  for (const command_buffer_mode mode : modes(f.e)) {
    CAPTURE(static_cast<int>(mode));
    for (const bool out_of_order : {false, true}) {
      CAPTURE(out_of_order);
      anycl::command_queue q(f.e.ctx, f.e.dev, anycl::queue_properties{out_of_order, false});
      anycl::buffer a = anycl::buffer::from(f.e.ctx, std::vector<int>(n, 1));
      anycl::command_buffer cb(q, mode);
      cb.launch(f.add, anycl::nd_range{n}, a, 1);
      cb.launch(f.mul, anycl::nd_range{n}, a, 2);
      anycl::user_event gate(f.e.ctx);
      anycl::event first = cb.enqueue(gate);
      CHECK(first.status() != anycl::event_status::complete);  // held by the gate
      gate.set_complete();
      // Replays in a row, each after the one before: ((1 + 1) * 2 + 1) * 2 ... six times.
      anycl::event last = first;
      for (int i = 0; i < 5; ++i) last = cb.enqueue(last);
      last.wait();
      int want = 1;
      for (int i = 0; i < 6; ++i) want = (want + 1) * 2;
      CHECK(q.read(buffer_view<int>(a)) == std::vector<int>(n, want));
    }
  }
}

TEST_CASE("command_buffer: an empty recording replays as a marker", "[command_buffer]") {
  fixture f;
  for (const command_buffer_mode mode : modes(f.e)) {
    anycl::command_buffer cb(f.e.queue, mode);
    CHECK(cb.size() == 0);
    anycl::event e = cb.enqueue();
    e.wait();
    CHECK(e.status() == anycl::event_status::complete);
  }
}
