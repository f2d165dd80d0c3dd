// SPDX-License-Identifier: Apache-2.0
// Runs this executable again as a child process (posix_spawn of /proc/self/exe) with a time limit,
// for work that may crash or hang: a tool never forks after OpenCL was used (drivers hang there).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace anycl::tools {

/// How a child process ended.
struct child_result {
  bool timed_out = false;  ///< killed (SIGKILL) after the time limit
  int exit_code = -1;      ///< when it exited; -1 otherwise
  int signal = 0;          ///< the signal that killed it; 0 when it exited
  std::string output;      ///< stdout and stderr together, at most 64 KiB
  bool exited_ok() const noexcept { return !timed_out && exit_code == 0; }
  /// "exit code 3", "killed by SIGSEGV (signal 11)" or "did not finish within 30 s".
  std::string describe(std::chrono::seconds limit) const;
};

/// Starts /proc/self/exe with `args` (args[0] is the program name) and the current environment,
/// stdin from /dev/null, and collects its output; kills it after `limit`. Throws std::system_error
/// if it cannot start.
child_result run_self(const std::vector<std::string>& args, std::chrono::seconds limit);

/// "SIGSEGV" for 11 and the other common signals; "signal N" for the rest.
std::string signal_name(int signal);

}  // namespace anycl::tools
