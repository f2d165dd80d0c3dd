// SPDX-License-Identifier: Apache-2.0
// Child processes of a tool: posix_spawn of /proc/self/exe, output through a pipe, a time limit.
#include "self_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <system_error>
#include <thread>

extern char** environ;

namespace anycl::tools {

namespace {
constexpr std::size_t output_limit = 64 * 1024;
using clock_type = std::chrono::steady_clock;

/// Owns posix_spawn_file_actions_t.
class file_actions {
 public:
  file_actions() {
    if (int rc = ::posix_spawn_file_actions_init(&a_); rc != 0)
      throw std::system_error(rc, std::generic_category(), "posix_spawn_file_actions_init");
  }
  ~file_actions() { ::posix_spawn_file_actions_destroy(&a_); }
  file_actions(const file_actions&) = delete;
  file_actions& operator=(const file_actions&) = delete;
  posix_spawn_file_actions_t* get() noexcept { return &a_; }

 private:
  posix_spawn_file_actions_t a_{};
};

int milliseconds_left(clock_type::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}
}  // namespace

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGABRT:
      return "SIGABRT";
    case SIGBUS:
      return "SIGBUS";
    case SIGILL:
      return "SIGILL";
    case SIGFPE:
      return "SIGFPE";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal " + std::to_string(signal);
  }
}

std::string child_result::describe(std::chrono::seconds limit) const {
  if (timed_out) return "did not finish within " + std::to_string(limit.count()) + " s";
  if (signal != 0)
    return "killed by " + signal_name(signal) + " (signal " + std::to_string(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

namespace {

/// Starts this executable again with `args`: stdin from /dev/null, stdout and stderr on the
/// pipe's write end `out_fd`.
pid_t spawn_self(const std::vector<std::string>& args, int out_fd) {
  std::vector<std::string> arg_copy = args;
  std::vector<char*> argv;
  for (auto& a : arg_copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  file_actions actions;
  ::posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(actions.get(), out_fd, STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), out_fd, STDERR_FILENO);
  const int rc =
      ::posix_spawn(&pid, "/proc/self/exe", actions.get(), nullptr, argv.data(), environ);
  if (rc != 0) throw std::system_error(rc, std::generic_category(), "starting a child process");
  return pid;
}

/// Reads `fd` into r.output until end of file; output past the limit is read and dropped so the
/// child never blocks. Sets r.timed_out if the deadline comes first.
void read_output(int fd, clock_type::time_point deadline, child_result& r) {
  for (;;) {
    const int wait_ms = milliseconds_left(deadline);
    if (wait_ms == 0) {
      r.timed_out = true;
      return;
    }
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return;     // cannot wait on the pipe: collect the child as it is
    if (n == 0) continue;  // the time limit: checked at the top
    char buf[4096];
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    if (r.output.size() < output_limit)
      r.output.append(buf, std::min(static_cast<std::size_t>(got), output_limit - r.output.size()));
  }
}

/// Waits for the child, killing it if it runs past the deadline (r.timed_out); its wait status,
/// or none if it is not our child any more.
std::optional<int> reap(pid_t pid, clock_type::time_point deadline, child_result& r) {
  if (r.timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
    if (w == pid) return status;
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return std::nullopt;
    if (milliseconds_left(deadline) == 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);  // then reaped by the blocking wait above
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

child_result run_self(const std::vector<std::string>& args, std::chrono::seconds limit) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe for a child process");
  pid_t pid = 0;
  try {
    pid = spawn_self(args, fds[1]);
  } catch (...) {
    ::close(fds[1]);
    ::close(fds[0]);
    throw;
  }
  ::close(fds[1]);

  child_result r;
  const auto deadline = clock_type::now() + limit;
  read_output(fds[0], deadline, r);
  ::close(fds[0]);

  // The child closed its output; it may still be exiting, or hang after closing it.
  const std::optional<int> status = reap(pid, deadline, r);
  if (!status) return r;  // not our child any more: nothing to report
  if (r.timed_out) return r;
  if (WIFEXITED(*status)) r.exit_code = WEXITSTATUS(*status);
  if (WIFSIGNALED(*status)) r.signal = WTERMSIG(*status);
  return r;
}

}  // namespace anycl::tools
