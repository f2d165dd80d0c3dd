// SPDX-License-Identifier: Apache-2.0
// numpy's broadcasting rule for the array layer's internals.
#pragma once

#include "anycl/array.hpp"
#include "anycl/broadcast.hpp"

namespace anycl::detail {

/// anycl::broadcast_shapes with its errors as "<what>: shapes (..) and (..) do not broadcast
/// (axis i of the result: extents x and y)".
anycl::shape broadcast_shapes(const anycl::shape& a, const anycl::shape& b, const char* what);

/// Whether an array of shape `from` broadcasts to shape `to` (one-way: `to` does not stretch).
bool broadcasts_to(const anycl::shape& from, const anycl::shape& to) noexcept;
/// `l` viewed with shape `s`, to which its extents broadcast: stride 0 along the axes it gains or
/// stretches from extent 1. Throws std::invalid_argument naming both shapes otherwise.
array_layout broadcast_layout(const array_layout& l, const anycl::shape& s, const char* what);

}  // namespace anycl::detail
