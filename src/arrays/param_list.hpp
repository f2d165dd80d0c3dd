// SPDX-License-Identifier: Apache-2.0
// The parameter lists of user kernels (elementwise_kernel, reduction_kernel): one grammar of
// OpenCL C scalars and global pointers to them, and the conversion of a call's scalar arguments to
// the declared types.
#pragma once

#include <string>
#include <vector>

#include "anycl/elementwise_kernel.hpp"
#include "anycl/scalar_type.hpp"

namespace anycl::detail {

/// One parameter as parsed.
struct parsed_parameter {
  std::string text;  ///< as written (trimmed)
  std::string name;
  scalar_type type = scalar_type::f32;  ///< the scalar, or what the pointer points to
  bool pointer = false;                 ///< a `global T*` (takes an array)
  bool is_const = false;                ///< `const T*` (or a const scalar)
  std::string declaration;              ///< normalized: "global const float* restrict x"
};

/// What the caller adds to the grammar: its name in messages and the names it reserves (besides
/// `anycl_...` and `...__off`, which every caller reserves).
struct param_list_rules {
  std::string who;                    ///< "elementwise_kernel 'axpy'", "anycl::reduction_kernel"
  std::vector<std::string> reserved;  ///< e.g. {"i", "i_end", "k"}
};

/// Parses a comma-separated parameter list (empty: no parameters). Each parameter is a type (char
/// ... ulong, float, double; `signed`/`unsigned` with an integer type or alone for int), optional
/// `const`, `restrict` and `volatile`, and a name; a pointer is `global T* name` and may not be
/// const itself. Throws std::invalid_argument "<who>: parameter N '<text>': <why>".
std::vector<parsed_parameter> parse_param_list(const std::string& list,
                                               const param_list_rules& rules);

/// True for a C identifier.
bool is_identifier(const std::string& s);
/// `s` without leading and trailing white space.
std::string trim(const std::string& s);

/// Converts a scalar call argument to parameter type `t` (a real type), writing size_of(t) bytes
/// to `out`. Integers must fit `t`; a floating-point value for an integer type must be a whole
/// number that fits, and one for float must fit float. Returns an empty string, or why the value
/// does not convert.
std::string convert_argument(const call_arg& a, scalar_type t, unsigned char* out);

}  // namespace anycl::detail
