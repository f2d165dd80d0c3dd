// SPDX-License-Identifier: Apache-2.0
// The per-suite hook the shared test main calls before running tests.
#pragma once

namespace anycl::test {
/// -1 to run the tests, otherwise the exit code to end with (77 = skipped).
int suite_setup();
}  // namespace anycl::test
