// SPDX-License-Identifier: Apache-2.0
// The per-suite hook the shared test main calls before running tests.
#pragma once

#include "anycl/debug.hpp"

namespace anycl::test {
/// -1 to run the tests, otherwise the exit code to end with (77 = skipped).
int suite_setup();
/// The handles the suite's fixtures keep from one test to the next (the device suites' shared
/// context); each test must end with these and no others live.
anycl::debug::handle_counts kept_handles();
/// Releases those handles; the shared main calls it after the tests, before the drivers' own
/// teardown at exit (Oclgrind's runtime aborted on a context released from a static destructor).
void release_kept_handles();
}  // namespace anycl::test
