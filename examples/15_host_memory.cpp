// SPDX-License-Identifier: Apache-2.0
// Buffers over host memory: arrays computed in memory the program allocated itself (no copy in
// or out where the device works in host memory: CPUs, integrated GPUs), read through anycl::map
// and checked against the host; and a buffer the driver allocates where the host can reach it.
//
//   15_host_memory
#include <anycl/anycl.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>

namespace {

// std::free for aligned_alloc's memory: an owned buffer calls it once the driver releases it.
struct free_deleter {
  void operator()(float* p) const noexcept { std::free(p); }
};

// n floats aligned as use_host requires (drivers copy or refuse other memory), in whole alignments.
std::unique_ptr<float[], free_deleter> aligned_floats(std::size_t n, std::size_t align) {
  auto* p = static_cast<float*>(
      std::aligned_alloc(align, (n * sizeof(float) + align - 1) / align * align));
  if (p == nullptr) throw std::bad_alloc();
  return std::unique_ptr<float[], free_deleter>(p);
}

float x_at(std::size_t i) { return static_cast<float>(i % 1000) * 0.5f; }

}  // namespace

int main() try {
  anycl::command_queue q(anycl::select_device());
  const anycl::context ctx = q.context();
  const std::size_t n = std::size_t{1} << 20, align = anycl::buffer::host_alignment(ctx);

  // x is filled before it becomes a buffer; from then on the host touches it only through a
  // mapping. Both buffers own their memory (use_host with a unique_ptr) and free it at the end.
  auto xs = aligned_floats(n, align);
  for (std::size_t i = 0; i < n; ++i) xs[i] = x_at(i);
  auto x = anycl::array<float>::from_buffer(q, anycl::buffer::use_host(ctx, std::move(xs), n), {n});
  auto y = anycl::array<float>::from_buffer(
      q, anycl::buffer::use_host(ctx, aligned_floats(n, align), n), {n});

  // One kernel, writing into y's own elements: the host memory behind y.
  y = 2.0f * x + 1.0f;

  // On a host-unified device the view is y's memory itself (its host_ptr()), else a copy.
  std::size_t wrong = 0;
  {
    anycl::host_view<float> v = anycl::map(y, anycl::map_access::read);
    for (std::size_t i = 0; i < n; ++i)
      if (v[i] != 2.0f * x_at(i) + 1.0f) ++wrong;
    std::printf("y = 2x + 1 on %zu floats in host memory aligned to %zu bytes, %s view%s: %s\n", n,
                align, v.zero_copy() ? "zero-copy" : "copied",
                v.data() == y.buffer().host_ptr() ? " of that memory" : "",
                wrong == 0 ? "ok" : "WRONG");
  }  // unmapped here: the memory is the device's again

  // alloc_host: the driver's host-reachable memory (pinned on discrete GPUs), written through a
  // view and summed on the device; 0, 1, 2, 3 repeated, so every partial sum is exact.
  auto z =
      anycl::array<float>::from_buffer(q, anycl::buffer::alloc_host(ctx, n * sizeof(float)), {n});
  {
    anycl::host_view<float> v = anycl::map(z, anycl::map_access::write);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 4);
  }
  const float total = anycl::sum(z), want = 1.5f * static_cast<float>(n);
  std::printf("sum of %zu floats in alloc_host memory = %.0f: %s\n", n, total,
              total == want ? "ok" : "WRONG");
  if (wrong != 0 || total != want) return 1;
  std::printf("host memory: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "15_host_memory: %s\n", e.what());
  return 1;
}
