// SPDX-License-Identifier: Apache-2.0
// The on-disk binary cache: one checked file per (program, device) entry, atomic writes.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/detail/digest.hpp"

namespace anycl::detail {

/// The entry file for `key` in `dir`.
std::string cache_entry_path(const std::string& dir, const digest& key);
/// The payload of a sound entry, or nothing. An unsound entry is deleted, counted as a reject and
/// reported in one warning line; a missing one is counted as a miss by the caller.
std::optional<std::vector<unsigned char>> cache_read(const std::string& dir, const digest& key);
/// Deletes an entry the driver refused and counts a reject.
void cache_reject(const std::string& dir, const digest& key, const std::string& why);
/// Writes an entry through a temporary file in `dir` and a rename. Never throws: a failure is
/// counted and warned about once per folder.
void cache_write(const std::string& dir, const digest& key,
                 const std::vector<unsigned char>& payload);
/// Writes `payload` under `key` to `path` through a temporary file and a rename; throws
/// std::system_error.
void write_entry_file(const std::string& path, const digest& key,
                      const std::vector<unsigned char>& payload);
/// Reads a regular file of at most `limit` bytes, never blocking on a FIFO; false (with `why`)
/// when it cannot. `info` receives its stat (when opened), `open_errno` why it did not open.
bool read_small_file(const std::string& path, std::size_t limit, std::vector<unsigned char>& out,
                     std::string& why, struct stat* info = nullptr, int* open_errno = nullptr);

void count_hits(unsigned n) noexcept;
void count_misses(unsigned n) noexcept;
void count_waits(unsigned n) noexcept;

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
  outcome try_lock(const std::string& dir, const std::vector<digest>& keys);

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
/// How long a process waits for another's build of an entry (ANYCL_CACHE_WAIT, seconds; default
/// 120, 0: never wait). Throws std::invalid_argument for a value that is not a number >= 0.
double cache_wait_seconds();

/// A save that runs when a launch completes (its CL_COMPLETE callback); exit and
/// wait_for_cache_writes() wait for every one begun. A driver may never run the callback of a
/// launch that failed because a command it waited for failed (POCL 3.1 does not), so the waiters
/// also look at the launch and abandon the save of one that failed.
struct pending_save {
  virtual ~pending_save() = default;
  /// Releases what the save holds; called at most once, when it will not run.
  virtual void abandon() noexcept = 0;
  cl_event launch = nullptr;  ///< kept valid by the save until it ends or is abandoned
};
/// Registers a save whose callback gets `save.get()`; throws std::bad_alloc.
void begin_pending_write(std::shared_ptr<pending_save> save);
/// For the callback: the save when it is to run now (end it afterwards), or null when it was
/// abandoned (then it is forgotten here).
std::shared_ptr<pending_save> claim_pending_write(pending_save* save) noexcept;
/// The save ran, or its callback could not be set.
void end_pending_write(pending_save* save) noexcept;

}  // namespace anycl::detail
