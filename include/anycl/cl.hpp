// SPDX-License-Identifier: Apache-2.0
// The only AnyCL header that includes the OpenCL C API.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#error \
    "CL_TARGET_OPENCL_VERSION is set by the anycl::anycl target; link to it instead of adding the include path by hand"
#endif

#include <CL/cl.h>
#include <CL/cl_ext.h>  // CL_PLATFORM_NOT_FOUND_KHR and other extension codes
