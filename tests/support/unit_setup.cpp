// SPDX-License-Identifier: Apache-2.0
// The unit suite needs no device: nothing to set up.
#include "support/setup.hpp"

namespace anycl::test {
int suite_setup() { return -1; }
anycl::debug::handle_counts kept_handles() { return {}; }
void release_kept_handles() {}
}  // namespace anycl::test
