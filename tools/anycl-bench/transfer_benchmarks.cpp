// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the transfer family: blocking host-to-device writes and device-to-host reads
// through AnyCL's typed command_queue::write/read on a buffer_view, against the raw C API
// (clEnqueueWriteBuffer/clEnqueueReadBuffer, blocking) and a host memcpy of the same size.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "registry.hpp"

namespace anycl::bench {
namespace {

using word = std::uint32_t;

/// One size's buffers, shared by its write and read benchmarks: a device buffer, the host data
/// written (and expected back) and a host destination.
struct transfer_fixture {
  anycl::command_queue queue;
  anycl::buffer buffer;
  anycl::buffer_view<word> view;  // made once, as a user holding a view would
  std::vector<word> pattern;      // source of writes, expected result of reads
  std::vector<word> host;         // destination of reads and of the memcpy
  std::size_t bytes() const { return pattern.size() * sizeof(word); }
};

/// Data no stale buffer can pass for: a multiplicative hash of the index.
std::vector<word> make_pattern(std::size_t n) {
  std::vector<word> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<word>(i) * 2654435761u + 0x9e3779b9u;
  return v;
}

[[noreturn]] void raw_failed(const char* call, cl_int status) {
  throw std::runtime_error(std::string("raw C API: ") + call +
                           " failed: " + std::string(anycl::status_name(status)));
}

void raw_write(const transfer_fixture& f, const void* src) {
  if (cl_int st = clEnqueueWriteBuffer(f.queue.get(), f.buffer.get(), CL_TRUE, 0, f.bytes(), src, 0,
                                       nullptr, nullptr);
      st != CL_SUCCESS)
    raw_failed("clEnqueueWriteBuffer", st);
}

void raw_read(const transfer_fixture& f, void* dst) {
  if (cl_int st = clEnqueueReadBuffer(f.queue.get(), f.buffer.get(), CL_TRUE, 0, f.bytes(), dst, 0,
                                      nullptr, nullptr);
      st != CL_SUCCESS)
    raw_failed("clEnqueueReadBuffer", st);
}

/// Throws check_failed at the first element of `got` that differs from `expected`.
void compare(const std::vector<word>& got, const std::vector<word>& expected,
             const std::string& impl) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (got[i] == expected[i]) continue;
    char buf[160];
    std::snprintf(buf, sizeof buf, ": wrong data at element %zu of %zu: 0x%08x, expected 0x%08x", i,
                  expected.size(), static_cast<unsigned>(got[i]),
                  static_cast<unsigned>(expected[i]));
    throw check_failed(impl + buf);
  }
}

std::shared_ptr<transfer_fixture> shared_fixture(const session& s, std::size_t bytes,
                                                 std::weak_ptr<transfer_fixture>& slot) {
  if (auto f = slot.lock()) return f;
  const cl_ulong max_alloc = s.device.max_alloc();
  if (bytes > max_alloc)
    throw std::runtime_error(size_label(bytes) + " is more than the device can allocate at once (" +
                             "CL_DEVICE_MAX_MEM_ALLOC_SIZE " + std::to_string(max_alloc) + ")");
  auto f = std::make_shared<transfer_fixture>();
  f->queue = s.queue;
  f->buffer = anycl::buffer(s.context, bytes);
  f->view = anycl::buffer_view<word>(f->buffer);
  f->pattern = make_pattern(bytes / sizeof(word));
  f->host.assign(f->pattern.size(), 0);  // touched now: page faults are not timed
  slot = f;
  return f;
}

enum class direction { write, read };

/// A write path's check: the buffer is cleared, the path writes, the raw C API reads back.
/// A read path's check: the raw C API writes, the host side is cleared, the path reads.
/// The timed work comes first once more, so the first-call costs are not timed either.
path make_path(const std::string& impl, direction dir, std::shared_ptr<transfer_fixture> f,
               std::function<void()> work) {
  path p;
  p.impl = impl;
  p.iteration = work;
  const bool is_memcpy = impl == "memcpy";
  p.check = [impl, dir, f, work, is_memcpy](bool corrupt) {
    work();
    std::fill(f->host.begin(), f->host.end(), 0);
    if (is_memcpy) {
      work();
    } else if (dir == direction::write) {
      raw_write(*f, f->host.data());  // zeros
      work();
      raw_read(*f, f->host.data());
    } else {
      raw_write(*f, f->pattern.data());
      work();
    }
    if (corrupt) f->host[f->host.size() / 2] ^= 1u;
    compare(f->host, f->pattern, impl);
  };
  return p;
}

}  // namespace

void add_transfer_benchmarks(std::vector<benchmark>& out, const settings& s) {
  // The write and read benchmarks of one size share a fixture (one device buffer, two host
  // vectors) while either is alive.
  std::map<std::size_t, std::shared_ptr<std::weak_ptr<transfer_fixture>>> slots;
  for (const direction dir : {direction::write, direction::read}) {
    const bool w = dir == direction::write;
    for (const std::size_t bytes : s.transfer_sizes) {
      auto& slot = slots[bytes];
      if (!slot) slot = std::make_shared<std::weak_ptr<transfer_fixture>>();
      benchmark b;
      b.family = w ? "transfer_write" : "transfer_read";
      b.name = b.family + "_" + size_label(bytes);
      b.group = "transfer";
      b.unit = unit_kind::gigabytes_per_second;
      b.items_per_iteration = static_cast<double>(bytes);
      b.what = std::string(w ? "host-to-device write" : "device-to-host read") + " of " +
               size_label(bytes) + ", blocking, GB/s (1 GB = 1e9 bytes)";
      b.check = w ? "the buffer, cleared first, holds the written data (read with the raw C API)"
                  : "the host memory, cleared first, holds the buffer's data (written with the "
                    "raw C API)";
      b.references = {{"raw", w ? "raw C API: clEnqueueWriteBuffer(CL_TRUE), no event"
                                : "raw C API: clEnqueueReadBuffer(CL_TRUE), no event"},
                      {"memcpy",
                       "host std::memcpy of the same size between two host vectors (context: "
                       "the host's own copy bandwidth)"}};
      const auto fixture_slot = slot;
      b.prepare = [fixture_slot, bytes, dir](const session& ses) {
        std::shared_ptr<transfer_fixture> f = shared_fixture(ses, bytes, *fixture_slot);
        transfer_fixture* fp = f.get();  // the paths own `f`; the work lambdas borrow it
        std::vector<path> paths;
        if (dir == direction::write) {
          paths.push_back(
              make_path("anycl", dir, f, [fp] { fp->queue.write(fp->view, fp->pattern); }));
          paths.push_back(make_path("raw", dir, f, [fp] { raw_write(*fp, fp->pattern.data()); }));
        } else {
          paths.push_back(
              make_path("anycl", dir, f, [fp] { fp->queue.read(fp->view, fp->host.data()); }));
          paths.push_back(make_path("raw", dir, f, [fp] { raw_read(*fp, fp->host.data()); }));
        }
        paths.push_back(make_path("memcpy", dir, f, [fp] {
          std::memcpy(fp->host.data(), fp->pattern.data(), fp->bytes());
          ::benchmark::DoNotOptimize(fp->host.data());
          ::benchmark::ClobberMemory();
        }));
        return paths;
      };
      out.push_back(std::move(b));
    }
  }
}

}  // namespace anycl::bench
