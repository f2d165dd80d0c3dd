// SPDX-License-Identifier: Apache-2.0
// The simple typedefs of an OpenCL C source (`typedef float real_t;`), so that parameters
// declared through them can be checked as the types they stand for.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace anycl::tools {

/// Alias name -> the type it stands for, as written (normalize before comparing).
using type_aliases = std::map<std::string, std::string>;

/// The typedefs of `source` that name a type in words and stars (`typedef unsigned int count_t;`,
/// `typedef float* fptr;`); comments are skipped, and typedefs of structs, unions, enums, arrays
/// and functions are left out (what they stand for has no name to check against).
type_aliases find_typedefs(std::string_view source);

/// `normalized` (a normalized type name, stars included) with aliases replaced until none is
/// left, at most 16 rounds (a cycle stops there); the name itself when it is no alias.
std::string resolve_alias(const type_aliases& aliases, const std::string& normalized);

}  // namespace anycl::tools
