// SPDX-License-Identifier: Apache-2.0
// Disk cache entries: verified before any byte reaches the driver (POCL crashes on a truncated
// binary and runs one with flipped payload bytes), written to a temporary file and renamed so
// that readers never see a partial entry, and never fatal.
#include "cache/program_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "anycl/kernel_loader.hpp"
#include "core/fd.hpp"
#include "core/process.hpp"

namespace anycl::detail {
namespace {
std::atomic<std::uint64_t> hits{0}, misses{0}, rejects{0}, writes{0}, write_failures{0}, waits{0};
std::atomic<unsigned> temp_counter{0};
constexpr std::chrono::minutes stale_temp_age{10};

void warn(const std::string& message) {
  std::fprintf(stderr, "anycl: warning: %s\n", message.c_str());
}

/// Saves begun by launches and not yet done. Never destroyed: a save may still be running on a
/// driver thread while the process exits.
struct pending_writes {
  struct entry {
    std::shared_ptr<pending_save> save;
    bool claimed = false;  // its callback is running it
  };
  std::mutex m;
  std::condition_variable cv;  // a save ended or was abandoned
  std::vector<entry> active;
  // Abandoned saves whose callback may still come: kept so that it finds them.
  std::vector<std::shared_ptr<pending_save>> abandoned;

  bool is_active(const pending_save* s) const {
    return std::any_of(active.begin(), active.end(),
                       [&](const entry& e) { return e.save.get() == s; });
  }
};
pending_writes& pending() {
  static auto* p = new pending_writes;
  return *p;
}

/// Abandons the unclaimed saves in `saves` whose launch failed (after waiting for the launch
/// when `wait` is set): their callbacks may never run.
void abandon_failed(const std::vector<std::shared_ptr<pending_save>>& saves, bool wait) noexcept {
  auto& p = pending();
  for (const auto& s : saves) {
    cl_event ev = s->launch;
    if (wait) clWaitForEvents(1, &ev);  // its failure shows in the status below
    cl_int exec = CL_COMPLETE;
    if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, nullptr) ==
            CL_SUCCESS &&
        exec >= 0)
      continue;
    {
      std::lock_guard<std::mutex> lock(p.m);
      auto it = std::find_if(p.active.begin(), p.active.end(),
                             [&](const pending_writes::entry& e) { return e.save == s; });
      if (it == p.active.end() || it->claimed) continue;
      p.active.erase(it);
      try {
        p.abandoned.push_back(s);
      } catch (...) {  // no memory: the callback, if it ever came, would find nothing
        continue;
      }
    }
    s->abandon();
    p.cv.notify_all();
  }
}

/// The unclaimed saves now pending.
std::vector<std::shared_ptr<pending_save>> unclaimed() {
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  std::vector<std::shared_ptr<pending_save>> out;
  for (const auto& e : p.active)
    if (!e.claimed) out.push_back(e.save);
  return out;
}

/// At exit, lets saves begun by completed launches finish (bounded, so that a stuck driver cannot
/// hang the exit).
struct wait_at_exit {
  ~wait_at_exit() {
    if (in_forked_child()) return;
    try {
      abandon_failed(unclaimed(), false);
    } catch (...) {  // no memory for the list: the bounded wait below still ends
    }
    auto& p = pending();
    std::unique_lock<std::mutex> lock(p.m);
    p.cv.wait_for(lock, std::chrono::seconds(10), [&] { return p.active.empty(); });
  }
};

/// Fault injection for tests: ANYCL_FAULT_KILL_CACHE_WRITE_AT=N sends SIGKILL to this process
/// after N bytes of an entry have been written, as a crash or power cut mid-write would.
std::size_t kill_after() {
  const char* v = std::getenv("ANYCL_FAULT_KILL_CACHE_WRITE_AT");
  if (v == nullptr || *v == '\0') return SIZE_MAX;
  return static_cast<std::size_t>(std::strtoull(v, nullptr, 10));
}

void write_all(int fd, const unsigned char* p, std::size_t n, std::size_t& written,
               std::size_t kill_at, const std::string& path) {
  while (n > 0) {
    std::size_t chunk = n;
    if (kill_at != SIZE_MAX && written + chunk > kill_at) {
      chunk = kill_at > written ? kill_at - written : 0;
      if (chunk == 0) ::raise(SIGKILL);
    }
    ssize_t w = ::write(fd, p, chunk);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::system_error(errno, std::generic_category(), "writing " + path);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
    written += static_cast<std::size_t>(w);
  }
}

/// Removes temporary files that writers killed mid-write left behind: they are never read, but
/// would pile up. Only old ones, so that a write in progress in another process is never hit.
void remove_stale_temps(const std::string& dir) noexcept {
  std::error_code ec;
  auto now = std::filesystem::file_time_type::clock::now();
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.size() < 5 || name[0] != '.' || name.compare(name.size() - 4, 4, ".tmp") != 0)
      continue;
    std::error_code time_ec;
    auto written = std::filesystem::last_write_time(it->path(), time_ec);
    if (!time_ec && now - written > stale_temp_age) std::filesystem::remove(it->path(), time_ec);
  }
}

