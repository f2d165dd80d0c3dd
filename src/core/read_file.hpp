// SPDX-License-Identifier: Apache-2.0
// The library's one file reader: a regular file read whole, never blocking on a FIFO or device,
// with a size limit; used for kernel sources, cache entries, prebuilt binaries and stamps.
#pragma once

#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace anycl::detail {

struct file_read {
  enum class outcome { ok, not_opened, not_regular, directory, too_big, read_failed };
  outcome result = outcome::ok;
  int error = 0;           // errno, for not_opened and read_failed
  struct stat info {};     // the opened file's, from not_regular on
  std::uint64_t size = 0;  // bytes found, for too_big
  std::vector<unsigned char> bytes;

  explicit operator bool() const noexcept { return result == outcome::ok; }
  /// Why the read failed, as a phrase ("no such file", "not a regular file", ...).
  std::string why(std::size_t limit) const;
};

/// Reads `path` whole when it is a regular file of at most `limit` bytes. Never throws but for
/// std::bad_alloc.
file_read read_regular_file(const std::string& path, std::size_t limit);

}  // namespace anycl::detail
