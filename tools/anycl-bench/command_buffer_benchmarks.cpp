// SPDX-License-Identifier: Apache-2.0
// command_buffer_replay: 100 small kernels recorded once and replayed (native cl_khr_command_buffer
// where the device has it), against the same 100 kernels launched one by one, and an emulated
// replay (the command buffer's fallback).
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "registry.hpp"

namespace anycl::bench {

namespace {

constexpr std::size_t kernels_per_replay = 100;
constexpr std::size_t elements = 1024;

const char* const add_source =
    "kernel void anycl_bench_add(global int* a, int v) { a[get_global_id(0)] += v; }\n";

/// One path's buffer, kernel and (for replays) recording; each kernel adds k + 1 for k = 0..99.
struct replay_data {
  std::string impl;
  anycl::command_queue queue;
  anycl::buffer a;
  kernel_function<buffer_view<int>, int> add;
  anycl::command_buffer cb;

  void run() {
    if (impl == "launches") {
      event last;
      for (std::size_t k = 0; k < kernels_per_replay; ++k)
        last = add(queue, nd_range{elements}, a, static_cast<int>(k + 1));
      last.wait();
    } else {
      cb.enqueue().wait();
    }
  }
};

std::shared_ptr<replay_data> make_replay(const session& s, const std::string& impl,
                                         const program& prog) {
  auto d = std::make_shared<replay_data>();
  d->impl = impl;
  d->queue = s.queue;
  d->a = anycl::buffer(s.context, elements * sizeof(int));
  d->add = prog.function<buffer_view<int>, int>("anycl_bench_add");
  if (impl != "launches") {
    d->cb = anycl::command_buffer(s.queue, impl == "emulated" ? command_buffer_mode::emulated
                                                              : command_buffer_mode::automatic);
    for (std::size_t k = 0; k < kernels_per_replay; ++k)
      d->cb.launch(d->add, nd_range{elements}, d->a, static_cast<int>(k + 1));
  }
  return d;
}

path replay_path(std::shared_ptr<replay_data> d) {
  path p;
  p.impl = d->impl;
  p.iteration = [d] { d->run(); };
  p.check = [d](bool corrupt) {
    d->queue.fill(buffer_view<int>(d->a), 0).wait();
    d->run();
    std::vector<int> got = d->queue.read(buffer_view<int>(d->a));
    if (corrupt) got[elements / 2] += 1;
    const int want = static_cast<int>(kernels_per_replay * (kernels_per_replay + 1) / 2);
    for (std::size_t i = 0; i < elements; ++i)
      if (got[i] != want)
        throw check_failed(d->impl + ": wrong element " + std::to_string(i) + ": " +
                           std::to_string(got[i]) + ", expected " + std::to_string(want));
  };
  return p;
}

}  // namespace

void add_command_buffer_benchmarks(std::vector<benchmark>& out, const settings&) {
  benchmark b;
  b.name = b.family = "command_buffer_replay";
  b.group = "launch";
  b.unit = unit_kind::microseconds_per_item;
  b.items_per_iteration = static_cast<double>(kernels_per_replay);
  b.what =
      "a command buffer of 100 kernels (each adds to 1024 ints) replayed and waited for, "
      "native (cl_khr_command_buffer) where the device has it; us a kernel";
  b.check = "the 1024 ints after one replay from zeros: 1 + 2 + ... + 100 each, on each path";
  b.references = {
      {"launches", "the same 100 kernels launched one by one through kernel_function, then a wait"},
      {"emulated", "the same command buffer in command_buffer_mode::emulated (plain enqueues)"}};
  b.prepare = [](const session& s) {
    program prog(s.context, add_source, "command_buffer_bench.cl");
    prog.build();
    return std::vector<path>{replay_path(make_replay(s, "anycl", prog)),
                             replay_path(make_replay(s, "launches", prog)),
                             replay_path(make_replay(s, "emulated", prog))};
  };
  out.push_back(std::move(b));
}

}  // namespace anycl::bench
