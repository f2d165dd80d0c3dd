// SPDX-License-Identifier: Apache-2.0
// Kernel sources from .cl files: search path, #include resolution, builds shared in memory and
// cached on disk, and prebuilt binaries for devices without a compiler (FPGAs).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/context.hpp"
#include "anycl/device.hpp"
#include "anycl/export.hpp"
#include "anycl/program.hpp"

namespace anycl {

namespace detail {
struct loader_state;

}  // namespace detail

/// How a kernel_loader finds and builds sources.
struct loader_options {
  /// Folders searched first, in this order, before ANYCL_KERNEL_PATH, the installed
  /// share/anycl/cl_kernels and the copy of cl_kernels/ embedded in the library.
  std::vector<std::string> search_path;
  /// Never build from source: use prebuilt binaries only, as on a device without a compiler.
  /// Lets CI exercise the FPGA flow on any device.
  bool binary_only = false;
  /// Read ANYCL_KERNEL_PATH (true) or ignore it (false).
  bool use_environment = true;
  /// Disk cache on or off; unset follows ANYCL_CACHE (off when "off", "0" or "false").
  std::optional<bool> disk_cache;
  /// Disk cache folder; unset follows ANYCL_CACHE_DIR, then $XDG_CACHE_HOME/anycl, then
  /// ~/.cache/anycl.
  std::optional<std::string> cache_dir;
};

/// A source with its `#include`s spliced in and `#line` markers, as the compiler sees it.
struct resolved_source {
  std::string name;                ///< where the main file was found (path or "embedded:...")
  std::string text;                ///< what is compiled
  std::vector<std::string> files;  ///< every file read, the main file first
};

/// Finds .cl files on a search path, resolves their `#include`s, and builds them for every device
/// of one context. The same resolved source and options on the same context give the same program
/// object, from any loader of that context (built once, even when many threads ask at once; kept
/// while a loader of the context exists); built binaries are kept in a disk cache keyed on the
/// source, every included file, the options, the platform, device and driver, and checked before
/// use, so a stale, truncated or corrupt entry is rebuilt rather than trusted. Processes sharing
/// one cache folder build a missing entry once: the first takes a lock on it (a `.lock` file next
/// to the entries, flock) until the entry is written at the program's first launch, the others
/// wait for the entry up to ANYCL_CACHE_WAIT seconds (default 120, 0: never wait) and then build
/// anyway. Thread-safe.
class ANYCL_EXPORT kernel_loader {
 public:
  /// Throws std::invalid_argument for an empty context, or with the disk cache on, for an
  /// ANYCL_CACHE_WAIT that is not a number of seconds from 0 to 86400.
  explicit kernel_loader(anycl::context ctx, loader_options options = {});

  const anycl::context& context() const noexcept;
  /// The folders searched, in order (the embedded copy, searched last, is not a folder).
  std::vector<std::string> search_path() const;
  /// Where `file` is found: a path, or "embedded:<file>" for the library's own copy. Throws
  /// source_error listing the places looked in.
  std::string locate(std::string_view file) const;
  /// Reads `file` and everything it includes. `#include "x"` is looked for next to the including
  /// file, then in `options`' include_dir()s, then on the search path; `#include <x>` skips the
  /// first step and is left to the compiler when not found. Throws source_error.
  resolved_source resolve(std::string_view file, const build_options& options = {}) const;
  /// resolve() for source text held in memory; `name` stands for its file in messages.
  resolved_source resolve_source(std::string_view source, std::string name,
                                 const build_options& options = {}) const;

  /// Builds `file` for every device of the context (or loads it from the disk cache or, for
  /// devices without a compiler, from a prebuilt binary). Throws source_error, build_error with
  /// the compiler's log pointing at the original files and lines, or binary_not_found.
  program load(std::string_view file, const build_options& options = {}) const;
  /// load() for source text held in memory (generated kernels); its `#include`s are looked for
  /// on the search path.
  program load_source(std::string_view source, std::string name,
                      const build_options& options = {}) const;
  /// Compiles each of `files` on its own (clCompileProgram: each with its `#include`s, as load()
  /// resolves them, and `options`) and links them into one program (clLinkProgram), through the
  /// disk cache like load(): the entry is keyed on every part's text and the options, so a change
  /// to any part rebuilds. A kernel in one file may call functions defined in another. Throws
  /// std::invalid_argument for no files, source_error, build_error ("clCompileProgram" naming
  /// the part, or "clLinkProgram"), and binary_not_found on a device without a compiler (link
  /// offline and load() the result).
  program link(const std::vector<std::string>& files, const build_options& options = {}) const;
  /// One kernel of load(file, options) as a typed function.
  template <class... Ts>
  kernel_function<Ts...> function(std::string_view file, const std::string& kernel_name,
                                  const build_options& options = {}) const {
    return load(file, options).template function<Ts...>(kernel_name);
  }

  /// The prebuilt binaries that would be tried for `file` on `dev`, in order.
  std::vector<std::string> prebuilt_candidates(std::string_view file, const device& dev) const;

 private:
  std::shared_ptr<detail::loader_state> s_;
};

/// A short, file-name-safe name for a device and its driver: a readable part from the device name
/// and a hash of platform, device and driver identity. Prebuilt binaries are named
/// `<stem>.<device_key>.bin`.
ANYCL_EXPORT std::string device_key(const device& dev);
/// `<stem of file>.<device_key(dev)>.bin`, the name the loader looks for.
ANYCL_EXPORT std::string prebuilt_file_name(std::string_view file, const device& dev);
/// Writes `prog`'s binary for `dev` to `path` as a prebuilt binary (with the header and checksum
/// the loader verifies), through a temporary file and a rename. Throws std::invalid_argument for a
/// .aocx or .xclbin name (those are read as the vendor wrote them), std::system_error when the
/// file cannot be written, api_error when the program has no binary for `dev`.
ANYCL_EXPORT void write_prebuilt(const program& prog, const device& dev, const std::string& path);

/// What the disk cache did in this process, for tests and tools.
struct cache_statistics {
  std::uint64_t hits = 0;            ///< entries used
  std::uint64_t misses = 0;          ///< no entry: built from source
  std::uint64_t rejects = 0;         ///< entries found unsound or refused by the driver, deleted
  std::uint64_t writes = 0;          ///< entries written
  std::uint64_t write_failures = 0;  ///< entries that could not be written (read-only, full, ...)
  /// entries used after waiting for another process that was building them (ANYCL_CACHE_WAIT);
  /// not counted in hits or misses
  std::uint64_t waits = 0;
};
ANYCL_EXPORT cache_statistics cache_stats() noexcept;
ANYCL_EXPORT void reset_cache_stats() noexcept;
/// Waits until the cache writes started so far have finished (they run when a loaded program's
/// first launch completes, since some drivers compile at first launch). Also done at exit.
ANYCL_EXPORT void wait_for_cache_writes();
/// The cache folder the environment selects (ANYCL_CACHE_DIR, XDG_CACHE_HOME, HOME); empty when
/// the cache is off (ANYCL_CACHE=off) or no folder can be derived.
ANYCL_EXPORT std::string default_cache_dir();

}  // namespace anycl
