// SPDX-License-Identifier: Apache-2.0
// Process-level guards: use after fork(), loader inspection.
#pragma once

#include <cstddef>

namespace anycl::detail {

/// Throws used_after_fork in a child forked after this process first used OpenCL (drivers hang
/// there).
void check_not_forked();
/// True in such a child; releases are skipped there (they would hang too).
bool in_forked_child() noexcept;
/// Records that OpenCL is in use (called before the first platform query).
void note_opencl_use() noexcept;
/// The number of *.icd files in a folder (0 if it cannot be read).
std::size_t count_icd_files(const char* dir) noexcept;

}  // namespace anycl::detail
