// SPDX-License-Identifier: Apache-2.0
// The disk cache as the kernel loader sees it: the entries of one program for every device of a
// context, found (or waited for while another process builds them), and saved after the
// program's first launch.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "anycl/device.hpp"
#include "anycl/program.hpp"
#include "cache/digest.hpp"
#include "cache/folder.hpp"
#include "cache/locks.hpp"

namespace anycl::detail {

class disk_cache {
 public:
  /// The cache in `dir` with the environment's settings (ANYCL_CACHE_SHARED, ANYCL_CACHE_WAIT),
  /// or none when the folder is refused (open_cache_folder). Throws std::invalid_argument for a
  /// bad setting.
  static std::optional<disk_cache> open(const std::string& dir);

  /// What lookup found: every key's binary, or none; and the build locks, held when this
  /// process is to build and save the entries.
  struct lookup_result {
    std::optional<std::vector<std::vector<unsigned char>>> binaries;
    std::unique_ptr<cache_locks> locks = std::make_unique<cache_locks>();
    unsigned at_once = 0;  ///< binaries there at the first look; the rest came from waiting
  };
  /// Reads every key's entry; where one is missing, takes the build locks or waits for the
  /// process that holds them, up to ANYCL_CACHE_WAIT seconds.
  lookup_result lookup(const std::vector<digest>& keys) const;
  /// Counts the binaries of `found` as hits and waits once the driver accepted them.
  static void accepted(const lookup_result& found) noexcept;
  /// Deletes the entries the driver refused.
  void reject(const std::vector<digest>& keys, const std::string& why) const;
  /// Saves `p`'s binaries under `keys` (one per device) when its first launch completes, then
  /// releases `locks`.
  void save_after_first_launch(program& p, const std::vector<device>& devices,
                               std::vector<digest> keys, std::unique_ptr<cache_locks> locks) const;

 private:
  disk_cache(cache_folder folder, double wait) : folder_(std::move(folder)), wait_(wait) {}
  cache_folder folder_;
  double wait_ = 0;  // seconds to wait for another process's build
};

}  // namespace anycl::detail
