// SPDX-License-Identifier: Apache-2.0
// A numpy-style workflow on the device, checked against the same steps on the host: normalise
// the columns of a matrix with broadcasting, mask its outliers, histogram what remains.
#include <anycl/anycl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

int main() try {
  auto q = anycl::command_queue(anycl::select_device());
  const std::size_t rows = 4096, cols = 16;
  // Column c: mean about c, spread 1 + c / 8, and every 997th value a far outlier.
  std::vector<float> host(rows * cols);
  std::uint32_t s = 7;
  for (std::size_t i = 0; i < host.size(); ++i) {
    float t = 0;
    for (int j = 0; j < 4; ++j) t += static_cast<float>((s = s * 1664525u + 1013904223u) >> 8);
    const auto c = static_cast<float>(i % cols);
    host[i] = c + (t / 16777216.0f - 2.0f + (i % 997 == 0 ? 40.0f : 0.0f)) * (1.0f + c / 8.0f);
  }
  auto m = anycl::array<float>::from_host(q, host, {rows, cols});

  // z = (m - mean) / std per column: the (1, cols) statistics broadcast over the rows, and the
  // right-hand side is one fused kernel.
  const anycl::array<float> mu = anycl::mean(m, anycl::axis{0}, anycl::keepdims);
  const anycl::array<float> sd = anycl::std(m, anycl::axis{0}, anycl::keepdims);
  anycl::array<float> z = (m - mu) / sd;
  // Outliers are beyond 3 standard deviations: counted per column, the rest kept and binned.
  const auto outliers = anycl::count_if(anycl::abs(z) > 3.0f, anycl::axis{0}).to_host();
  anycl::array<float> kept = anycl::compress(anycl::abs(z) <= 3.0f, z);
  const auto counts = anycl::histogram(kept, 12, -3.0f, 3.0f).counts.to_host();

  // The same on the host, summing in double; the masks on the device's z (a value at exactly 3).
  const auto got = z.to_host();
  std::size_t bad = 0, kept_host = 0, total = 0, out_total = 0;
  std::vector<std::uint64_t> out_host(cols, 0);
  for (std::size_t c = 0; c < cols; ++c) {
    double sum = 0, sq = 0;
    for (std::size_t r = 0; r < rows; ++r) sum += host[r * cols + c];
    for (std::size_t r = 0; r < rows; ++r) sq += std::pow(host[r * cols + c] - sum / rows, 2);
    for (std::size_t r = 0; r < rows; ++r) {
      const double want = (host[r * cols + c] - sum / rows) / std::sqrt(sq / rows);
      bad += std::fabs(got[r * cols + c] - want) > 1e-4 ? 1 : 0;
      std::fabs(got[r * cols + c]) > 3.0f ? ++out_host[c] : ++kept_host;
    }
  }
  for (std::uint64_t c : counts) total += c;
  for (std::uint64_t c : out_host) out_total += c;
  if (bad != 0 || outliers != out_host || kept.size() != kept_host || total != kept_host) {
    std::fprintf(stderr, "%zu values, or the masks, differ from the host computation\n", bad);
    return 1;
  }
  std::printf("normalised %zu x %zu columns: means %.3g..%.3g, deviations %.3g..%.3g\n", rows, cols,
              anycl::min(mu), anycl::max(mu), anycl::min(sd), anycl::max(sd));
  std::printf("masked %zu outliers beyond 3 sigma, kept %zu values\n", out_total, kept.size());
  std::printf("histogram of the rest, 12 bins over [-3, 3]:");
  for (std::uint64_t c : counts) std::printf(" %llu", static_cast<unsigned long long>(c));
  std::printf("\nnumpy workflow: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
