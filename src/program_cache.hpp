// SPDX-License-Identifier: Apache-2.0
// The on-disk binary cache: one checked file per (program, device) entry, atomic writes.
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>
#include <vector>

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

/// A save that will run later (when a launch completes); exit and wait_for_cache_writes() wait
/// for every one begun. Each begin is matched by one end.
void begin_pending_write() noexcept;
void end_pending_write() noexcept;

}  // namespace anycl::detail
