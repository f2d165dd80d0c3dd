// SPDX-License-Identifier: Apache-2.0
// Array layouts: the dense layout of a shape, the span of a view, the padded 4-D form kernels take.
#include "arrays/layout.hpp"

namespace anycl::detail {

array_layout dense_layout(const anycl::shape& s) noexcept {
  array_layout l;
  l.extents = s;
  std::size_t stride = 1;
  for (unsigned i = s.dims(); i-- > 0;) {
    l.strides[i] = stride;
    stride *= s[i];
  }
  return l;
}

std::size_t layout_span(const array_layout& l) noexcept {
  if (l.extents.size() == 0) return 0;
  std::size_t last = l.offset;
  for (unsigned i = 0; i < l.extents.dims(); ++i) last += (l.extents[i] - 1) * l.strides[i];
  return last + 1;
}

cl_ulong4 padded_extents(const array_layout& l) {
  cl_ulong4 v;
  const unsigned d = l.extents.dims();
  for (unsigned i = 0; i < 4; ++i) v.s[i] = 1;
  for (unsigned i = 0; i < d; ++i) v.s[4 - d + i] = l.extents[i];
  return v;
}

cl_ulong4 padded_strides(const array_layout& l) {
  cl_ulong4 v;
  const unsigned d = l.extents.dims();
  for (unsigned i = 0; i < 4; ++i) v.s[i] = 0;
  for (unsigned i = 0; i < d; ++i) v.s[4 - d + i] = l.strides[i];
  return v;
}

}  // namespace anycl::detail
