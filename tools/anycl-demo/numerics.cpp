// SPDX-License-Identifier: Apache-2.0
// The demo's library workloads: BLAS (CLBlast, or OpenBLAS on a CPU device), FFT (clFFT), sort, and
// random numbers with a reduction. The first call of each builds its kernels; the device time is
// that of a later call.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "workloads.hpp"

namespace demo {
namespace {

// The gemm's side: about sqrt(n) / 2, a multiple of 16 in 16..1024 (512 for a million).
std::size_t gemm_side(std::size_t n) {
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::sqrt(double(n)) / 2) / 16 * 16, 16,
                                 1024);
}

// The FFT's length: the largest power of two <= n / 4 in 1024..2^20 (262144 for a million).
std::size_t fft_length(std::size_t n) {
  std::size_t len = 1024;
  while (len * 2 <= n / 4 && len < (std::size_t{1} << 20)) len *= 2;
  return len;
}

// The sum of the elements of x and y below one in x^2 + y^2: the Monte-Carlo reduction.
anycl::reduction_kernel<std::uint64_t> inside_circle(const anycl::context& ctx) {
  return anycl::reduction_kernel<std::uint64_t>(ctx, "0", "a + b",
                                                "x[i] * x[i] + y[i] * y[i] < 1.0f ? 1 : 0",
                                                "global const float* x, global const float* y");
}

}  // namespace

void build_kernels(const setup& s) {
  // CLBlast's gemm takes longest to build (none on the OpenBLAS path): on a second thread.
  std::exception_ptr blas_error;
  std::thread blas([&s, &blas_error] {
    try {
      anycl::command_queue q(s.ctx, s.dev);
      const std::size_t m = gemm_side(s.n);
      auto a = anycl::array<float>::zeros(q, {m, m});
      anycl::blas::matmul(a, a).wait();
    } catch (...) {
      blas_error = std::current_exception();
    }
  });
  try {
    const std::size_t len = fft_length(s.n);
    auto in = anycl::array<std::complex<float>>::zeros(s.queue, len);
    auto out = anycl::array<std::complex<float>>::empty(s.queue, len);
    anycl::fft::plan(s.queue, anycl::fft::plan_desc::c2c({len})).execute(in, out).wait();
    auto keys = anycl::array<std::uint32_t>::arange(s.queue, 1024);
    anycl::sort(keys, anycl::sort_order::descending);
    auto u = anycl::array<float>::empty(s.queue, 1024);
    anycl::random_generator(s.seed).uniform(u);
    inside_circle(s.ctx)(s.queue, u, u);
  } catch (...) {
    blas.join();
    throw;
  }
  blas.join();
  if (blas_error) std::rethrow_exception(blas_error);
}

row gemm(const setup& s) {
  const std::size_t m = gemm_side(s.n);
  std::mt19937 rng(s.seed + 2);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> ah(m * m), bh(m * m);
  for (auto& v : ah) v = dist(rng);
  for (auto& v : bh) v = dist(rng);
  auto a = anycl::array<float>::from_host(s.queue, ah, {m, m});
  auto b = anycl::array<float>::from_host(s.queue, bh, {m, m});
  auto c = anycl::array<float>::zeros(s.queue, {m, m});
  // The first call builds CLBlast's kernels for this size (or starts OpenBLAS); the second is
  // timed.
  anycl::blas::gemm(anycl::blas::transpose::none, anycl::blas::transpose::none, 1.0f, a, b, 0.0f, c)
      .wait();
  auto t0 = std::chrono::steady_clock::now();
  anycl::blas::gemm(anycl::blas::transpose::none, anycl::blas::transpose::none, 1.0f, a, b, 0.0f, c)
      .wait();
  const double device_ms = ms_since(t0);
  const std::vector<float> got = c.to_host();

  t0 = std::chrono::steady_clock::now();
  std::vector<double> want(m * m, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k = 0; k < m; ++k) {
      const double aik = ah[i * m + k];
      for (std::size_t j = 0; j < m; ++j) want[i * m + j] += aik * double(bh[k * m + j]);
    }
  const double host = ms_since(t0);
  double err = 0;
  for (std::size_t i = 0; i < m * m; ++i) err = std::max(err, std::fabs(got[i] - want[i]));
  // Float sums of m products of numbers in [-1, 1]: a bound well above their rounding error.
  const double tol = 4e-6 * double(m);
  char check[128];
  std::snprintf(check, sizeof check, "max abs error %.1e (bound %.0e), %.1f GFLOP/s", err, tol,
                2.0 * double(m) * double(m) * double(m) / (device_ms * 1e6));
  const std::string side = std::to_string(m);
  return {"gemm", side + "x" + side + " sgemm", device_ms, host, check, err <= tol};
}

