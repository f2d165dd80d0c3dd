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

namespace {

// The d values of `v` in the last d of 4 lanes, the leading lanes `fill`.
template <class V>
cl_ulong4 pad_to_4(const V& v, unsigned d, cl_ulong fill) {
  cl_ulong4 out;
  for (unsigned i = 0; i < 4; ++i) out.s[i] = fill;
  for (unsigned i = 0; i < d; ++i) out.s[4 - d + i] = v[i];
  return out;
}

}  // namespace

cl_ulong4 padded_extents(const array_layout& l) { return pad_to_4(l.extents, l.extents.dims(), 1); }

cl_ulong4 padded_strides(const array_layout& l) { return pad_to_4(l.strides, l.extents.dims(), 0); }

}  // namespace anycl::detail
