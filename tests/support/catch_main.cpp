// SPDX-License-Identifier: Apache-2.0
// The one translation unit that compiles Catch2's implementation; each suite adds a setup hook.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/setup.hpp"

int main(int argc, char** argv) {
  int status = anycl::test::suite_setup();
  if (status >= 0) return status;
  return Catch::Session().run(argc, argv);
}