namespace {

// The radix-2 decimation-in-time FFT (forward, unscaled) in place; x.size() a power of two.
void host_fft(std::vector<std::complex<double>>& x) {
  const std::size_t n = x.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(x[i], x[j]);
  }
  const double pi = std::acos(-1.0);
  for (std::size_t len = 2; len <= n; len <<= 1) {
    for (std::size_t i = 0; i < n; i += len)
      for (std::size_t k = 0; k < len / 2; ++k) {
        const std::complex<double> w = std::polar(1.0, -2 * pi * double(k) / double(len));
        const std::complex<double> u = x[i + k], v = x[i + k + len / 2] * w;
        x[i + k] = u + v;
        x[i + k + len / 2] = u - v;
      }
  }
}

}  // namespace

row fft(const setup& s) {
  const std::size_t len = fft_length(s.n);
  // Three sines at whole frequencies (cycles per len samples) in Gaussian noise of sd 1.
  const std::size_t freq[3] = {len / 20 + 1, len * 2 / 15 + 3, len * 3 / 10 + 7};
  const double amp[3] = {1.0, 0.7, 0.5}, pi = std::acos(-1.0);
  std::mt19937 rng(s.seed + 3);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<std::complex<float>> xh(len);
  for (std::size_t t = 0; t < len; ++t) {
    double v = noise(rng);
    for (int j = 0; j < 3; ++j)
      v += amp[j] * std::sin(2 * pi * double(freq[j] * t % len) / double(len));
    xh[t] = {static_cast<float>(v), 0.0f};
  }
  auto in = anycl::array<std::complex<float>>::from_host(s.queue, xh);
  auto out = anycl::array<std::complex<float>>::empty(s.queue, len);
  anycl::fft::plan plan(s.queue, anycl::fft::plan_desc::c2c({len}));
  plan.execute(in, out).wait();  // the first call builds clFFT's kernels; the second is timed
  auto t0 = std::chrono::steady_clock::now();
  plan.execute(in, out).wait();
  const double device_ms = ms_since(t0);
  const std::vector<std::complex<float>> got = out.to_host();

  t0 = std::chrono::steady_clock::now();
  std::vector<std::complex<double>> want(xh.begin(), xh.end());
  host_fft(want);
  const double host = ms_since(t0);
  double err = 0, norm = 0;
  for (std::size_t k = 0; k < len; ++k) {
    err = std::max(err, std::abs(std::complex<double>(got[k]) - want[k]));
    norm = std::max(norm, std::abs(want[k]));
  }
  const double rel = err / norm;
  // The three strongest bins of the device's spectrum below len / 2 are the planted frequencies.
  std::vector<std::size_t> bins(len / 2 - 1);
  for (std::size_t k = 0; k < bins.size(); ++k) bins[k] = k + 1;
  std::partial_sort(bins.begin(), bins.begin() + 3, bins.end(), [&](std::size_t x, std::size_t y) {
    return std::abs(got[x]) > std::abs(got[y]);
  });
  std::sort(bins.begin(), bins.begin() + 3);
  const bool peaks = bins[0] == freq[0] && bins[1] == freq[1] && bins[2] == freq[2];
  char check[160];
  std::snprintf(check, sizeof check, "peaks at %zu %zu %zu (planted %zu %zu %zu), error %.1e",
                bins[0], bins[1], bins[2], freq[0], freq[1], freq[2], rel);
  return {"fft", std::to_string(len) + " complex", device_ms, host, check, peaks && rel <= 1e-5};
}

