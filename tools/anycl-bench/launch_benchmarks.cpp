// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the launch-overhead family (launch_empty, launch_one_buffer): the loops of
// launch_loops.hpp as registry paths, each with its correctness check.
#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "launch_loops.hpp"
#include "registry.hpp"

namespace anycl::bench {
namespace {

struct kernel_case {
  const char* name;
  kernel_kind kind;
  const char* what;
  const char* check;
};
constexpr kernel_case kernel_cases[] = {
    {"launch_empty", kernel_kind::empty,
     "kernel-launch overhead: an empty kernel, 64 work-items, microseconds per launch",
     "the launches complete without an error (an empty kernel leaves nothing to compare)"},
    {"launch_one_buffer", kernel_kind::one_buffer,
     "kernel-launch overhead: a[i] += 1 on one buffer argument, 64 work-items, microseconds per "
     "launch",
     "three launches on a zeroed buffer leave 3.0 in every element (read with the raw C API)"}};

[[noreturn]] void raw_failed(const char* call, cl_int status) {
  throw std::runtime_error(std::string("check: ") + call +
                           " failed: " + std::string(anycl::status_name(status)));
}

/// The fixture every launch benchmark of one run shares, built on first use.
std::shared_ptr<fixture> shared_fixture(const session& s, std::weak_ptr<fixture>& slot) {
  if (auto f = slot.lock()) return f;
  auto f = std::make_shared<fixture>();
  f->context = s.context;
  f->queue = s.queue;
  f->program = anycl::program(f->context, kernel_source, "anycl-bench.cl");
  f->program.build();
  f->buffer = anycl::buffer(f->context, f->global * sizeof(float));
  slot = f;
  return f;
}

/// Runs `loop` three times on known data and verifies what it left, with the raw C API only, so
/// the check does not trust the path it checks. Then warms the path up: first-launch work
/// (limits queries, driver setup) is not timed.
void check_loop(const launch_loop& loop, const fixture& f, kernel_kind k, std::size_t warm_up,
                const std::string& impl, bool corrupt) {
  const cl_command_queue q = f.queue.get();
  const cl_mem mem = f.buffer.get();
  std::vector<float> data(f.global, 0.0f);
  const std::size_t bytes = data.size() * sizeof(float);
  if (k == kernel_kind::one_buffer) {
    if (cl_int st =
            clEnqueueWriteBuffer(q, mem, CL_TRUE, 0, bytes, data.data(), 0, nullptr, nullptr);
        st != CL_SUCCESS)
      raw_failed("clEnqueueWriteBuffer", st);
  }
  constexpr std::size_t checked_launches = 3;
  loop.launch(checked_launches);
  loop.finish();
  if (k == kernel_kind::one_buffer) {
    if (cl_int st =
            clEnqueueReadBuffer(q, mem, CL_TRUE, 0, bytes, data.data(), 0, nullptr, nullptr);
        st != CL_SUCCESS)
      raw_failed("clEnqueueReadBuffer", st);
    if (corrupt) data[data.size() / 2] += 1.0f;
    const float expected = static_cast<float>(checked_launches);
    for (std::size_t i = 0; i < data.size(); ++i)
      if (data[i] != expected)
        throw check_failed(impl + ": wrong result at element " + std::to_string(i) + " after " +
                           std::to_string(checked_launches) + " launches: " +
                           std::to_string(data[i]) + ", expected " + std::to_string(expected));
  } else if (corrupt) {
    throw check_failed(impl + ": an empty kernel leaves no data to alter, so its check fails");
  }
  loop.launch(warm_up);
  loop.finish();
}

path make_path(std::string impl, launch_loop loop, std::shared_ptr<fixture> f, kernel_kind k,
               const settings& s) {
  path p;
  p.impl = std::move(impl);
  const std::size_t n = s.launches;
  const std::size_t warm_up = std::min<std::size_t>(n, 1000);
  p.check = [loop, f, k, warm_up, impl = p.impl](bool corrupt) {
    check_loop(loop, *f, k, warm_up, impl, corrupt);
  };
  if (!s.host_only) {
    // One iteration: n launches, then clFinish.
    p.iteration = [loop, n] {
      loop.launch(n);
      loop.finish();
    };
    return p;
  }
  // Host-only: the queue waits behind a user event while the launches are enqueued, so only their
  // host-side cost is timed; releasing the gate and the finish are not.
  auto held = std::make_shared<std::optional<anycl::user_event>>();
  p.before = [held, f] {
    held->emplace(f->context);
    f->queue.barrier({**held});
  };
  p.iteration = [loop, n] { loop.launch(n); };
  p.after = [held, loop] {
    std::exchange(*held, std::nullopt)->set_complete();
    loop.finish();
  };
  p.abandon = [held] {
    if (!*held) return;
    try {  // fail the gate so the queued launches drain instead of waiting forever
      (*held)->set_error(-1);
    } catch (const std::exception&) {
    }
    held->reset();
  };
  return p;
}

}  // namespace

void add_launch_benchmarks(std::vector<benchmark>& out, const settings& s) {
  auto slot = std::make_shared<std::weak_ptr<fixture>>();
  for (const kernel_case& kc : kernel_cases) {
    benchmark b;
    b.name = b.family = kc.name;
    b.group = "launch";
    b.what = std::string(kc.what) +
             (s.host_only ? " (host-only: the enqueues alone)" : " (launches, then clFinish)");
    b.check = kc.check;
    b.unit = unit_kind::microseconds_per_item;
    b.items_per_iteration = static_cast<double>(s.launches);
    if (s.launches == 0) b.off = "--launches 0";
    b.references = {{"raw",
                     "raw C API: clSetKernelArg + clEnqueueNDRangeKernel asking for an event, "
                     "then clReleaseEvent"}};
    if (clhpp_available())
      b.references.push_back(
          {"clhpp", "Khronos C++ bindings: cl::KernelFunctor with a cl::EnqueueArgs per call"});
    const kernel_kind kind = kc.kind;
    const bool with_clhpp = clhpp_available();
    b.prepare = [slot, kind, s, with_clhpp](const session& ses) {
      std::shared_ptr<fixture> f = shared_fixture(ses, *slot);
      std::vector<path> paths;
      paths.push_back(make_path("anycl", anycl_loop(*f, kind), f, kind, s));
      paths.push_back(make_path("raw", raw_loop(*f, kind), f, kind, s));
      if (with_clhpp) paths.push_back(make_path("clhpp", clhpp_loop(*f, kind), f, kind, s));
      return paths;
    };
    out.push_back(std::move(b));
  }
}

}  // namespace anycl::bench
