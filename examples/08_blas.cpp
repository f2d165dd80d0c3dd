// SPDX-License-Identifier: Apache-2.0
// BLAS on device arrays (CLBlast underneath): a matrix product, a transposed operand, gemv, nrm2.
#include <anycl/anycl.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <vector>

int main() try {
  namespace blas = anycl::blas;
  auto q = anycl::command_queue(anycl::select_device());
  const std::size_t m = 200, k = 150, n = 120;

  std::vector<float> ha(m * k), hb(k * n), hx(n);
  for (std::size_t i = 0; i < ha.size(); ++i) ha[i] = static_cast<float>(i % 17) / 16.0f - 0.5f;
  for (std::size_t i = 0; i < hb.size(); ++i) hb[i] = static_cast<float>(i % 13) / 12.0f - 0.25f;
  for (std::size_t i = 0; i < n; ++i) hx[i] = 1.0f / static_cast<float>(i + 1);
  auto a = anycl::array<float>::from_host(q, ha, {m, k});  // row-major m x k
  auto b = anycl::array<float>::from_host(q, hb, {k, n});
  auto x = anycl::array<float>::from_host(q, hx);

  // C = A * B as a new array; the first call of a shape compiles CLBlast's kernels (cached after).
  anycl::array<float> c = blas::matmul(a, b);
  // C2 = 2 * A * (B^T)^T + 0 * C2: a transpose() view is passed as it is, without a copy.
  auto c2 = anycl::array<float>::zeros(q, {m, n});
  auto bt = b.transpose().copy();  // an n x k array holding B^T
  blas::gemm(blas::transpose::none, blas::transpose::none, 2.0f, a, bt.transpose(), 0.0f, c2);
  // y = C * x, and its Euclidean norm (a 1-element array).
  auto y = anycl::array<float>::zeros(q, {m});
  blas::gemv(blas::transpose::none, 1.0f, c, x, 0.0f, y);
  const float norm = blas::nrm2(y).to_host()[0];

  // The host: C, 2C, y and ||y||, in double.
  std::vector<float> gc = c.to_host(), gc2 = c2.to_host(), gy = y.to_host();
  double worst = 0, hnorm = 0;
  for (std::size_t i = 0; i < m; ++i) {
    double yi = 0;
    for (std::size_t j = 0; j < n; ++j) {
      double cij = 0;
      for (std::size_t p = 0; p < k; ++p) cij += double(ha[i * k + p]) * hb[p * n + j];
      worst = std::fmax(worst, std::fabs(gc[i * n + j] - cij));
      worst = std::fmax(worst, std::fabs(gc2[i * n + j] - 2 * cij));
      yi += cij * hx[j];
    }
    worst = std::fmax(worst, std::fabs(gy[i] - yi));
    hnorm += yi * yi;
  }
  hnorm = std::sqrt(hnorm);
  std::printf("C = A B: %zu x %zu x %zu, C[0][0] = %g; ||C x|| = %g (host %g)\n", m, k, n, gc[0],
              norm, hnorm);
  std::printf("largest difference from the host: %.3g\n", worst);
  if (worst > 1e-3 || std::fabs(norm - hnorm) > 1e-4 * hnorm) {
    std::fprintf(stderr, "BLAS results differ from the host computation\n");
    return 1;
  }
  std::printf("blas: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
