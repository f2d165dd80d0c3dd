// SPDX-License-Identifier: Apache-2.0
// host_round_trip_<size>: host data through one kernel and back to the host, zero-copy (arrays
// over the host's own memory, buffer::use_host, reached through anycl::map) against copies
// (arrays in device memory, set from and read into host vectors).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/anycl.hpp"
#include "registry.hpp"

namespace anycl::bench {

namespace {

struct free_deleter {
  void operator()(float* p) const noexcept { std::free(p); }
};

/// `n` floats of host memory at the context's alignment for buffers used in place.
std::unique_ptr<float[], free_deleter> host_floats(const anycl::context& ctx, std::size_t n) {
  const std::size_t align = anycl::buffer::host_alignment(ctx);
  const std::size_t bytes = (n * sizeof(float) + align - 1) / align * align;
  auto* p = static_cast<float*>(std::aligned_alloc(align, bytes));
  if (p == nullptr) throw std::runtime_error("host_round_trip: aligned_alloc failed");
  std::fill(p, p + n, 0.0f);  // touched now: page faults are not timed
  return std::unique_ptr<float[], free_deleter>(p);
}

/// One path's arrays: x in, y = 2x + 1 out; zero-copy over host memory, or in device memory with
/// host vectors beside them.
struct round_trip {
  std::size_t n = 0;
  bool zero_copy = false;
  array<float> x, y;
  std::vector<float> in, out;  // the copy path's host data
  float sink = 0;
  float input(std::size_t i) const { return static_cast<float>(i % 1021) - 510.0f; }

  /// The host changes its input, the kernel runs, the host reads the result.
  void run(float first) {
    if (zero_copy) {
      { anycl::map(x, anycl::map_access::read_write)[0] = first; }
      y = 2.0f * x + 1.0f;
      anycl::host_view<float> r = anycl::map(y, anycl::map_access::read);
      sink += r[0] + r[n - 1];
    } else {
      in[0] = first;
      x.set(in);
      y = 2.0f * x + 1.0f;
      y.to_host(out.data());
      sink += out[0] + out[n - 1];
    }
    ::benchmark::DoNotOptimize(sink);
  }

  /// Every element of y after a run over the known input.
  void check(const std::string& impl, bool corrupt) {
    if (zero_copy) {
      anycl::host_view<float> w = anycl::map(x, anycl::map_access::write);
      for (std::size_t i = 0; i < n; ++i) w[i] = input(i);
    } else {
      for (std::size_t i = 0; i < n; ++i) in[i] = input(i);
    }
    run(input(0));
    std::vector<float> got = y.to_host();
    if (corrupt) got[n / 2] += 1.0f;
    for (std::size_t i = 0; i < n; ++i)
      if (got[i] != 2.0f * input(i) + 1.0f)
        throw check_failed(impl + ": wrong element " + std::to_string(i) + ": " +
                           std::to_string(got[i]) + ", expected " +
                           std::to_string(2.0f * input(i) + 1.0f));
  }
};

std::shared_ptr<round_trip> make_round_trip(const session& s, std::size_t n, bool zero_copy) {
  auto r = std::make_shared<round_trip>();
  r->n = n;
  r->zero_copy = zero_copy;
  if (zero_copy) {
    r->x = array<float>::from_buffer(
        s.queue, anycl::buffer::use_host(s.context, host_floats(s.context, n), n), {n});
    r->y = array<float>::from_buffer(
        s.queue, anycl::buffer::use_host(s.context, host_floats(s.context, n), n), {n});
  } else {
    r->x = array<float>::zeros(s.queue, {n});
    r->y = array<float>::zeros(s.queue, {n});
    r->in.assign(n, 0.0f);
    r->out.assign(n, 0.0f);
  }
  return r;
}

path round_trip_path(const std::string& impl, std::shared_ptr<round_trip> r) {
  path p;
  p.impl = impl;
  p.iteration = [r] { r->run(1.0f); };
  p.check = [r, impl](bool corrupt) { r->check(impl, corrupt); };
  return p;
}

}  // namespace

void add_host_memory_benchmarks(std::vector<benchmark>& out, const settings& s) {
  if (s.transfer_sizes.empty()) return;
  const std::size_t bytes = *std::max_element(s.transfer_sizes.begin(), s.transfer_sizes.end());
  const std::size_t n = bytes / sizeof(float);
  benchmark b;
  b.family = "host_round_trip";
  b.name = b.family + "_" + size_label(bytes);
  b.group = "transfer";
  b.unit = unit_kind::gigabytes_per_second;
  b.items_per_iteration = 2.0 * static_cast<double>(n * sizeof(float));
  b.what = "host data (" + size_label(bytes) +
           " of floats) to the device, y = 2x + 1, and back to the host, zero-copy: arrays over "
           "the host's memory (buffer::use_host), reached through anycl::map; GB/s counting " +
           "both directions";
  b.check = "every element of y against 2x + 1 on the host, on each path";
  b.references = {{"copy",
                   "arrays in device memory: set from a host vector, the same kernel, to_host "
                   "into a host vector"}};
  b.prepare = [n](const session& ses) {
    return std::vector<path>{round_trip_path("anycl", make_round_trip(ses, n, true)),
                             round_trip_path("copy", make_round_trip(ses, n, false))};
  };
  out.push_back(std::move(b));
}

}  // namespace anycl::bench
