// SPDX-License-Identifier: Apache-2.0
// Keeps the OpenCL C compiler's own summary lines ("4 warnings generated.") off the terminal while
// a library that builds kernels AnyCL does not own (clFFT) runs: POCL's Clang writes them straight
// to file descriptor 2, with the warnings themselves in a build log nobody asked for.
#pragma once

#include "core/internal.hpp"

namespace anycl::detail {

/// While one or more of these live, file descriptor 2 goes to a temporary file; when the last one
/// ends, everything written there reaches the real stderr again except the compiler's summary
/// lines (all of it under ANYCL_COMPILER_OUTPUT=1). Other threads' stderr output is delayed, never
/// lost. If the redirection cannot be set up, nothing changes.
class ANYCL_INTERNAL compiler_summary_filter {
 public:
  compiler_summary_filter() noexcept;
  ~compiler_summary_filter();
  compiler_summary_filter(const compiler_summary_filter&) = delete;
  compiler_summary_filter& operator=(const compiler_summary_filter&) = delete;
};

}  // namespace anycl::detail
