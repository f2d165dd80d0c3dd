// SPDX-License-Identifier: Apache-2.0
// Host references the array tests share.
#pragma once

#include <cstddef>
#include <vector>

#include "anycl/array.hpp"

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

}  // namespace anycl::test
