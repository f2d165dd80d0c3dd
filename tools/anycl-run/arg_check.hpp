// SPDX-License-Identifier: Apache-2.0
// The check of command-line argument specs against a kernel's declared parameters (argument
// info), with typedefs resolved through the kernel's source.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/kernel.hpp"
#include "arg_spec.hpp"
#include "typedefs.hpp"

namespace anycl::tools {

/// A declared type name as drivers spell it, made comparable: qualifiers dropped, "unsigned int"
/// -> "uint", "signed char" -> "char", no spaces ("float *" -> "float*").
std::string normalize_type_name(std::string_view declared);

/// A parameter's type with its address space, normalized: "__global float*", "uint".
std::string declared_type(const kernel_arg_info& param);
/// How a parameter reads in messages: "__global float* x", "uint n".
std::string describe_param(const kernel_arg_info& param);

/// What the kernel's source says of type names that are not OpenCL C's.
struct source_types {
  type_aliases aliases;                      ///< its simple typedefs
  std::map<std::string, std::size_t> sizes;  ///< sizeof of the types in unknown_types()
};

/// The types of `params`, after `aliases`, that are not OpenCL C's, nor opaque (images, samplers,
/// pipes): for a pointer its pointee. Their sizes can only come from the compiler.
std::vector<std::string> unknown_types(const std::vector<kernel_arg_info>& params,
                                       const type_aliases& aliases);

/// Checks `args` against the kernel's parameters (from -cl-kernel-arg-info): their number, each
/// one's address space (__global/__constant pointer: in, out, inout; __local pointer: local:;
/// private: a value) and type (a value's type name, a buffer's element type; a void* buffer takes
/// any element type). Returns one message per mismatch, naming the argument's index and name, the
/// declared type and what was given; empty when everything fits.
/// A declared type that is not OpenCL C's (a typedef: argument info reports its name) is looked
/// up in `types.aliases` (the source's simple typedefs) and checked as what it stands for; one
/// that is not there either (a struct) is checked by address space and by `types.sizes`: a value
/// of exactly its size, a buffer of a whole number of them. Each such case adds a line to
/// `assumptions` saying what was taken.
std::vector<std::string> check_arguments(const std::string& kernel,
                                         const std::vector<kernel_arg_info>& params,
                                         const std::vector<arg_spec>& args,
                                         const source_types& types = {},
                                         std::vector<std::string>* assumptions = nullptr);

}  // namespace anycl::tools
