// SPDX-License-Identifier: Apache-2.0
// Must not compile: the largest of complex values (they have no order; reduce abs(z), real(z) or
// imag(z); CTest checks the static_assert text).
#include <complex>

#include "anycl/anycl.hpp"

std::complex<float> largest(const anycl::array<std::complex<float>>& a) {
  return anycl::max(a + a);
}
