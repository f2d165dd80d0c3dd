// SPDX-License-Identifier: Apache-2.0
// The array layer's checks on operands: not a default-constructed array, and a destination
// whose elements do not repeat.
#pragma once

#include "anycl/array.hpp"

namespace anycl::detail {

/// Throws std::invalid_argument "<what>: the array is empty (default-constructed)", or "the
/// <role> array" when `role` names which operand it is, unless `a` holds a buffer.
void require_array(const array_core& a, const char* what, const char* role = nullptr);
/// Throws std::invalid_argument "<what>: the destination is a broadcast view ..." when `a`'s
/// elements repeat (stride 0 along an axis of extent above 1): writing it would race.
void require_writable(const array_core& a, const char* what);

}  // namespace anycl::detail
