// SPDX-License-Identifier: Apache-2.0
// The array layer's check that an operand is not a default-constructed array.
#pragma once

#include "anycl/array.hpp"

namespace anycl::detail {

/// Throws std::invalid_argument "<what>: the array is empty (default-constructed)", or "the
/// <role> array" when `role` names which operand it is, unless `a` holds a buffer.
void require_array(const array_core& a, const char* what, const char* role = nullptr);

}  // namespace anycl::detail
