// SPDX-License-Identifier: Apache-2.0
// The disk cache's settings (ANYCL_CACHE, ANYCL_CACHE_DIR, ANYCL_CACHE_WAIT, ANYCL_CACHE_SHARED)
// and its folder: created private, and used only when nobody but its owner (and, when shared, its
// group) can write there, since an entry carries native code the driver loads into the process.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace anycl::detail {

/// A cache folder that passed the trust check (or does not exist yet and could not be made).
struct cache_folder {
  std::string dir;
  bool shared = false;  ///< ANYCL_CACHE_SHARED=1: its group may write, others never
  /// The mode of entries and lock files: 0600, or 0640 when shared.
  mode_t file_mode() const noexcept { return shared ? 0640 : 0600; }
};

/// Prints "anycl: warning: <message>" on stderr (the cache's warnings never fail a load).
void cache_warning(const std::string& message);

/// ANYCL_CACHE: false when "off", "0", "false" or "no"; true otherwise (and when unset).
bool cache_enabled_by_env() noexcept;
/// ANYCL_CACHE_SHARED: "1" shares the folder with its group, unset, empty or "0" does not;
/// throws std::invalid_argument for any other value.
bool cache_shared_by_env();
/// How long a process waits for another's build of an entry (ANYCL_CACHE_WAIT, seconds; default
/// 120, 0: never wait). Throws std::invalid_argument for a value that is not a number >= 0.
double cache_wait_seconds();

/// `dir` as a cache folder: made (0700, or 02770 when shared) when missing, then checked. A folder
/// that is not a directory, is owned by another user (when shared: one whose group this user is
/// not in), or that others (when not shared: its group) can write, is refused: nothing, after one
/// warning per folder and process. A folder that cannot be made is returned as it is: nothing can
/// be read from it, and the first write warns.
std::optional<cache_folder> open_cache_folder(const std::string& dir, bool shared);

/// Why an entry or lock file with these attributes cannot be trusted in `folder`; empty if it can.
std::string untrusted_file(const cache_folder& folder, uid_t owner, mode_t mode);

}  // namespace anycl::detail
