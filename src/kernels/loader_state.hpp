// SPDX-License-Identifier: Apache-2.0
// What a kernel_loader holds (shared by its copies) and the per-context table that builds each
// program once; used by kernel_loader.cpp and linked_programs.cpp.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/kernel_loader.hpp"
#include "cache/disk_cache.hpp"
#include "cache/key.hpp"

namespace anycl::detail {

/// The programs built for one context, shared by all its loaders. Each loader holds the context,
/// so while a table is reachable its context is alive and its handle cannot be reused.
struct program_table {
  std::mutex m;
  std::map<std::string, std::shared_future<program>> programs;
};

struct loader_state {
  anycl::context ctx;
  loader_options options;
  std::vector<std::string> dirs;  // code, ANYCL_KERNEL_PATH, installed
  std::vector<device> devices;
  std::vector<device_identity> identities;   // of `devices`, for cache keys
  std::vector<std::string> identity_hashes;  // of `identities`, for prebuilt binaries
  bool prebuilt_only = false;                // binary_only, or a device without a compiler
  std::optional<disk_cache> cache;           // none: no disk cache
  std::shared_ptr<program_table> table;      // shared by every loader of this context

  std::vector<std::string> include_dirs(const build_options& o) const {
    std::vector<std::string> all = o.include_dirs();
    all.insert(all.end(), dirs.begin(), dirs.end());
    return all;
  }

  program build(const resolved_source& src, const build_options& options);
  /// Compiles each part, links them, through the disk cache (kernel_loader::link).
  program link(const std::vector<resolved_source>& parts, const build_options& options,
               const std::string& name);
  program build_prebuilt(std::string_view file, const build_options& options);
  std::vector<std::string> candidates(std::string_view file, const device& dev,
                                      std::size_t index) const;
  std::string how_to_make(std::string_view file, std::size_t index,
                          const std::string& target) const;
};

/// The program `key` names in the context's table, made by `make` once even when many threads ask;
/// a failure is not kept (a later call tries again).
program shared_build(loader_state& s, const std::string& key, const std::function<program()>& make);

/// The table key of a build of `text` (of a `kind`) with `o`.
std::string memory_key(std::string_view kind, std::string_view text, const build_options& o);

}  // namespace anycl::detail
