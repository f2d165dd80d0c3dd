// SPDX-License-Identifier: Apache-2.0
#include "kernels/compiler_summary.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <regex>
#include <string>

namespace anycl::detail {
namespace {

struct redirect_state {
  std::mutex m;
  int users = 0;
  int saved = -1;  // the real stderr while redirected
  std::FILE* temp = nullptr;
};

redirect_state& state() {
  static auto* s = new redirect_state;  // never destroyed: a filter may end during exit
  return *s;
}

bool print_everything() {
  const char* e = std::getenv("ANYCL_COMPILER_OUTPUT");
  return e != nullptr && std::strcmp(e, "1") == 0;
}

void write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

// True for a line that is only the compiler's count of its diagnostics, e.g. "1 warning
// generated." or "2 warnings and 1 error generated.".
bool is_compiler_summary(const std::string& line) noexcept {
  try {
    static const std::regex summary(
        "[0-9]+ (warning|error)s?( and [0-9]+ (warning|error)s?)? generated\\.\r?\n?");
    return std::regex_match(line, summary);
  } catch (...) {
    return false;
  }
}

// Copies what `temp` holds to `fd`, without the summary lines unless everything is asked for.
void replay(std::FILE* temp, int fd) {
  std::rewind(temp);
  const bool all = print_everything();
  std::string line;
  int c = 0;
  while (c != EOF) {
    c = std::fgetc(temp);
    if (c != EOF) line += static_cast<char>(c);
    if ((c == '\n' || c == EOF) && !line.empty()) {
      if (all || !is_compiler_summary(line)) write_all(fd, line.data(), line.size());
      line.clear();
    }
  }
}

}  // namespace

compiler_summary_filter::compiler_summary_filter() noexcept {
  redirect_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  if (s.users++ > 0) return;
  std::fflush(stderr);
  s.temp = std::tmpfile();
  if (s.temp == nullptr) return;
  s.saved = ::dup(STDERR_FILENO);
  if (s.saved < 0 || ::dup2(::fileno(s.temp), STDERR_FILENO) < 0) {
    if (s.saved >= 0) ::close(s.saved);
    s.saved = -1;
    std::fclose(s.temp);
    s.temp = nullptr;
  }
}

compiler_summary_filter::~compiler_summary_filter() {
  redirect_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  if (--s.users > 0 || s.temp == nullptr) return;
  std::fflush(stderr);
  ::dup2(s.saved, STDERR_FILENO);
  ::close(s.saved);
  s.saved = -1;
  replay(s.temp, STDERR_FILENO);
  std::fclose(s.temp);
  s.temp = nullptr;
}

}  // namespace anycl::detail
