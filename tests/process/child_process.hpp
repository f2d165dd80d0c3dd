// SPDX-License-Identifier: Apache-2.0
// Running anycl-cache-child processes from a test: posix_spawn with a controlled environment and
// stdout/stderr captured to files, the statistics line they print, and scratch folders.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace anycl::test {

namespace fs = std::filesystem;

/// The environment variables a child gets on top of the test's own; the variables that the tests
/// control (POCL_CACHE_DIR, ANYCL_CACHE_DIR, ANYCL_CACHE, ANYCL_FAULT_KILL_CACHE_WRITE_AT) are
/// removed from the inherited environment first (also ANYCL_CACHE_WAIT).
using env_list = std::vector<std::pair<std::string, std::string>>;

/// What anycl-cache-child printed on its statistics line.
struct child_stats {
  std::uint64_t hits = 0, misses = 0, rejects = 0, writes = 0, write_failures = 0, waits = 0;
};

/// A finished child.
struct child_result {
  int wait_status = 0;  ///< as from waitpid
  std::string out;      ///< its stdout
  std::string err;      ///< its stderr
  std::string command;  ///< for messages

  bool exited() const;
  int exit_code() const;  ///< -1 when it did not exit
  bool killed_by(int signal) const;
  /// The statistics line; nothing when there is none.
  std::optional<child_stats> stats() const;
  /// How many lines of stderr contain `text`.
  std::size_t lines_with(const std::string& text) const;
  /// The command, how it ended and what it printed, for test messages.
  std::string describe() const;
};

/// A child that has been started; wait() reaps it (the destructor reaps it too, after SIGKILL).
class running_child {
 public:
  running_child(pid_t pid, fs::path out, fs::path err, std::string command) noexcept;
  running_child(running_child&& other) noexcept;
  running_child& operator=(running_child&&) = delete;
  running_child(const running_child&) = delete;
  running_child& operator=(const running_child&) = delete;
  ~running_child();
  child_result wait();
  /// Sends `signal` to the child if it has not been waited for (it may have exited already).
  void kill(int signal) const noexcept;

 private:
  pid_t pid_;
  fs::path out_, err_;
  std::string command_;
};

/// Starts `program` with `args` and the environment described above; stdin is /dev/null and
/// stdout/stderr go to `log_prefix`.out/.err. Throws std::system_error when posix_spawn fails.
running_child spawn(const std::string& program, const std::vector<std::string>& args,
                    const env_list& env, const fs::path& log_prefix);

/// A new, empty folder `base/prefix.XXXXXX` (mkdtemp), removed with everything in it on
/// destruction unless ANYCL_TEST_KEEP_FILES is set.
class temp_dir {
 public:
  temp_dir(const fs::path& base, const std::string& prefix);
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

/// The names in `dir` that end with `suffix` (none when `dir` does not exist), sorted.
std::vector<std::string> files_ending_with(const fs::path& dir, const std::string& suffix);

/// The folder named by environment variable `var` (created), else $TMPDIR or /tmp.
fs::path base_dir_from_env(const char* var);

}  // namespace anycl::test