row sort(const setup& s) {
  std::mt19937 rng(s.seed + 4);
  std::vector<std::uint32_t> keys(s.n);
  for (auto& k : keys) k = static_cast<std::uint32_t>(rng());
  // A first, small sort builds the sort kernels; the big one is timed.
  auto warm = anycl::array<std::uint32_t>::from_host(
      s.queue, std::vector<std::uint32_t>(keys.begin(), keys.begin() + 1024));
  anycl::sort(warm);
  warm.wait();
  auto dev = anycl::array<std::uint32_t>::from_host(s.queue, keys);
  dev.wait();
  auto t0 = std::chrono::steady_clock::now();
  anycl::sort(dev);
  dev.wait();
  const double device_ms = ms_since(t0);
  const std::vector<std::uint32_t> got = dev.to_host();

  t0 = std::chrono::steady_clock::now();
  std::sort(keys.begin(), keys.end());
  const double host = ms_since(t0);
  std::size_t first_bad = 0;
  while (first_bad < keys.size() && got[first_bad] == keys[first_bad]) ++first_bad;
  const bool ok = first_bad == keys.size();
  const std::string check =
      ok ? "equal to std::sort" : "differs from std::sort at key " + std::to_string(first_bad);
  return {"sort", std::to_string(s.n) + " uint32 keys", device_ms, host, check, ok};
}

row montecarlo(const setup& s) {
  const std::size_t samples = 4 * s.n;
  // Points uniform in the unit square; the fraction inside the quarter circle estimates pi / 4.
  anycl::reduction_kernel<std::uint64_t> inside(s.ctx, "0", "a + b",
                                                "x[i] * x[i] + y[i] * y[i] < 1.0f ? 1 : 0",
                                                "global const float* x, global const float* y");
  anycl::random_generator gen(s.seed);
  {  // a first, small run builds the random and reduction kernels; the big one is timed
    auto wx = anycl::array<float>::empty(s.queue, 1024);
    anycl::random_generator(s.seed + 1).uniform(wx);
    inside(s.queue, wx, wx);
  }
  auto x = anycl::array<float>::empty(s.queue, samples);
  auto y = anycl::array<float>::empty(s.queue, samples);
  auto t0 = std::chrono::steady_clock::now();
  gen.uniform(x);
  gen.uniform(y);
  const std::uint64_t hits = inside(s.queue, x, y);
  const double device_ms = ms_since(t0);
  const double estimate = 4.0 * double(hits) / double(samples);

  t0 = std::chrono::steady_clock::now();
  std::mt19937 rng(s.seed + 5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::uint64_t host_hits = 0;
  for (std::size_t i = 0; i < samples; ++i) {
    const float px = u(rng), py = u(rng);
    host_hits += px * px + py * py < 1.0f;
  }
  const double host = ms_since(t0);
  const double host_estimate = 4.0 * double(host_hits) / double(samples);
  // The estimate's standard deviation: 4 sqrt(p (1 - p) / samples) with p = pi / 4.
  const double pi = std::acos(-1.0), p = pi / 4;
  const double sigma = 4 * std::sqrt(p * (1 - p) / double(samples));
  const double dev_sigmas = std::fabs(estimate - pi) / sigma;
  const double host_sigmas = std::fabs(host_estimate - pi) / sigma;
  char check[128];
  std::snprintf(check, sizeof check, "pi %.5f (%.1f sigma), host %.5f (%.1f sigma)", estimate,
                dev_sigmas, host_estimate, host_sigmas);
  return {"montecarlo", std::to_string(samples) + " points", device_ms, host,
          check,        dev_sigmas <= 5 && host_sigmas <= 5};
}

}  // namespace demo
