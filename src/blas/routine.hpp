// SPDX-License-Identifier: Apache-2.0
// One descriptor per BLAS routine (the table is in routines.cpp): its name, the roles of its
// operands, how it is checked and prepared, and the CLBlast call per element type. Adding a
// routine is one row there plus its two public declarations in anycl/blas.hpp.
#pragma once

#include <clblast.h>

#include <complex>
#include <cstring>

#include "blas/call.hpp"

namespace anycl::detail {

/// The arguments of one CLBlast call for element type T (defined in routines.cpp).
template <class T>
struct clblast_args;
template <class T>
using clblast_fn = clblast::StatusCode (*)(const clblast_args<T>&);

/// The CLBlast call for each element type; null where CLBlast has none (dot on complex).
struct typed_calls {
  clblast_fn<float> f32 = nullptr;
  clblast_fn<double> f64 = nullptr;
  clblast_fn<std::complex<float>> c64 = nullptr;
  clblast_fn<std::complex<double>> c128 = nullptr;
};

struct blas_routine {
  /// "anycl::blas::gemm": messages start with it.
  const char* name;
  /// The operands in the order of the public signature, the output last: A, B, C matrices
  /// (3-D arrays for a batched routine), x, y vectors, r a result, i an index result (cl_uint).
  const char* roles;
  /// Checks the shapes of an operand-complete call and fills the plan; throws argument errors.
  void (*prepare)(const blas_call& c, blas_plan& p);
  typed_calls calls;
  bool batched = false;  ///< gemm_batched: strides and a batch count

  bool has(char role) const noexcept { return std::strchr(roles, role) != nullptr; }
  bool has_result() const noexcept { return has('r') || has('i'); }
};

/// The descriptor named `name` ("gemm"); std::logic_error for another name.
const blas_routine& find_routine(const char* name);

/// Enqueues the CLBlast call(s) of c's routine for its element type on `queue`, the last one's
/// event into `ev`.
clblast::StatusCode call_clblast(const blas_call& c, const blas_plan& p, const command_queue& queue,
                                 cl_event* ev);

}  // namespace anycl::detail
