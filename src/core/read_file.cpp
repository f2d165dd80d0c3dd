// SPDX-License-Identifier: Apache-2.0
#include "core/read_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/fd.hpp"

namespace anycl::detail {

std::string file_read::why(std::size_t limit) const {
  switch (result) {
    case outcome::ok:
      return {};
    case outcome::not_opened:
      return error == ENOENT ? std::string("no such file")
                             : std::string("cannot be opened: ") + std::strerror(error);
    case outcome::directory:
      return "is a directory, not a file";
    case outcome::not_regular:
      return "is not a regular file (a FIFO, socket or device); it is not read";
    case outcome::too_big:
      return "is " + std::to_string(size) + " bytes, more than the limit of " +
             std::to_string(limit);
    case outcome::read_failed:
      break;
  }
  return std::string("cannot be read: ") + std::strerror(error);
}

file_read read_regular_file(const std::string& path, std::size_t limit) {
  file_read r;
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    r.result = file_read::outcome::not_opened;
    r.error = errno;
    return r;
  }
  fd_closer closer(fd);
  if (::fstat(fd, &r.info) != 0) {
    r.result = file_read::outcome::read_failed;
    r.error = errno;
    return r;
  }
  if (!S_ISREG(r.info.st_mode)) {
    r.result =
        S_ISDIR(r.info.st_mode) ? file_read::outcome::directory : file_read::outcome::not_regular;
    return r;
  }
  r.size = static_cast<std::uint64_t>(r.info.st_size);
  if (r.size > limit) {
    r.result = file_read::outcome::too_big;
    return r;
  }
  // Up to the end, which a file still growing may have moved past st_size; never past limit.
  r.bytes.resize(static_cast<std::size_t>(r.size) + 1);
  std::size_t have = 0;
  for (;;) {
    if (have == r.bytes.size()) r.bytes.resize(have + 4096);
    ssize_t n = ::read(fd, r.bytes.data() + have, r.bytes.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      r.result = file_read::outcome::read_failed;
      r.error = errno;
      return r;
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
    if (have > limit) {
      r.result = file_read::outcome::too_big;
      r.size = have;
      return r;
    }
  }
  r.bytes.resize(have);
  return r;
}

}  // namespace anycl::detail
