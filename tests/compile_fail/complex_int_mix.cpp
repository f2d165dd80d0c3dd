// SPDX-License-Identifier: Apache-2.0
// Must not compile: complex values next to an integer array (cast it to float first; CTest
// checks the static_assert text).
#include <complex>
#include <cstdint>

#include "anycl/anycl.hpp"

anycl::array<std::complex<float>> scaled(const anycl::array<std::complex<float>>& a,
                                         const anycl::array<std::int32_t>& k) {
  return a * k;
}
