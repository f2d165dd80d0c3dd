// SPDX-License-Identifier: Apache-2.0
// The host-libraries switch: ANYCL_HOST_LIBRARIES's values, a bad one's message, and
// set_host_libraries over the environment.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "anycl/host_libraries.hpp"

using Catch::Matchers::Contains;

TEST_CASE("ANYCL_HOST_LIBRARIES and set_host_libraries pick the mode", "[host_libraries]") {
  // The environment first: set_host_libraries cannot be undone within a process.
  ::unsetenv("ANYCL_HOST_LIBRARIES");
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::on);
  ::setenv("ANYCL_HOST_LIBRARIES", "", 1);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::on);
  ::setenv("ANYCL_HOST_LIBRARIES", "on", 1);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::on);
  ::setenv("ANYCL_HOST_LIBRARIES", "off", 1);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::off);
  for (const char* bad : {"OFF", "0", "yes", "off "}) {
    INFO("ANYCL_HOST_LIBRARIES='" << bad << "'");
    ::setenv("ANYCL_HOST_LIBRARIES", bad, 1);
    CHECK_THROWS_AS(anycl::host_libraries_mode(), std::invalid_argument);
    CHECK_THROWS_WITH(anycl::host_libraries_mode(),
                      Contains(std::string("ANYCL_HOST_LIBRARIES='") + bad + "'") &&
                          Contains("use on") && Contains("or off"));
  }
  // Set in code, the mode holds whatever the environment says.
  anycl::set_host_libraries(anycl::host_libraries::off);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::off);
  ::setenv("ANYCL_HOST_LIBRARIES", "on", 1);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::off);
  anycl::set_host_libraries(anycl::host_libraries::on);
  ::setenv("ANYCL_HOST_LIBRARIES", "off", 1);
  CHECK(anycl::host_libraries_mode() == anycl::host_libraries::on);
  ::unsetenv("ANYCL_HOST_LIBRARIES");
}
