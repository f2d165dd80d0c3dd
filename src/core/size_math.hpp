// SPDX-License-Identifier: Apache-2.0
// Overflow-checked size arithmetic for the extent checks of the BLAS and FFT wrappers.
#pragma once

#include <cstddef>
#include <limits>

namespace anycl::detail {

/// out = a * b + c; false (out untouched) when that does not fit in size_t.
inline bool mul_add(std::size_t a, std::size_t b, std::size_t c, std::size_t& out) noexcept {
  if (b != 0 && a > (std::numeric_limits<std::size_t>::max() - c) / b) return false;
  out = a * b + c;
  return true;
}

}  // namespace anycl::detail
