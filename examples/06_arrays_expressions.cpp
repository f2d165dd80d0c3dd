// SPDX-License-Identifier: Apache-2.0
// Device arrays and element-wise expressions: each expression runs as one fused kernel.
#include <anycl/anycl.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

int main() try {
  auto q = anycl::command_queue(anycl::select_device());
  const std::size_t n = 1 << 20;

  // Arrays remember their queue; host data goes in with from_host and comes back with to_host.
  std::vector<float> host_y(n);
  for (std::size_t i = 0; i < n; ++i) host_y[i] = static_cast<float>(i % 100) / 100.0f;
  auto x = anycl::array<float>::arange(q, n, 0.0f, 0.001f);  // 0, 0.001, 0.002, ...
  auto y = anycl::array<float>::from_host(q, host_y);

  // One generated kernel for the whole right-hand side, no temporary arrays; the kernel is built
  // once per expression shape, so new scalar values reuse it.
  anycl::array<float> z = 2.0f * x + anycl::sin(y) * anycl::sqrt(x + 1.0f);
  // where(c, a, b) picks per element; comparisons give int32_t 0/1 arrays.
  anycl::array<float> clipped = anycl::where(z > 100.0f, 100.0f, z);
  anycl::array<std::int32_t> big = z > 100.0f;

  // Views share elements: a 1024 x 1024 matrix, its transpose and its first two rows.
  auto m = z.reshape({1024, 1024});
  auto mt = m.transpose();
  std::vector<float> row0 = m.slice(0, 1).to_host();
  std::vector<float> col0 = mt.slice(0, 1).to_host();  // column 0 of m, read through strides

  std::vector<float> got_z = z.to_host(), got_c = clipped.to_host();
  std::vector<std::int32_t> got_big = big.to_host();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float xi = 0.001f * static_cast<float>(i);  // arange computes start + i * step
    const float want = 2.0f * xi + std::sin(host_y[i]) * std::sqrt(xi + 1.0f);
    const bool close = std::fabs(got_z[i] - want) <= 1e-5f * (1.0f + std::fabs(want));
    if (!close || got_c[i] != (got_z[i] > 100.0f ? 100.0f : got_z[i]) ||
        got_big[i] != (got_z[i] > 100.0f))
      ++bad;
  }
  for (std::size_t j = 0; j < 1024; ++j)
    if (row0[j] != got_z[j] || col0[j] != got_z[j * 1024]) ++bad;
  if (bad != 0) {
    std::fprintf(stderr, "%zu elements differ from the host computation\n", bad);
    return 1;
  }
  std::printf("z = 2x + sin(y) sqrt(x + 1) on %zu floats: z[12345] = %g\n", n, got_z[12345]);
  std::printf("%zu of them above 100 (clipped by where); m is %s, m^T is %s\n",
              static_cast<std::size_t>(anycl::count_if(z, "x > 100.0f")), m.shape().str().c_str(),
              mt.shape().str().c_str());
  std::printf("expressions: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
