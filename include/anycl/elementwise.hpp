// SPDX-License-Identifier: Apache-2.0
// Element-wise work on device arrays: expressions fused into one generated kernel per expression
// shape (anycl/expression.hpp) and user element-wise kernels written as an OpenCL parameter list
// and a loop body (anycl/elementwise_kernel.hpp).
#pragma once

#include "anycl/elementwise_kernel.hpp"
#include "anycl/expression.hpp"
