// SPDX-License-Identifier: Apache-2.0
#include "cache/locks.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <set>
#include <system_error>

namespace anycl::detail {
namespace {
/// The lock files this process holds (their paths). Never destroyed: a save may release its locks
/// on a driver thread while the process exits.
struct held_locks {
  std::mutex m;
  std::set<std::string> paths;
};
held_locks& held_here() {
  static auto* h = new held_locks;
  return *h;
}

/// True when `fd` is the file `path` names now (it was not unlinked or replaced).
bool still_named(int fd, const std::string& path) noexcept {
  struct stat a {
  }, b{};
  return ::fstat(fd, &a) == 0 && ::stat(path.c_str(), &b) == 0 && a.st_ino == b.st_ino &&
         a.st_dev == b.st_dev;
}
}  // namespace

std::string cache_lock_path(const std::string& dir, const digest& key) {
  return dir + "/" + to_hex(key) + ".lock";
}

bool cache_locks::held() const noexcept {
  std::lock_guard<std::mutex> lock(m_);
  return !held_.empty();
}

void cache_locks::release() noexcept {
  std::vector<one> locks;
  {
    std::lock_guard<std::mutex> lock(m_);
    locks.swap(held_);
  }
  if (locks.empty()) return;
  const bool ours = owner_ == ::getpid();
  for (const auto& l : locks) {
    if (ours) {
      // Unlinked while locked: a process that opened it meanwhile sees that it is no longer named
      // and opens the path again.
      if (still_named(l.fd, l.path)) ::unlink(l.path.c_str());
      ::flock(l.fd, LOCK_UN);
    }
    ::close(l.fd);
  }
  if (!ours) return;  // a forked child's copy: the parent's bookkeeping is not ours to change
  auto& h = held_here();
  std::lock_guard<std::mutex> lock(h.m);
  for (const auto& l : locks) h.paths.erase(l.path);
}

namespace {
/// Locks the file at `path` without blocking: its descriptor, or -1 with `why` (busy when another
/// holds it, unavailable when no lock file can be made). Retries while the file it locked was
/// unlinked by its holder in between.
int lock_file(const std::string& path, mode_t mode, cache_locks::outcome& why) {
  for (int attempt = 0; attempt <= 8; ++attempt) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY,
                    mode);  // flock needs no write access
    if (fd < 0) {
      why = cache_locks::outcome::unavailable;
      return -1;
    }
    int r;
    do {
      r = ::flock(fd, LOCK_EX | LOCK_NB);
    } while (r != 0 && errno == EINTR);
    if (r != 0) {
      why = errno == EWOULDBLOCK ? cache_locks::outcome::busy : cache_locks::outcome::unavailable;
      ::close(fd);
      return -1;
    }
    if (still_named(fd, path)) return fd;
    // Its holder unlinked it before unlocking: open the path again.
    ::flock(fd, LOCK_UN);
    ::close(fd);
  }
  why = cache_locks::outcome::busy;
  return -1;
}

/// Records that this process holds (or is taking) `path`; false when it already does.
bool remember(const std::string& path) {
  auto& h = held_here();
  std::lock_guard<std::mutex> lock(h.m);
  return h.paths.insert(path).second;
}

void forget(const std::string& path) {
  auto& h = held_here();
  std::lock_guard<std::mutex> lock(h.m);
  h.paths.erase(path);
}
}  // namespace

cache_locks::outcome cache_locks::try_lock(const cache_folder& folder,
                                           const std::vector<digest>& keys) {
  release();
  std::error_code ec;
  std::filesystem::create_directories(folder.dir, ec);
  if (ec) return outcome::unavailable;
  std::vector<std::string> paths;
  for (const auto& k : keys) paths.push_back(cache_lock_path(folder.dir, k));
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::vector<one> got;
  auto give_up = [&](outcome o) {
    for (const auto& l : got) {
      if (still_named(l.fd, l.path)) ::unlink(l.path.c_str());
      ::flock(l.fd, LOCK_UN);
      ::close(l.fd);
      forget(l.path);
    }
    return o;
  };
  for (const auto& path : paths) {
    if (!remember(path)) return give_up(outcome::mine);
    outcome why = outcome::unavailable;
    int fd = lock_file(path, folder.file_mode(), why);
    if (fd < 0) {
      forget(path);
      return give_up(why);
    }
    got.push_back({path, fd});
  }
  std::lock_guard<std::mutex> lock(m_);
  held_ = std::move(got);
  owner_ = ::getpid();
  return outcome::locked;
}

}  // namespace anycl::detail
