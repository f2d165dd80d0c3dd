// SPDX-License-Identifier: Apache-2.0
// Values that test a rounding to half: around every finite half, the value itself, the midpoint
// to the next one (a tie) and one ulp of F either side of it, with both signs, and the extremes.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "anycl/half.hpp"

namespace anycl::test {

inline bool is_nan_half(std::uint16_t b) { return (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0; }

/// The same rounding: equal bits, or both NaN (payloads may differ).
inline bool same_half(std::uint16_t a, std::uint16_t b) {
  return a == b || (is_nan_half(a) && is_nan_half(b));
}

template <class F>
std::vector<F> half_probes() {
  std::vector<F> v;
  for (std::uint32_t b = 0; b < 0x7c00u; ++b) {
    const F x = static_cast<float>(half::from_bits(static_cast<std::uint16_t>(b)));
    const F next = static_cast<float>(half::from_bits(static_cast<std::uint16_t>(b + 1)));
    const F mid = x + (next - x) / 2;  // exact: halves have 11 significant bits
    for (F p : {x, mid, std::nextafter(mid, F(0)), std::nextafter(mid, F(1e9)),
                std::nextafter(x, F(1e9))}) {
      v.push_back(p);
      v.push_back(-p);
    }
  }
  for (F p : {F(65519.996), F(65520), F(1e10), std::numeric_limits<F>::infinity(),
              std::numeric_limits<F>::quiet_NaN(), std::numeric_limits<F>::denorm_min(), F(0x1p-25),
              std::nextafter(F(0x1p-25), F(1))})
    v.insert(v.end(), {p, -p});
  return v;
}

}  // namespace anycl::test
