// SPDX-License-Identifier: Apache-2.0
// How each family of BLAS routines is checked and prepared: the `prepare` of the descriptors in
// routines.cpp. Private to src/blas.
#pragma once

#include "blas/call.hpp"

namespace anycl::detail {

/// Checks the call (the vectors of its roles, then its descriptor's shape rules) and returns what
/// CLBlast is called with; throws for every argument error.
blas_plan prepare(const blas_call& c);

// The descriptors' shape rules, by family.
void prepare_vectors(const blas_call& c, blas_plan& p);  ///< level 1: x (and y, and a result)
void prepare_gemv(const blas_call& c, blas_plan& p);
void prepare_ger(const blas_call& c, blas_plan& p);  ///< ger, geru, gerc
void prepare_trsv(const blas_call& c, blas_plan& p);
void prepare_gemm(const blas_call& c, blas_plan& p);  ///< gemm and gemm_batched
void prepare_symm(const blas_call& c, blas_plan& p);
void prepare_syrk(const blas_call& c, blas_plan& p);
void prepare_triangular(const blas_call& c, blas_plan& p);  ///< trmm and trsm

}  // namespace anycl::detail
