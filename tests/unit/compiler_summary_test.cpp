// SPDX-License-Identifier: Apache-2.0
// detail::compiler_summary_filter (an internal of src/): what reaches file descriptor 2 while
// filters live, with and without ANYCL_COMPILER_OUTPUT=1, nested, and when the redirection cannot
// be set up because no file descriptor is left.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels/compiler_summary.hpp"
#include "support/stderr_capture.hpp"

using anycl::detail::compiler_summary_filter;
using anycl::test::stderr_of;

namespace {

void write_stderr(const std::string& s) {
  REQUIRE(::write(STDERR_FILENO, s.data(), s.size()) == static_cast<ssize_t>(s.size()));
}

const std::string summary = "3 warnings and 1 error generated.\n";
const std::string other = "a line of its own\n";

// The lowest file descriptor not in use: with RLIMIT_NOFILE there, no new one can be opened.
int lowest_free_fd() {
  const int fd = ::open("/dev/null", O_RDONLY);
  REQUIRE(fd >= 0);
  ::close(fd);
  return fd;
}

// Runs `fn` with the soft descriptor limit at lowest_free_fd() + `spare`, then restores it.
template <class Fn>
void with_spare_fds(int spare, Fn fn) {
  rlimit old{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &old) == 0);
  rlimit low = old;
  low.rlim_cur = static_cast<rlim_t>(lowest_free_fd() + spare);
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &low) == 0);
  fn();
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &old) == 0);
}

}  // namespace

TEST_CASE("compiler_summary_filter drops only the compiler's summary lines", "[compiler_summary]") {
  ::unsetenv("ANYCL_COMPILER_OUTPUT");
  const std::string out = stderr_of([] {
    const compiler_summary_filter outer;
    write_stderr(other);
    {
      const compiler_summary_filter inner;  // nested: one redirection, replayed by the last
      write_stderr(summary);
      write_stderr("not 3 warnings generated.\n");
    }
    write_stderr("1 warning generated.");  // the last line, without a newline
  });
  CHECK(out == other + "not 3 warnings generated.\n");
}

TEST_CASE("compiler_summary_filter passes everything under ANYCL_COMPILER_OUTPUT=1",
          "[compiler_summary]") {
  ::setenv("ANYCL_COMPILER_OUTPUT", "1", 1);
  const std::string out = stderr_of([] {
    const compiler_summary_filter f;
    write_stderr(summary);
    write_stderr(other);
  });
  ::unsetenv("ANYCL_COMPILER_OUTPUT");
  CHECK(out == summary + other);
}

TEST_CASE("compiler_summary_filter changes nothing when no descriptor is left",
          "[compiler_summary]") {
  ::unsetenv("ANYCL_COMPILER_OUTPUT");
  // No descriptor for the temporary file, then one for it but none for the copy of stderr: in
  // both cases everything goes straight to stderr, summary lines included, and none is lost.
  for (int spare : {0, 1}) {
    INFO("spare descriptors: " << spare);
    const std::string out = stderr_of([spare] {
      with_spare_fds(spare, [] {
        const compiler_summary_filter f;
        write_stderr(summary);
      });
      write_stderr(other);
    });
    CHECK(out == summary + other);
  }
}
