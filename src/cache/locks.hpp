// SPDX-License-Identifier: Apache-2.0
// The per-key build locks of the disk cache, so that of several processes missing one entry only
// one builds it.
#pragma once

#include <sys/types.h>

#include <mutex>
#include <string>
#include <vector>

#include "cache/digest.hpp"
#include "cache/folder.hpp"

namespace anycl::detail {

/// The per-key build locks: flock(LOCK_EX) on `<entry>.lock`-style files (`<hex key>.lock` in the
/// cache folder), so that of several processes missing one entry only one builds it and the others
/// wait for its entry. A lock file is unlinked by its holder before it unlocks; whoever locks a
/// file checks that the path still names the file it locked (else it retries), so an unlinked
/// file never counts as the lock. The kernel drops the locks of a process that dies, so a killed
/// builder never blocks the others; a lock file it leaves behind is empty and is removed by the
/// next builder of that key. Locks held by this process are remembered here: another loader of
/// this process asking for the same key builds without waiting (flock locks belong to open file
/// descriptions, so it would wait for itself).
class cache_locks {
 public:
  cache_locks() = default;
  cache_locks(const cache_locks&) = delete;
  cache_locks& operator=(const cache_locks&) = delete;
  ~cache_locks() { release(); }
  /// Unlinks the lock files and unlocks them; idempotent, thread-safe. In a forked child, only
  /// closes them (the parent's locks are left alone).
  void release() noexcept;
  bool held() const noexcept;

  enum class outcome {
    locked,      ///< every key locked: build and write the entries, then release
    busy,        ///< another process holds one: wait for its entry (nothing is held)
    mine,        ///< this process holds one: build without waiting (nothing is held)
    unavailable  ///< no lock file can be made (read-only folder, ...): build without waiting
  };
  /// Tries to lock every key in `keys` without blocking; all or nothing.
  outcome try_lock(const cache_folder& folder, const std::vector<digest>& keys);

 private:
  struct one {
    std::string path;
    int fd = -1;
  };
  mutable std::mutex m_;
  std::vector<one> held_;
  pid_t owner_ = 0;
};
/// The lock file of `key` in `dir`.
std::string cache_lock_path(const std::string& dir, const digest& key);

}  // namespace anycl::detail
