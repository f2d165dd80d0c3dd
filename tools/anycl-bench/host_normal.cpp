// SPDX-License-Identifier: Apache-2.0
// The array_random_normal row's host reference: Philox4x32-10 and Box-Muller over blocks in one
// `omp parallel for simd` loop, the rounds on scalars as in host_reference.cpp's uniform fill.
// GCC 12 keeps the log and sincos calls scalar here (also with -ffast-math, measured), so this
// is a parallel fill at libm's speed; the check compares it with the serial reference.
#include <cmath>
#include <cstdint>

#include "host_philox.hpp"
#include "host_reference.hpp"

namespace anycl::bench::host {

namespace {

// Elements 4 c .. 4 c + 3 of the stream into o: Philox4x32-10 of counter {c0, c1, 0, 0} under
// {k0, k1} on scalars (so the loop vectorises across blocks), then Box-Muller on its word pairs.
inline void normal4(std::uint32_t c0, std::uint32_t c1, std::uint32_t k0, std::uint32_t k1,
                    float* o) {
  std::uint32_t c2 = 0, c3 = 0;
  philox_rounds(c0, c1, c2, c3, k0, k1);
  const float pi = 3.14159265358979f;
  const float r0 =
      std::sqrt(-2.0f * std::log(static_cast<float>(c0 >> 8) * 0x1.0p-24f + 0x1.0p-24f));
  const float t0 = static_cast<float>(c1 >> 8) * 0x1.0p-23f * pi;
  const float r1 =
      std::sqrt(-2.0f * std::log(static_cast<float>(c2 >> 8) * 0x1.0p-24f + 0x1.0p-24f));
  const float t1 = static_cast<float>(c3 >> 8) * 0x1.0p-23f * pi;
  o[0] = r0 * std::cos(t0);
  o[1] = r0 * std::sin(t0);
  o[2] = r1 * std::cos(t1);
  o[3] = r1 * std::sin(t1);
}

}  // namespace

void philox_normal(float* out, std::size_t n, std::uint64_t seed) {
  const auto k0 = static_cast<std::uint32_t>(seed), k1 = static_cast<std::uint32_t>(seed >> 32);
  const auto full = static_cast<std::int64_t>(n / 4);
#pragma omp parallel for simd schedule(static)
  for (std::int64_t c = 0; c < full; ++c)
    normal4(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32), k0, k1,
            out + 4 * c);
  if (n % 4 != 0) {  // the last, partial block
    float rest[4];
    normal4(static_cast<std::uint32_t>(full), static_cast<std::uint32_t>(full >> 32), k0, k1, rest);
    for (std::size_t j = 0; j < n % 4; ++j) out[4 * static_cast<std::size_t>(full) + j] = rest[j];
  }
}

}  // namespace anycl::bench::host
