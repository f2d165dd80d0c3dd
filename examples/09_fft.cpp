// SPDX-License-Identifier: Apache-2.0
// FFT (clFFT underneath): the frequencies in a noisy signal, and the inverse transform back.
#include <anycl/anycl.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

int main() try {
  namespace fft = anycl::fft;
  auto q = anycl::command_queue(anycl::select_device());
  const std::size_t n = 4096;           // lengths are products of 2, 3, 5, 7, 11, 13
  const std::size_t f1 = 50, f2 = 731;  // the frequencies hidden in the noise (cycles/n)
  const double pi = 3.14159265358979323846;

  std::mt19937 rng(42);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> signal(n);
  for (std::size_t t = 0; t < n; ++t)
    signal[t] =
        static_cast<float>(std::sin(2 * pi * f1 * t / n) + 0.5 * std::cos(2 * pi * f2 * t / n)) +
        noise(rng);
  auto x = anycl::array<float>::from_host(q, signal);
  auto spectrum = anycl::array<std::complex<float>>::empty(q, {n / 2 + 1});  // the half spectrum
  auto back = anycl::array<float>::empty(q, {n});

  // A plan is baked once for a device and a shape; execute() may run it many times.
  fft::plan forward(q, fft::plan_desc::r2c({n}));
  fft::plan inverse(q, fft::plan_desc::c2r({n}));  // scaled by 1/n: gives the input back
  forward.execute(x, spectrum);
  std::vector<std::complex<float>> s = spectrum.to_host();
  inverse.execute(spectrum, back);  // may overwrite `spectrum`, which was read above
  std::vector<float> round_trip = back.to_host();

  // The two strongest bins (0 excluded) should be f1 and f2.
  std::vector<std::size_t> bins(n / 2);
  for (std::size_t i = 0; i < bins.size(); ++i) bins[i] = i + 1;
  std::partial_sort(bins.begin(), bins.begin() + 2, bins.end(),
                    [&](std::size_t a, std::size_t b) { return std::abs(s[a]) > std::abs(s[b]); });
  const std::size_t found_lo = std::min(bins[0], bins[1]), found_hi = std::max(bins[0], bins[1]);
  std::printf("strongest frequencies: %zu (|X| = %.0f) and %zu (|X| = %.0f)\n", found_lo,
              std::abs(s[found_lo]), found_hi, std::abs(s[found_hi]));

  // The host: a direct DFT at those bins, and the round trip's error.
  double worst_bin = 0, worst_back = 0;
  for (std::size_t f : {f1, f2}) {
    std::complex<double> want = 0;
    for (std::size_t t = 0; t < n; ++t)
      want += double(signal[t]) * std::polar(1.0, -2 * pi * f * t / n);
    worst_bin = std::max(worst_bin, std::abs(std::complex<double>(s[f]) - want) / std::abs(want));
  }
  for (std::size_t t = 0; t < n; ++t)
    worst_back = std::max(worst_back, double(std::fabs(round_trip[t] - signal[t])));
  std::printf("relative error at those bins %.2g, inverse transform error %.2g\n", worst_bin,
              worst_back);
  if (found_lo != f1 || found_hi != f2 || worst_bin > 1e-4 || worst_back > 1e-4) {
    std::fprintf(stderr, "the FFT differs from the host computation\n");
    return 1;
  }
  std::printf("fft: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
