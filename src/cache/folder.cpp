// SPDX-License-Identifier: Apache-2.0
#include "cache/folder.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "anycl/kernel_loader.hpp"

namespace anycl::detail {
namespace {
std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

bool in_my_groups(gid_t gid) {
  if (gid == ::getegid()) return true;
  int n = ::getgroups(0, nullptr);
  if (n <= 0) return false;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  n = ::getgroups(n, groups.data());
  for (int i = 0; i < n; ++i)
    if (groups[static_cast<std::size_t>(i)] == gid) return true;
  return false;
}

/// Makes the folder when it is missing: its parents as usual, itself private (or group-shared,
/// set after mkdir because the umask would drop the group's bits).
void make_folder(const std::filesystem::path& dir, bool shared) {
  std::error_code ec;
  if (dir.has_parent_path()) std::filesystem::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) == 0 && shared) ::chmod(dir.c_str(), 02770);
}

/// Why the folder cannot be trusted; empty if it can.
std::string untrusted_folder(const struct stat& st, bool shared) {
  if (!S_ISDIR(st.st_mode)) return "it is not a folder";
  const bool mine = st.st_uid == ::geteuid();
  if (!shared && !mine)
    return "it is owned by user " + std::to_string(st.st_uid) + ", not by this user (" +
           std::to_string(::geteuid()) + ")";
  if (shared && !mine && !in_my_groups(st.st_gid))
    return "it is owned by user " + std::to_string(st.st_uid) + " and group " +
           std::to_string(st.st_gid) + ", neither of them this user's";
  if ((st.st_mode & S_IWOTH) != 0)
    return "others can write to it (mode " + octal_mode(st.st_mode) + ")";
  if (!shared && (st.st_mode & S_IWGRP) != 0)
    return "its group can write to it (mode " + octal_mode(st.st_mode) +
           "); set ANYCL_CACHE_SHARED=1 to share it with the group";
  return {};
}

void refuse_once(const std::string& dir, const std::string& why) {
  static auto* m = new std::mutex;  // never destroyed, as the warnings of the writes
  static auto* warned = new std::set<std::string>;
  std::lock_guard<std::mutex> lock(*m);
  if (warned->insert(dir).second)
    cache_warning("kernel cache folder " + dir + " is not used: " + why +
                  "; building from source. Use a folder of your own (ANYCL_CACHE_DIR, made "
                  "with mode 0700) or ANYCL_CACHE=off");
}
}  // namespace

void cache_warning(const std::string& message) {
  std::fprintf(stderr, "anycl: warning: %s\n", message.c_str());
}

bool cache_enabled_by_env() noexcept {
  const char* c = std::getenv("ANYCL_CACHE");
  if (c == nullptr) return true;
  const std::string v = c;
  return !(v == "off" || v == "0" || v == "false" || v == "no");
}

bool cache_shared_by_env() {
  const char* v = std::getenv("ANYCL_CACHE_SHARED");
  if (v == nullptr || *v == '\0' || std::string(v) == "0") return false;
  if (std::string(v) == "1") return true;
  throw std::invalid_argument(std::string("ANYCL_CACHE_SHARED='") + v +
                              "' is neither 1 (a cache folder its group may write) nor 0");
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

std::optional<cache_folder> open_cache_folder(const std::string& dir, bool shared) {
  std::filesystem::path path = std::filesystem::path(dir).lexically_normal();
  if (!path.has_filename() && path.has_parent_path()) path = path.parent_path();  // "a/b/"
  make_folder(path, shared);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return cache_folder{dir, shared};  // nothing to read
  std::string why = untrusted_folder(st, shared);
  if (why.empty()) return cache_folder{dir, shared};
  refuse_once(dir, why);
  return std::nullopt;
}

std::string untrusted_file(const cache_folder& folder, uid_t owner, mode_t mode) {
  if (!folder.shared && owner != ::geteuid())
    return "owned by user " + std::to_string(owner) + ", not by this user";
  if ((mode & S_IWOTH) != 0) return "writable by others (mode " + octal_mode(mode) + ")";
  if (!folder.shared && (mode & S_IWGRP) != 0)
    return "writable by its group (mode " + octal_mode(mode) + ")";
  return {};
}

}  // namespace anycl::detail

namespace anycl {

std::string default_cache_dir() {
  if (!detail::cache_enabled_by_env()) return {};
  if (const char* d = std::getenv("ANYCL_CACHE_DIR"); d != nullptr && *d != '\0') return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/')
    return std::string(x) + "/anycl";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
    return std::string(h) + "/.cache/anycl";
  return {};
}

}  // namespace anycl
