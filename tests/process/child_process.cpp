// SPDX-License-Identifier: Apache-2.0
#include "child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace anycl::test {

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool controlled(const std::string& entry) {
  for (const char* name : {"POCL_CACHE_DIR=", "ANYCL_CACHE_DIR=", "ANYCL_CACHE=",
                           "ANYCL_FAULT_KILL_CACHE_WRITE_AT=", "ANYCL_CACHE_WAIT="})
    if (entry.compare(0, std::strlen(name), name) == 0) return true;
  return false;
}

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
  void open(int fd, const std::string& path, int flags) {
    if (int rc = ::posix_spawn_file_actions_addopen(&a_, fd, path.c_str(), flags, 0644); rc != 0)
      throw std::system_error(rc, std::generic_category(), "posix_spawn_file_actions_addopen");
  }
  const posix_spawn_file_actions_t* get() const noexcept { return &a_; }

 private:
  posix_spawn_file_actions_t a_{};
};

}  // namespace

// --- child_result ---
bool child_result::exited() const { return WIFEXITED(wait_status); }

int child_result::exit_code() const { return exited() ? WEXITSTATUS(wait_status) : -1; }

bool child_result::killed_by(int signal) const {
  return WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == signal;
}

std::optional<child_stats> child_result::stats() const {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    child_stats s;
    unsigned long long h = 0, m = 0, r = 0, w = 0, f = 0, x = 0;
    if (std::sscanf(line.c_str(),
                    "hits=%llu misses=%llu rejects=%llu writes=%llu write_failures=%llu waits=%llu",
                    &h, &m, &r, &w, &f, &x) == 6) {
      s.waits = x;
      s.hits = h;
      s.misses = m;
      s.rejects = r;
      s.writes = w;
      s.write_failures = f;
      return s;
    }
  }
  return std::nullopt;
}

std::size_t child_result::lines_with(const std::string& text) const {
  std::istringstream lines(err);
  std::string line;
  std::size_t n = 0;
  while (std::getline(lines, line))
    if (line.find(text) != std::string::npos) ++n;
  return n;
}

std::string child_result::describe() const {
  std::string how;
  if (WIFEXITED(wait_status)) {
    how = "exited with " + std::to_string(WEXITSTATUS(wait_status));
  } else if (WIFSIGNALED(wait_status)) {
    how = std::string("killed by signal ") + std::to_string(WTERMSIG(wait_status)) + " (" +
          ::strsignal(WTERMSIG(wait_status)) + ")";
  } else {
    how = "wait status " + std::to_string(wait_status);
  }
  return command + "\n  " + how + "\n  stdout: " + out + "\n  stderr: " + err;
}

// --- running_child ---
running_child::running_child(pid_t pid, fs::path out, fs::path err, std::string command) noexcept
    : pid_(pid), out_(std::move(out)), err_(std::move(err)), command_(std::move(command)) {}

running_child::running_child(running_child&& other) noexcept
    : pid_(other.pid_),
      out_(std::move(other.out_)),
      err_(std::move(other.err_)),
      command_(std::move(other.command_)) {
  other.pid_ = -1;
}

running_child::~running_child() {
  if (pid_ > 0) {  // not waited for (a failed test): do not leave it running
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

void running_child::kill(int signal) const noexcept {
  if (pid_ > 0) ::kill(pid_, signal);  // a zombie until wait(): the pid cannot be reused
}

child_result running_child::wait() {
  if (pid_ <= 0) throw std::logic_error("running_child::wait: already waited for");
  child_result r;
  r.command = command_;
  while (::waitpid(pid_, &r.wait_status, 0) < 0) {
    if (errno != EINTR) throw std::system_error(errno, std::generic_category(), "waitpid");
  }
  pid_ = -1;
  r.out = read_file(out_);
  r.err = read_file(err_);
  return r;
}

running_child spawn(const std::string& program, const std::vector<std::string>& args,
                    const env_list& env, const fs::path& log_prefix) {
  std::vector<std::string> argv_s{program};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e)
    if (!controlled(*e)) env_s.emplace_back(*e);
  std::string command;
  for (const auto& [name, value] : env) {
    env_s.push_back(name + "=" + value);
    command += name + "=" + value + " ";
  }
  for (const auto& a : argv_s) command += (a.empty() ? "''" : a) + " ";
  command.pop_back();

  std::vector<char*> argv, envp;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  fs::path out = log_prefix.string() + ".out", err = log_prefix.string() + ".err";
  file_actions actions;
  actions.open(STDIN_FILENO, "/dev/null", O_RDONLY);
  actions.open(STDOUT_FILENO, out.string(), O_WRONLY | O_CREAT | O_TRUNC);
  actions.open(STDERR_FILENO, err.string(), O_WRONLY | O_CREAT | O_TRUNC);
  pid_t pid = -1;
  if (int rc =
          ::posix_spawn(&pid, program.c_str(), actions.get(), nullptr, argv.data(), envp.data());
      rc != 0)
    throw std::system_error(rc, std::generic_category(), "posix_spawn " + program);
  return running_child(pid, out, err, command);
}

// --- temp_dir ---
temp_dir::temp_dir(const fs::path& base, const std::string& prefix) {
  fs::create_directories(base);
  std::string pattern = (base / (prefix + ".XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
  path_ = pattern;
}

temp_dir::~temp_dir() {
  if (std::getenv("ANYCL_TEST_KEEP_FILES") != nullptr) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

std::vector<std::string> files_ending_with(const fs::path& dir, const std::string& suffix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

fs::path base_dir_from_env(const char* var) {
  fs::path base;
  if (const char* v = std::getenv(var); v != nullptr && *v != '\0') {
    base = v;
  } else if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != '\0') {
    base = t;
  } else {
    base = "/tmp";
  }
  fs::create_directories(base);
  return base;
}

}  // namespace anycl::test
