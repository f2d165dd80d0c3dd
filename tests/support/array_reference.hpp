// SPDX-License-Identifier: Apache-2.0
// Host references the array tests share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/broadcast.hpp"

namespace anycl::test {

/// The row-major elements of a (possibly strided) view of `base`, read on the host through the
/// view's offset and strides (0 along broadcast axes): what the device should see through it.
template <class T>
std::vector<T> host_gather(const std::vector<T>& base, const anycl::array<T>& view) {
  std::vector<T> out;
  const auto& s = view.shape();
  std::size_t idx[anycl::shape::max_dims] = {};
  for (std::size_t k = 0; k < view.size(); ++k) {
    std::size_t off = view.offset();
    for (unsigned d = 0; d < s.dims(); ++d) off += idx[d] * view.strides()[d];
    out.push_back(base[off]);
    for (unsigned d = s.dims(); d-- > 0;) {
      if (++idx[d] < s[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

/// Values in [-1, 1) from a fixed sequence, so a failure repeats.
inline std::vector<float> values(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  std::uint32_t s = 2654435761u * (seed + 1);
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) * (2.0f / 16777216.0f) - 1.0f;
  }
  return v;
}

/// Operands of no contiguous layout: a (rows, n) matrix as the transposed view of its (n, rows)
/// transpose, and a row of every other element of an array twice as long (it broadcasts over the
/// rows); `m` is mt's elements and `diff` mt - row on the host, row-major.
struct strided_operands {
  anycl::array<float> mt, row;
  std::vector<float> m, diff;
};

inline strided_operands make_strided_operands(const anycl::command_queue& q, std::size_t rows,
                                              std::size_t n) {
  const std::vector<float> hm = values(rows * n, 3), hr = values(2 * n, 4);
  strided_operands o;
  o.mt = anycl::array<float>::from_host(q, hm, {n, rows}).transpose();
  o.row = anycl::array<float>::from_host(q, hr).slice(0, 0, 2 * n, 2);
  o.m = host_gather(hm, o.mt);
  const std::vector<float> vr = host_gather(hr, anycl::broadcast_to(o.row, {rows, n}));
  o.diff.resize(o.m.size());
  for (std::size_t i = 0; i < o.m.size(); ++i) o.diff[i] = o.m[i] - vr[i];
  return o;
}

}  // namespace anycl::test
