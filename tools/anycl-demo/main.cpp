// SPDX-License-Identifier: Apache-2.0
// anycl-demo: six workloads on one OpenCL device (the best one, or --device / ANYCL_DEVICE), each
// checked against the same work on the host, with both times: 3D vertices transformed by 4x4
// matrices and k-means clustering (kernels in cl_kernels/anycl/demo.cl), an sgemm through
// anycl::blas (CLBlast, or OpenBLAS on a CPU device), an FFT through anycl::fft (clFFT) recovering
// the frequencies of sines in noise, anycl::sort, and a Monte-Carlo estimate of pi from
// anycl::random_generator and a reduction. Prints a table (or JSON with --json); exits 1 when a
// check fails.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "cli.hpp"
#include "workloads.hpp"

namespace {

constexpr unsigned long long default_size = 1u << 20;
constexpr unsigned long long min_size = 4096, max_size = 1u << 24;

void print_table(const demo::setup& s, const std::vector<demo::row>& rows) {
  std::printf("AnyCL %s demo on '%s' (%s), size %zu, seed %u\n", anycl::version(),
              s.dev.name().c_str(), s.dev.platform().name().c_str(), s.n, s.seed);
  int size_w = 4, check_w = 5;
  for (const auto& r : rows) {
    size_w = std::max(size_w, static_cast<int>(r.size.size()));
    check_w = std::max(check_w, static_cast<int>(r.check.size()));
  }
  std::printf("%-10s  %-*s  %10s  %10s  %-*s  %s\n", "name", size_w, "size", "device ms", "host ms",
              check_w, "check", "ok");
  for (const auto& r : rows)
    std::printf("%-10s  %-*s  %10.2f  %10.2f  %-*s  %s\n", r.name.c_str(), size_w, r.size.c_str(),
                r.device_ms, r.host_ms, check_w, r.check.c_str(), r.ok ? "ok" : "FAILED");
  std::printf(
      "device ms: kernel time (profiling) for vertices and kmeans (all iterations), wall time\n"
      "of the calls for gemm, fft, sort and montecarlo; kernels are built before any timing.\n"
      "host ms: the same work on one host thread (fft: a radix-2 FFT in double; montecarlo:\n"
      "points from mt19937).\n");
}

void print_json(const demo::setup& s, const std::vector<demo::row>& rows) {
  using anycl::tools::json_string;
  std::cout << "{\"device\": " << json_string(s.dev.name())
            << ", \"platform\": " << json_string(s.dev.platform().name()) << ", \"size\": " << s.n
            << ", \"seed\": " << s.seed << ", \"results\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    std::cout << (i ? ", " : "") << "{\"name\": " << json_string(r.name)
              << ", \"size\": " << json_string(r.size) << ", \"device_ms\": " << r.device_ms
              << ", \"host_ms\": " << r.host_ms << ", \"check\": " << json_string(r.check)
              << ", \"ok\": " << (r.ok ? "true" : "false") << "}";
  }
  std::cout << "]}\n";
}

int run(const anycl::tools::arguments& args) {
  const unsigned long long n = args.number("size", default_size);
  if (n < min_size || n > max_size)
    throw anycl::tools::usage_error("--size must be between " + std::to_string(min_size) + " and " +
                                    std::to_string(max_size));
  anycl::device dev = anycl::tools::tool_device(args);
  anycl::context ctx(dev);
  anycl::command_queue queue(ctx, dev, {false, true});
  // Found on the search path or in the library's own copy; built once, then taken from the cache.
  anycl::program prog = anycl::kernel_loader(ctx).load("anycl/demo.cl");
  const demo::setup s{dev, ctx, queue, prog, static_cast<std::size_t>(n), 2024};

  // Kernel builds first, two at a time: on a CPU they take most of a first run.
  const anycl::fft::library_guard keep_fft_kernels;
  demo::build_kernels(s);
  std::vector<demo::row> rows;
  for (auto* workload :
       {demo::vertices, demo::kmeans, demo::gemm, demo::fft, demo::sort, demo::montecarlo})
    rows.push_back(workload(s));

  if (args.has("json"))
    print_json(s, rows);
  else
    print_table(s, rows);
  return std::all_of(rows.begin(), rows.end(), [](const demo::row& r) { return r.ok; }) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  anycl::tools::cli c(
      "anycl-demo", "[--device SPEC] [--size N] [--json]",
      "Transforms 3D vertices by 4x4 matrices, clusters points with k-means, multiplies matrices "
      "(CLBlast, or OpenBLAS on a CPU device), finds the frequencies in a noisy signal by FFT "
      "(clFFT), sorts keys and estimates "
      "pi by Monte Carlo on an OpenCL device, and checks each against the host. Exits 1 when a "
      "check fails.");
  c.option("size", "N",
           "vertices, points and keys; 4N Monte-Carlo points, an FFT of N/4 and a matrix side of "
           "about sqrt(N)/2 (default 1048576, 4096 to 16777216)")
      .flag("json", "print JSON");
  return anycl::tools::run_tool(c, argc, argv, run);
}
