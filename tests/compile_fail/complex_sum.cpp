// SPDX-License-Identifier: Apache-2.0
// Must not compile: a reduction of a complex array (complex arrays hold data for BLAS and FFT;
// CTest checks the static_assert text).
#include <complex>

#include "anycl/anycl.hpp"
#include "anycl/reduce.hpp"

std::complex<float> total(const anycl::array<std::complex<float>>& a) { return anycl::sum(a); }
