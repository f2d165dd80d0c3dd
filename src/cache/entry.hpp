// SPDX-License-Identifier: Apache-2.0
// Disk cache entries: one checked file per (program, device), verified before any byte reaches
// the driver, written through a temporary file and a rename, and never fatal.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "cache/digest.hpp"
#include "cache/folder.hpp"

namespace anycl::detail {

/// The entry file for `key` in `dir`.
std::string cache_entry_path(const std::string& dir, const digest& key);
/// The payload of a sound entry, or nothing. An unsound entry, or one that others could have
/// written (untrusted_file), is deleted, counted as a reject and reported in one warning line; a
/// missing one is counted as a miss by the caller.
std::optional<std::vector<unsigned char>> cache_read(const cache_folder& folder, const digest& key);
/// Deletes an entry the driver refused and counts a reject.
void cache_reject(const cache_folder& folder, const digest& key, const std::string& why);
/// Writes an entry (mode folder.file_mode()) through a temporary file in the folder and a rename.
/// Never throws: a failure is counted and warned about once per folder.
void cache_write(const cache_folder& folder, const digest& key,
                 const std::vector<unsigned char>& payload);
/// Writes `payload` under `key` to `path` through a temporary file and a rename, with `mode`
/// exactly, or with 0644 less the umask when none; throws std::system_error.
void write_entry_file(const std::string& path, const digest& key,
                      const std::vector<unsigned char>& payload,
                      std::optional<mode_t> mode = std::nullopt);

}  // namespace anycl::detail
