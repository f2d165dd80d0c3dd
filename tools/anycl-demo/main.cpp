// SPDX-License-Identifier: Apache-2.0
// anycl-demo: saxpy and a reduction from cl_kernels/anycl/demo.cl, checked against the host.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "cli.hpp"

namespace {

struct row {
  std::string name;
  double device_ms;  // kernel time from the profiling event
  double host_ms;    // the same work on one host thread
  bool ok;
  std::string check;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double ms(const anycl::event& e) {
  return std::chrono::duration<double, std::milli>(e.duration()).count();
}

int demo(const anycl::tools::arguments& args) {
  const auto n = static_cast<cl_uint>(args.number("size", 1u << 22));
  if (n == 0) throw anycl::tools::usage_error("--size must be positive");
  anycl::device dev = anycl::tools::tool_device(args);
  anycl::context ctx(dev);
  anycl::command_queue queue(ctx, dev, {false, true});

  // Found on the search path or in the library's own copy; built once, then taken from the cache.
  anycl::kernel_loader loader(ctx);
  anycl::program prog = loader.load("anycl/demo.cl");

  const unsigned seed = 2024;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), y(n);
  for (auto& v : x) v = dist(rng);
  for (auto& v : y) v = dist(rng);
  const float a = 2.5f;

  anycl::buffer xb = anycl::buffer::from(ctx, x, anycl::memory_access::read_only);
  anycl::buffer yb = anycl::buffer::from(ctx, y);
  std::vector<row> rows;

  // --- saxpy ---
  auto saxpy =
      prog.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "anycl_saxpy");
  anycl::event e = saxpy(queue, anycl::nd_range{n}, n, a, xb, yb);
  std::vector<float> y_dev = queue.read(anycl::buffer_view<float>(yb), {e});
  auto t0 = std::chrono::steady_clock::now();
  std::vector<float> y_host(n);
  for (cl_uint i = 0; i < n; ++i) y_host[i] = a * x[i] + y[i];
  double host = ms_since(t0);
  double worst = 0;
  for (cl_uint i = 0; i < n; ++i) worst = std::max(worst, double(std::fabs(y_dev[i] - y_host[i])));
  rows.push_back({"saxpy", ms(e), host, worst <= 1e-5, "max abs error " + std::to_string(worst)});

  // --- sum ---
  const std::size_t local = std::min<std::size_t>(256, dev.max_work_group_size());
  std::size_t pow2 = 1;
  while (pow2 * 2 <= local) pow2 *= 2;
  const std::size_t groups = std::min<std::size_t>(64, (n + pow2 - 1) / pow2);
  anycl::buffer partial(ctx, groups * sizeof(float));
  auto sum = prog.function<cl_uint, anycl::buffer_view<const float>, anycl::buffer_view<float>,
                           anycl::local_memory<float>>("anycl_sum_partial");
  anycl::event s = sum(queue, anycl::nd_range{groups * pow2, pow2}, n, xb, partial,
                       anycl::local_memory<float>(pow2));
  std::vector<float> parts = queue.read(anycl::buffer_view<float>(partial), {s});
  double dev_sum = std::accumulate(parts.begin(), parts.end(), 0.0);
  t0 = std::chrono::steady_clock::now();
  double host_sum = 0, magnitude = 0;
  for (float v : x) {
    host_sum += v;
    magnitude += std::fabs(v);
  }
  host = ms_since(t0);
  double rel = std::fabs(dev_sum - host_sum) / std::max(magnitude, 1.0);
  rows.push_back({"sum", ms(s), host, rel <= 1e-5, "relative error " + std::to_string(rel)});

  bool all_ok = true;
  for (const auto& r : rows) all_ok = all_ok && r.ok;
  if (args.has("json")) {
    std::cout << "{\"device\": " << anycl::tools::json_string(dev.name())
              << ", \"platform\": " << anycl::tools::json_string(dev.platform().name())
              << ", \"elements\": " << n << ", \"seed\": " << seed << ", \"results\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::cout << (i ? ", " : "") << "{\"name\": \"" << rows[i].name
                << "\", \"device_ms\": " << rows[i].device_ms
                << ", \"host_ms\": " << rows[i].host_ms
                << ", \"ok\": " << (rows[i].ok ? "true" : "false")
                << ", \"check\": " << anycl::tools::json_string(rows[i].check) << "}";
    std::cout << "]}\n";
  } else {
    std::printf("AnyCL %s demo on '%s' (%s), %u floats, seed %u\n", anycl::version(),
                dev.name().c_str(), dev.platform().name().c_str(), n, seed);
    std::printf("%-8s %12s %12s  %-6s %s\n", "work", "device ms", "host ms", "check", "");
    for (const auto& r : rows)
      std::printf("%-8s %12.3f %12.3f  %-6s %s\n", r.name.c_str(), r.device_ms, r.host_ms,
                  r.ok ? "ok" : "FAILED", r.check.c_str());
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  anycl::tools::cli c("anycl-demo", "[--device SPEC] [--size N] [--json]",
                      "Runs saxpy and a sum on an OpenCL device and checks them against the host.");
  c.option("size", "N", "number of floats (default 4194304)").flag("json", "print JSON");
  return anycl::tools::run_tool(c, argc, argv, demo);
}
