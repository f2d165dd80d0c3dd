// SPDX-License-Identifier: Apache-2.0
// Must not compile: a math function complex values do not take (CTest checks the static_assert
// text, which lists those they take).
#include <complex>

#include "anycl/anycl.hpp"

anycl::array<std::complex<float>> wave(const anycl::array<std::complex<float>>& z) {
  return sin(z);
}
