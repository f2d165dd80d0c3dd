// SPDX-License-Identifier: Apache-2.0
// What a piece of code writes to file descriptor 2, for tests of output that bypasses std::cerr
// (the OpenCL C compiler's, and the redirection around it).
#pragma once

#include <unistd.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace anycl::test {

/// What `fn` writes to file descriptor 2, which goes to a temporary file meanwhile (any
/// redirection the library makes nests inside this one). An exception from `fn` passes through
/// with descriptor 2 restored.
template <class Fn>
std::string stderr_of(Fn fn) {
  std::fflush(stderr);
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  const int saved = ::dup(STDERR_FILENO);
  REQUIRE(saved >= 0);
  REQUIRE(::dup2(::fileno(f), STDERR_FILENO) >= 0);
  auto restore = [&] {
    std::fflush(stderr);
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
  };
  try {
    fn();
  } catch (...) {
    restore();
    std::fclose(f);
    throw;
  }
  restore();
  std::rewind(f);
  std::string s;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) s += static_cast<char>(c);
  std::fclose(f);
  return s;
}

}  // namespace anycl::test
