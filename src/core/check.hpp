// SPDX-License-Identifier: Apache-2.0
// The private check helpers every source file uses around OpenCL calls.
#pragma once

#include <sstream>
#include <string>
#include <utility>

#include "anycl/error.hpp"

namespace anycl::detail {

/// Concatenates anything streamable; used to build messages only on the failure path.
template <class... Args>
std::string cat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

}  // namespace anycl::detail

/// Throws api_error{call, status, detail} if status is not CL_SUCCESS; the detail arguments are
/// concatenated only then.
#define ANYCL_CHECK(status, call, ...)                                                          \
  do {                                                                                          \
    const cl_int anycl_status_ = (status);                                                      \
    if (anycl_status_ != CL_SUCCESS)                                                            \
      ::anycl::detail::throw_api_error(call, anycl_status_, ::anycl::detail::cat(__VA_ARGS__)); \
  } while (false)
