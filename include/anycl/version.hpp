// SPDX-License-Identifier: Apache-2.0
// AnyCL's version, for tools and bug reports.
#pragma once

#include "anycl/export.hpp"

namespace anycl {
/// "major.minor.patch" of the library that is linked (may differ from the headers').
ANYCL_EXPORT const char* version() noexcept;
}  // namespace anycl
