// SPDX-License-Identifier: Apache-2.0
// The argument checks of the BLAS routines and their messages, which name the routine and list
// the shapes of its operands. Private to src/blas.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "blas/call.hpp"

namespace anycl::detail {

/// "(A 4x3 row-major ld 3 (view of 12 at element 0), x n 3 inc 1 (...))": the used operands.
std::string shapes(const blas_call& c);
/// std::invalid_argument / std::out_of_range "<routine>: <what> <shapes>".
[[noreturn]] void fail_invalid(const blas_call& c, const std::string& what);
[[noreturn]] void fail_range(const blas_call& c, const std::string& what);
/// "4x3".
std::string dims(std::size_t rows, std::size_t cols);

/// The leading dimension and extent of a matrix of `count` copies `stride` apart.
void check_matrix(const blas_call& c, const char* role, const blas_matrix& m, std::size_t count = 1,
                  std::size_t stride = 0);
/// The increment and extent of a vector.
void check_vector(const blas_call& c, const char* role, const blas_vector& v);
/// The result view holds an element.
void check_result(const blas_call& c);
/// x and y have the same number of elements.
void same_size(const blas_call& c);

/// The transpose as CLBlast should see it for this precision (conj of a real matrix is a no-op).
blas::transpose real_aware(blas::transpose t, scalar_type type);
/// op(M)'s rows and columns.
std::pair<std::size_t, std::size_t> op_dims(const blas_matrix& m, blas::transpose t);
/// M in `target` layout: the same memory read as M^T, with op flipped; A^H has no such flip.
void to_layout(const blas_call& c, const char* role, blas_matrix& m, blas::transpose& t,
               blas::layout target);
blas::triangle flip(blas::triangle t);

}  // namespace anycl::detail
