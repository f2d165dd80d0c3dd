// SPDX-License-Identifier: Apache-2.0
#include "cache/entry.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <system_error>

#include "cache/statistics.hpp"
#include "core/fd.hpp"
#include "core/read_file.hpp"

namespace anycl::detail {
namespace {
std::atomic<unsigned> temp_counter{0};
constexpr std::chrono::minutes stale_temp_age{10};

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

std::optional<std::vector<unsigned char>> cache_read(const cache_folder& folder,
                                                     const digest& key) {
  std::string path = cache_entry_path(folder.dir, key);
  file_read r = read_regular_file(path, entry_max_payload + entry_header_size);
  if (r.result == file_read::outcome::not_opened) return std::nullopt;  // a plain miss
  std::string why = r ? untrusted_file(folder, r.info.st_uid, r.info.st_mode) : std::string();
  if (r && why.empty()) why = check_entry(r.bytes.data(), r.bytes.size(), key);
  if (!r) why = r.why(entry_max_payload + entry_header_size);
  if (why.empty()) {
    r.bytes.erase(r.bytes.begin(), r.bytes.begin() + entry_header_size);
    return std::move(r.bytes);
  }
  count(cache_event::reject);
  if (S_ISREG(r.info.st_mode)) remove_if_same(path, r.info);
  cache_warning("kernel cache entry " + path + " rejected (" + why +
                "); deleted, building from source");
  return std::nullopt;
}

void cache_reject(const cache_folder& folder, const digest& key, const std::string& why) {
  std::string path = cache_entry_path(folder.dir, key);
  count(cache_event::reject);
  ::unlink(path.c_str());
  cache_warning("kernel cache entry " + path + " refused by the driver (" + why +
                "); deleted, building from source");
}

void write_entry_file(const std::string& path, const digest& key,
                      const std::vector<unsigned char>& payload, std::optional<mode_t> mode) {
  std::filesystem::path target(path);
  std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  std::string temp = dir + "/." + target.filename().string() + "." + std::to_string(::getpid()) +
                     "." + std::to_string(temp_counter++) + ".tmp";
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode.value_or(0644));
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "creating " + temp);
  fd_closer closer(fd);
  try {
    if (mode && ::fchmod(fd, *mode) != 0)  // exactly: the umask may have dropped the group's bits
      throw std::system_error(errno, std::generic_category(), "chmod " + temp);
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

void cache_write(const cache_folder& folder, const digest& key,
                 const std::vector<unsigned char>& payload) {
  const std::string& dir = folder.dir;
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::system_error(ec, "creating " + dir);
    write_entry_file(cache_entry_path(dir, key), key, payload, folder.file_mode());
    count(cache_event::write);
    remove_stale_temps(dir);
  } catch (const std::exception& e) {
    count(cache_event::write_failure);
    // Never destroyed: a write finishing during exit (see pending_writes) may still warn.
    static auto* m = new std::mutex;
    static auto* warned = new std::set<std::string>;
    std::lock_guard<std::mutex> lock(*m);
    if (warned->insert(dir).second)
      cache_warning(std::string("cannot write to the kernel cache (") + e.what() +
                    "); building from source instead. Set ANYCL_CACHE_DIR to a writable folder "
                    "or ANYCL_CACHE=off");
  }
}

}  // namespace anycl::detail
