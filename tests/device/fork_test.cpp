// SPDX-License-Identifier: Apache-2.0
// Using OpenCL in a child forked after the parent did is a clear error, not a hang.
#include <sys/wait.h>
#include <unistd.h>

#include "support/device_fixture.hpp"

TEST_CASE("process: OpenCL use in a forked child throws used_after_fork", "[fork]") {
  anycl::test::env e;  // the parent has used OpenCL
  anycl::buffer buf(e.ctx, 64);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    alarm(20);  // a hang is a failure, not a stuck test run
    int code = 10;
    try {
      anycl::platform::all();
    } catch (const anycl::used_after_fork& ex) {
      code = std::string(ex.what()).find("posix_spawn") != std::string::npos ? 0 : 11;
    } catch (...) {
      code = 12;
    }
    if (code == 0) {
      try {
        e.queue.finish();
        code = 13;
      } catch (const anycl::used_after_fork&) {
      }
    }
    _exit(code);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent is unaffected.
  e.queue.write(anycl::buffer_view<int>(buf), std::vector<int>(16, 1));
  CHECK(e.queue.read(anycl::buffer_view<int>(buf)) == std::vector<int>(16, 1));
}
