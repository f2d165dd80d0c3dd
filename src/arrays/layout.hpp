// SPDX-License-Identifier: Apache-2.0
// Array layouts as the array layer's kernels take them.
#pragma once

#include <cstddef>

#include "anycl/array.hpp"

namespace anycl::detail {

/// The row-major, gap-free layout of `s` at offset 0.
array_layout dense_layout(const anycl::shape& s) noexcept;
/// One past the furthest element of `l` (0 when empty), for bounds checks.
std::size_t layout_span(const array_layout& l) noexcept;
/// The extents and strides of a layout padded to 4 dimensions (leading extents 1, strides 0), as
/// anycl_strided_index() in loop.h takes them.
cl_ulong4 padded_extents(const array_layout& l);
cl_ulong4 padded_strides(const array_layout& l);

}  // namespace anycl::detail