void remove_if_same(const std::string& path, const struct stat& read_st) {
  struct stat now {};
  if (::stat(path.c_str(), &now) == 0 && now.st_ino == read_st.st_ino &&
      now.st_dev == read_st.st_dev)
    ::unlink(path.c_str());  // not another process's fresh entry that replaced it meanwhile
}
}  // namespace

std::string cache_entry_path(const std::string& dir, const digest& key) {
  return dir + "/" + to_hex(key) + ".bin";
}

bool read_small_file(const std::string& path, std::size_t limit, std::vector<unsigned char>& out,
                     std::string& why, struct stat* info, int* open_errno) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (open_errno != nullptr) *open_errno = errno;
    why = std::strerror(errno);
    return false;
  }
  fd_closer closer(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
    return false;
  }
  if (info != nullptr) *info = st;
  if (static_cast<std::uint64_t>(st.st_size) > limit) {
    why = std::to_string(st.st_size) + " bytes, more than the limit of " + std::to_string(limit);
    return false;
  }
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  while (have < out.size()) {
    ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    have += static_cast<std::size_t>(n);
  }
  out.resize(have);
  return true;
}

std::optional<std::vector<unsigned char>> cache_read(const std::string& dir, const digest& key) {
  std::string path = cache_entry_path(dir, key);
  struct stat st {};
  int open_errno = 0;
  std::string why;
  std::vector<unsigned char> file;
  if (read_small_file(path, entry_max_payload + entry_header_size, file, why, &st, &open_errno))
    why = check_entry(file.data(), file.size(), key);
  else if (open_errno != 0)
    return std::nullopt;  // no entry (or no folder): a plain miss
  if (why.empty()) {
    file.erase(file.begin(), file.begin() + entry_header_size);
    return file;
  }
  ++rejects;
  if (S_ISREG(st.st_mode)) remove_if_same(path, st);
  warn("kernel cache entry " + path + " rejected (" + why + "); deleted, building from source");
  return std::nullopt;
}

void cache_reject(const std::string& dir, const digest& key, const std::string& why) {
  std::string path = cache_entry_path(dir, key);
  ++rejects;
  ::unlink(path.c_str());
  warn("kernel cache entry " + path + " refused by the driver (" + why +
       "); deleted, building from source");
}

void write_entry_file(const std::string& path, const digest& key,
                      const std::vector<unsigned char>& payload) {
  std::filesystem::path target(path);
  std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  std::string temp = dir + "/." + target.filename().string() + "." + std::to_string(::getpid()) +
                     "." + std::to_string(temp_counter++) + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "creating " + temp);
  fd_closer closer(fd);
  try {
    auto header = entry_header(key, payload.data(), payload.size());
    std::size_t written = 0;
    std::size_t kill_at = kill_after();
    write_all(fd, header.data(), header.size(), written, kill_at, temp);
    write_all(fd, payload.data(), payload.size(), written, kill_at, temp);
    if (::fsync(fd) != 0) throw std::system_error(errno, std::generic_category(), "fsync " + temp);
    if (::close(closer.release()) != 0)
      throw std::system_error(errno, std::generic_category(), "closing " + temp);
    if (::rename(temp.c_str(), path.c_str()) != 0)
      throw std::system_error(errno, std::generic_category(), "renaming " + temp + " to " + path);
    // Makes the rename itself durable; without it a power cut can lose (never corrupt) the entry.
    int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
      ::fsync(dfd);
      ::close(dfd);
    }
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

void cache_write(const std::string& dir, const digest& key,
                 const std::vector<unsigned char>& payload) {
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::system_error(ec, "creating " + dir);
    write_entry_file(cache_entry_path(dir, key), key, payload);
    ++writes;
    remove_stale_temps(dir);
  } catch (const std::exception& e) {
    ++write_failures;
    // Never destroyed: a write finishing during exit (see pending_writes) may still warn.
    static auto* m = new std::mutex;
    static auto* warned = new std::set<std::string>;
    std::lock_guard<std::mutex> lock(*m);
    if (warned->insert(dir).second)
      warn(std::string("cannot write to the kernel cache (") + e.what() +
           "); building from source instead. Set ANYCL_CACHE_DIR to a writable folder or "
           "ANYCL_CACHE=off");
  }
}

void count_hits(unsigned n) noexcept { hits += n; }
void count_misses(unsigned n) noexcept { misses += n; }
void count_waits(unsigned n) noexcept { waits += n; }

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

