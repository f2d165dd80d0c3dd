// SPDX-License-Identifier: Apache-2.0
// anycl-demo: saxpy and a reduction from cl_kernels/anycl/demo.cl, an sgemm through CLBlast and an
// FFT through clFFT on device arrays, each checked against the host.
#include <chrono>
#include <cmath>
#include <complex>
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

  // --- sgemm through CLBlast on device arrays ---
  {
    const std::size_t m = 256;
    std::vector<float> ah(m * m), bh(m * m);
    for (auto& v : ah) v = dist(rng);
    for (auto& v : bh) v = dist(rng);
    auto a_dev = anycl::array<float>::from_host(queue, ah, {m, m});
    auto b_dev = anycl::array<float>::from_host(queue, bh, {m, m});
    // The first call builds CLBlast's kernels (seconds on a CPU, once per machine with POCL's
    // cache); the second is the one timed.
    anycl::blas::matmul(a_dev, b_dev).wait();
    auto t1 = std::chrono::steady_clock::now();
    auto c_dev = anycl::blas::matmul(a_dev, b_dev);
    c_dev.wait();
    const double dev_ms = ms_since(t1);
    std::vector<float> c = c_dev.to_host();
    t0 = std::chrono::steady_clock::now();
    std::vector<double> want(m * m, 0.0);
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t k = 0; k < m; ++k)
        for (std::size_t j = 0; j < m; ++j)
          want[i * m + j] += double(ah[i * m + k]) * double(bh[k * m + j]);
    host = ms_since(t0);
    double err = 0;
    for (std::size_t i = 0; i < m * m; ++i) err = std::max(err, std::fabs(c[i] - want[i]));
    rows.push_back({"sgemm", dev_ms, host, err <= 1e-3,
                    std::to_string(m) + "^3, max abs error " + std::to_string(err)});
  }

  // --- FFT through clFFT on device arrays ---
  {
    const std::size_t len = 4096;
    std::vector<std::complex<float>> xh(len);
    for (auto& v : xh) v = {dist(rng), dist(rng)};
    auto in = anycl::array<std::complex<float>>::from_host(queue, xh);
    auto out = anycl::array<std::complex<float>>::empty(queue, len);
    anycl::fft::plan plan(queue, anycl::fft::plan_desc::c2c({len}));
    plan.execute(in, out).wait();  // the first call builds clFFT's kernels; the second is timed
    auto t1 = std::chrono::steady_clock::now();
    plan.execute(in, out).wait();
    const double dev_ms = ms_since(t1);
    std::vector<std::complex<float>> got = out.to_host();
    // The host reference: the O(n^2) DFT in double precision, twiddles from one table.
    t0 = std::chrono::steady_clock::now();
    const double pi = std::acos(-1.0);
    std::vector<std::complex<double>> w(len);
    for (std::size_t k = 0; k < len; ++k)
      w[k] = std::polar(1.0, -2.0 * pi * static_cast<double>(k) / static_cast<double>(len));
    double err = 0, norm = 0;
    for (std::size_t k = 0; k < len; ++k) {
      std::complex<double> acc = 0;
      for (std::size_t j = 0; j < len; ++j) acc += std::complex<double>(xh[j]) * w[(j * k) % len];
      err = std::max(err, std::abs(std::complex<double>(got[k]) - acc));
      norm = std::max(norm, std::abs(acc));
    }
    host = ms_since(t0);
    const double rel = err / std::max(norm, 1.0);
    rows.push_back({"fft", dev_ms, host, rel <= 1e-5,
                    std::to_string(len) + "-point complex, relative error " + std::to_string(rel)});
  }

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
    std::printf(
        "device ms: the kernel's time for saxpy and sum; the wall time of a second call "
        "for sgemm and fft (the first builds CLBlast's and clFFT's kernels)\n");
  }
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  anycl::tools::cli c(
      "anycl-demo", "[--device SPEC] [--size N] [--json]",
      "Runs saxpy, a sum, an sgemm (CLBlast) and an FFT (clFFT) on an OpenCL device and "
      "checks them against the host.");
  c.option("size", "N", "number of floats (default 4194304)").flag("json", "print JSON");
  return anycl::tools::run_tool(c, argc, argv, demo);
}
