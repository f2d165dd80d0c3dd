// SPDX-License-Identifier: Apache-2.0
// Command buffers: one step of an integer stencil (blur u into v, add k to v, copy v back to u)
// recorded once and replayed many times, natively through cl_khr_command_buffer where the device
// has it, else emulated by plain enqueues; then update() changes k for the later replays.
//
//   17_command_buffers    ANYCL_COMMAND_BUFFER=emulated forces the emulation
#include <anycl/anycl.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

namespace {

// Integers, so the host computes exactly what the device does.
const char* const src =
    "kernel void blur(global const int* u, global int* v, int n) {\n"
    "  int i = get_global_id(0), l = max(i - 1, 0), r = min(i + 1, n - 1);\n"
    "  v[i] = (u[l] + 2 * u[i] + u[r]) / 4;\n"
    "}\n"
    "kernel void add(global int* v, int k) { v[get_global_id(0)] += k; }\n";

// The host's copy of `steps` replays of the recorded step.
void host_steps(std::vector<int>& u, int k, int steps) {
  const int n = static_cast<int>(u.size());
  std::vector<int> v(u.size());
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i)
      v[i] = (u[std::max(i - 1, 0)] + 2 * u[i] + u[std::min(i + 1, n - 1)]) / 4 + k;
    u = v;
  }
}

}  // namespace

int main() try {
  anycl::command_queue q(anycl::select_device());
  const int n = 4096, steps = 50;
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = (i * 37) % 1000;
  anycl::buffer u = anycl::buffer::from(q.context(), want), v(q.context(), n * sizeof(int));
  anycl::program prog(q.context(), src, "stencil.cl");
  prog.build();
  auto blur = prog.function<anycl::buffer_view<const int>, anycl::buffer_view<int>, int>("blur");
  auto add = prog.function<anycl::buffer_view<int>, int>("add");

  // Recorded once; every command runs after the one before. The arguments are copied now:
  // changing k afterwards does not reach the recording (update() does).
  anycl::command_buffer cb(q);
  int k = 3;
  cb.launch(blur, anycl::nd_range{n}, u, v, n);
  const std::size_t add_at = cb.launch(add, anycl::nd_range{n}, v, k);
  cb.copy(anycl::buffer_view<int>(v), anycl::buffer_view<int>(u));
  k = 100;

  // Replays, each after the one before; one read at the end.
  auto replay = [&](int add_k, const char* what) {
    anycl::event last;
    for (int s = 0; s < steps; ++s) last = cb.enqueue(last);
    const std::vector<int> got = q.read(anycl::buffer_view<const int>(u), {last});
    host_steps(want, add_k, steps);
    const bool ok = got == want;
    std::printf("%s, %d replays of %zu commands (%s): %s\n", what, steps, cb.size(),
                cb.native() ? "native cl_khr_command_buffer" : "emulated", ok ? "ok" : "WRONG");
    return ok;
  };
  bool ok = replay(3, "blur, add 3, copy back");

  // The add's k changed for the replays from now on (natively, recorded again once).
  cb.update(add_at, add, v, -2);
  ok = ok && replay(-2, "after update(): blur, add -2, copy back");
  if (!ok) return 1;
  std::printf("command buffers: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "17_command_buffers: %s\n", e.what());
  return 1;
}
