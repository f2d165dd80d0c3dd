// SPDX-License-Identifier: Apache-2.0
// What clBuildProgram, clCompileProgram and clLinkProgram share after the call: the logs in a
// build_error on failure, and on ANYCL_COMPILER_OUTPUT=1 a successful build's log on stderr.
#pragma once

#include <string>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/device.hpp"

namespace anycl::detail {

/// Throws build_error(call, status, ...) with every target's log unless status is CL_SUCCESS;
/// `raw` may be null (a failed link returns no program): the logs then say the driver gave none.
void finish_build(const char* call, cl_int status, cl_program raw, const std::string& name,
                  const std::string& opts, const std::vector<device>& targets);

}  // namespace anycl::detail