cache_locks::outcome cache_locks::try_lock(const std::string& dir,
                                           const std::vector<digest>& keys) {
  release();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return outcome::unavailable;
  std::vector<std::string> paths;
  for (const auto& k : keys) paths.push_back(cache_lock_path(dir, k));
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  auto& h = held_here();
  std::vector<one> got;
  auto give_up = [&](outcome o) {
    for (const auto& l : got) {
      if (still_named(l.fd, l.path)) ::unlink(l.path.c_str());
      ::flock(l.fd, LOCK_UN);
      ::close(l.fd);
    }
    std::lock_guard<std::mutex> lock(h.m);
    for (const auto& l : got) h.paths.erase(l.path);
    return o;
  };
  for (const auto& path : paths) {
    bool inserted = false;
    {
      std::lock_guard<std::mutex> lock(h.m);
      inserted = h.paths.insert(path).second;
    }
    if (!inserted) return give_up(outcome::mine);
    auto forget = [&] {
      std::lock_guard<std::mutex> lock(h.m);
      h.paths.erase(path);
    };
    for (int attempt = 0;; ++attempt) {
      int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0644);
      if (fd < 0) {
        forget();
        return give_up(outcome::unavailable);
      }
      int r;
      do {
        r = ::flock(fd, LOCK_EX | LOCK_NB);
      } while (r != 0 && errno == EINTR);
      if (r != 0) {
        const bool busy = errno == EWOULDBLOCK;
        ::close(fd);
        forget();
        return give_up(busy ? outcome::busy : outcome::unavailable);
      }
      if (still_named(fd, path)) {
        got.push_back({path, fd});
        break;
      }
      // Its holder unlinked it before unlocking: open the path again.
      ::flock(fd, LOCK_UN);
      ::close(fd);
      if (attempt == 8) {
        forget();
        return give_up(outcome::busy);
      }
    }
  }
  std::lock_guard<std::mutex> lock(m_);
  held_ = std::move(got);
  owner_ = ::getpid();
  return outcome::locked;
}

double cache_wait_seconds() {
  constexpr double default_wait = 120;
  const char* v = std::getenv("ANYCL_CACHE_WAIT");
  if (v == nullptr || *v == '\0') return default_wait;
  char* end = nullptr;
  errno = 0;
  double s = std::strtod(v, &end);
  // Decimal only: strtod also takes "inf", "nan" and hexadecimal, which are refused below.
  const std::string text = v;
  bool decimal = text.find_first_not_of("0123456789.") == std::string::npos;
  if (!decimal || end == v || *end != '\0' || errno != 0 || !std::isfinite(s) || s < 0 || s > 86400)
    throw std::invalid_argument("ANYCL_CACHE_WAIT='" + text +
                                "' is not a number of seconds from 0 to 86400 (how long to wait "
                                "for another process building the same kernel; 0: never wait)");
  return s;
}

void begin_pending_write(std::shared_ptr<pending_save> save) {
  static wait_at_exit waiter;
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  p.active.push_back({std::move(save), false});
}

std::shared_ptr<pending_save> claim_pending_write(pending_save* save) noexcept {
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  for (auto& e : p.active)
    if (e.save.get() == save) {
      e.claimed = true;
      return e.save;
    }
  auto it = std::find_if(p.abandoned.begin(), p.abandoned.end(),
                         [&](const std::shared_ptr<pending_save>& s) { return s.get() == save; });
  if (it != p.abandoned.end()) p.abandoned.erase(it);
  return nullptr;
}

void end_pending_write(pending_save* save) noexcept {
  auto& p = pending();
  std::shared_ptr<pending_save> last;  // released after the lock
  {
    std::lock_guard<std::mutex> lock(p.m);
    auto it = std::find_if(p.active.begin(), p.active.end(),
                           [&](const pending_writes::entry& e) { return e.save.get() == save; });
    if (it == p.active.end()) return;
    last = std::move(it->save);
    p.active.erase(it);
  }
  p.cv.notify_all();
}

}  // namespace anycl::detail

namespace anycl {

cache_statistics cache_stats() noexcept {
  using namespace detail;
  return {hits.load(),   misses.load(),         rejects.load(),
          writes.load(), write_failures.load(), waits.load()};
}

void reset_cache_stats() noexcept {
  using namespace detail;
  hits = misses = rejects = writes = write_failures = waits = 0;
}

void wait_for_cache_writes() {
  auto& p = detail::pending();
  std::vector<std::shared_ptr<detail::pending_save>> started;
  {
    std::lock_guard<std::mutex> lock(p.m);
    for (const auto& e : p.active) started.push_back(e.save);
  }
  // Waits for each launch; the saves of failed ones are abandoned (their callbacks may never run).
  detail::abandon_failed(started, true);
  std::unique_lock<std::mutex> lock(p.m);
  p.cv.wait(lock, [&] {
    return std::none_of(started.begin(), started.end(),
                        [&](const auto& s) { return p.is_active(s.get()); });
  });
}

std::string default_cache_dir() {
  if (const char* c = std::getenv("ANYCL_CACHE")) {
    std::string v = c;
    if (v == "off" || v == "0" || v == "false" || v == "no") return {};
  }
  if (const char* d = std::getenv("ANYCL_CACHE_DIR"); d != nullptr && *d != '\0') return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/')
    return std::string(x) + "/anycl";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
    return std::string(h) + "/.cache/anycl";
  return {};
}

}  // namespace anycl
