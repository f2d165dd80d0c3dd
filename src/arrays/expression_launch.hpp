// SPDX-License-Identifier: Apache-2.0
// An expression's arguments as the launcher takes them (element-wise and reduction kernels).
#pragma once

#include "anycl/expression.hpp"
#include "arrays/library_kernels.hpp"

namespace anycl::detail {

/// The argument as the launcher takes it; valid while `a` lives and is not moved.
inline kernel_arg launch_arg(const expression_arg& a) noexcept {
  if (a.is_buffer) return arg_traits<anycl::buffer>::make(a.mem);
  return raw_arg(a.bytes.data(), a.size);
}

}  // namespace anycl::detail
