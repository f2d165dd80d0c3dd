// SPDX-License-Identifier: Apache-2.0
// The transform lengths clFFT 2.12 supports (products of 2, 3, 5, 7, 11 and 13) and the nearest
// ones to a length it does not.
#include "anycl/fft.hpp"

#include <cstddef>

namespace anycl::fft {

bool is_supported_length(std::size_t n) noexcept {
  if (n == 0) return false;
  for (std::size_t p : {2, 3, 5, 7, 11, 13})
    while (n % p == 0) n /= p;
  return n == 1;
}

supported_lengths nearest_supported(std::size_t n) {
  supported_lengths out;
  if (n == 0) {
    out.above = 1;
    return out;
  }
  out.below = n;
  while (!is_supported_length(out.below)) --out.below;
  out.above = n;
  while (out.above != 0 && !is_supported_length(out.above)) ++out.above;  // 0: wrapped around
  return out;
}

}  // namespace anycl::fft
