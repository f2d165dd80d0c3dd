// SPDX-License-Identifier: Apache-2.0
// Closes a POSIX file descriptor when it goes out of scope.
#pragma once

#include <unistd.h>

namespace anycl::detail {

class fd_closer {
 public:
  explicit fd_closer(int fd) noexcept : fd_(fd) {}
  ~fd_closer() {
    if (fd_ >= 0) ::close(fd_);
  }
  fd_closer(const fd_closer&) = delete;
  fd_closer& operator=(const fd_closer&) = delete;
  /// Hands the descriptor back (to close it by hand and see the error).
  int release() noexcept {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_;
};

}  // namespace anycl::detail
