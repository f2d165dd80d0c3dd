// SPDX-License-Identifier: Apache-2.0
// The operands of a BLAS call put in their roles: views as they are, arrays through the checks
// of anycl/blas.hpp's file comment. Private to src/blas.
#pragma once

#include <initializer_list>

#include "blas/call.hpp"

namespace anycl::detail {

/// Puts the view operands into c's members, by the roles of its routine.
void place_views(blas_call& c, std::initializer_list<blas_operand> operands);
/// Puts the array operands there: 2-D arrays as matrices (3-D for a batched routine, whose batch
/// counts must agree), 1-D arrays as vectors; std::invalid_argument for any other array.
void place_arrays(blas_call& c, std::initializer_list<blas_operand> operands);
/// A 1-element array as c's result.
void place_result(blas_call& c, const array_core& result);

}  // namespace anycl::detail
