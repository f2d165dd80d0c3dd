// SPDX-License-Identifier: Apache-2.0
// The library's version string.
#include "anycl/version.hpp"

namespace anycl {
const char* version() noexcept { return ANYCL_VERSION_STRING; }
}  // namespace anycl
