// SPDX-License-Identifier: Apache-2.0
// What the [kernels] tests share: the sizes around a work-group boundary, exact test values and
// small host references.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "anycl/array.hpp"
#include "support/device_fixture.hpp"

namespace anycl::test::kernels {

inline const std::size_t sizes[] = {1, 63, 64, 65, 1000};

/// A 2-D shape of n elements, as square as n allows.
inline anycl::shape shape_2d(std::size_t n) {
  std::size_t rows = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  while (n % rows != 0) --rows;
  return {rows, n / rows};
}

/// Small values with repeats and (for signed types) negatives, exact in every type.
template <class T>
std::vector<T> values(std::size_t n, unsigned salt = 0) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const long k = static_cast<long>((i * 7919 + salt * 104729) % 37);
    v[i] = std::is_signed_v<T> ? static_cast<T>(k - 18) : static_cast<T>(k);
  }
  return v;
}

template <class T>
bool fp64_needed() {
  return std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;
}

/// False (with a warning) when T needs fp64 and the device has none.
template <class T>
bool supported(const anycl::test::env& e) {
  if (fp64_needed<T>() && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return false;
  }
  return true;
}

template <class T>
std::vector<T> every(const std::vector<T>& v, std::size_t begin, std::size_t step) {
  std::vector<T> out;
  for (std::size_t i = begin; i < v.size(); i += step) out.push_back(v[i]);
  return out;
}

template <class T>
std::vector<T> transposed(const std::vector<T>& v, const anycl::shape& s) {
  std::vector<T> out(v.size());
  for (std::size_t r = 0; r < s[0]; ++r)
    for (std::size_t c = 0; c < s[1]; ++c) out[c * s[0] + r] = v[r * s[1] + c];
  return out;
}

}  // namespace anycl::test::kernels
