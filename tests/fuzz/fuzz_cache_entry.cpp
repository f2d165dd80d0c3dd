// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the disk-cache entry reader (detail::cache_read and check_entry) and the writer
// (write_entry_file). The first input byte picks a mode:
//   0: the rest is an entry file as found on disk: cache_read returns its payload exactly when
//      check_entry finds it sound, else nothing, and then the file is gone;
//   1: the rest is a payload: written with write_entry_file it reads back unchanged (an empty one
//      is refused), and under another key it is rejected;
//   2: a sound entry for the payload after two bytes, then one of them says how to damage it
//      (truncate, flip a byte, append a byte): every damaged entry is rejected.
// Only the reader's documented outcomes are allowed; anything else aborts.
#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cache/digest.hpp"
#include "cache/entry.hpp"

namespace {

namespace fs = std::filesystem;
using anycl::detail::digest;
using bytes = std::vector<unsigned char>;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_cache_entry: %s\n", what);
  std::abort();
}

struct cache_dir {
  std::string path;
  digest key = anycl::detail::sha256().update("fuzz_cache_entry key").finish();
  digest other = anycl::detail::sha256().update("fuzz_cache_entry other key").finish();
  cache_dir() {
    std::string tmpl = (fs::temp_directory_path() / "anycl-fuzz-cache-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) fail("mkdtemp failed");
    path = tmpl;
  }
  ~cache_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

const cache_dir& dir() {
  static const cache_dir d;
  return d;
}

void put_file(const std::string& path, const unsigned char* p, std::size_t n) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) fail("cannot create the entry file");
  if (n != 0 && std::fwrite(p, 1, n, f) != n) fail("cannot write the entry file");
  std::fclose(f);
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

/// Reads the entry for `key` and checks the outcome: `want` (the payload), or nothing and no file.
void expect_read(const digest& key, const std::optional<bytes>& want) {
  const cache_dir& d = dir();
  const std::string path = anycl::detail::cache_entry_path(d.path, key);
  std::optional<bytes> got =
      anycl::detail::cache_read(anycl::detail::cache_folder{d.path, false}, key);
  if (want) {
    if (!got) fail("a sound entry was rejected");
    if (*got != *want) fail("the payload read back differs");
    ::unlink(path.c_str());
  } else {
    if (got) fail("an unsound entry was accepted");
    if (exists(path)) fail("a rejected entry was left in place");
  }
}

void raw_entry(const unsigned char* p, std::size_t n) {
  const cache_dir& d = dir();
  put_file(anycl::detail::cache_entry_path(d.path, d.key), p, n);
  const bool sound = anycl::detail::check_entry(p, n, d.key).empty();
  if (sound && n <= anycl::detail::entry_header_size) fail("an entry without a payload is sound");
  std::optional<bytes> want;
  if (sound) want = bytes(p + anycl::detail::entry_header_size, p + n);
  expect_read(d.key, want);
}

void round_trip(const unsigned char* p, std::size_t n) {
  const cache_dir& d = dir();
  const bytes payload(p, p + n);
  anycl::detail::write_entry_file(anycl::detail::cache_entry_path(d.path, d.key), d.key, payload);
  expect_read(d.key, n == 0 ? std::nullopt : std::optional<bytes>(payload));
  // The same entry under another key's name: made for another key, so rejected.
  anycl::detail::write_entry_file(anycl::detail::cache_entry_path(d.path, d.other), d.key, payload);
  expect_read(d.other, std::nullopt);
}

void damaged(const unsigned char* p, std::size_t n) {
  if (n < 3) return;
  const cache_dir& d = dir();
  const unsigned op = p[0] % 3;
  const unsigned char arg = p[1];
  const bytes payload(p + 2, p + n);
  const auto header = anycl::detail::entry_header(d.key, payload.data(), payload.size());
  bytes file(header.begin(), header.end());
  file.insert(file.end(), payload.begin(), payload.end());
  if (!anycl::detail::check_entry(file.data(), file.size(), d.key).empty())
    fail("a freshly made entry is not sound");
  // Where to damage it: spread over the header and the payload.
  const std::size_t at = (static_cast<std::size_t>(arg) * 7919u + payload.size()) % file.size();
  if (op == 0) {
    file.resize(at);
  } else if (op == 1) {
    file[at] = static_cast<unsigned char>(file[at] ^ (arg | 1u));
  } else {
    file.push_back(arg);
  }
  put_file(anycl::detail::cache_entry_path(d.path, d.key), file.data(), file.size());
  if (anycl::detail::check_entry(file.data(), file.size(), d.key).empty())
    fail("a damaged entry passes check_entry");
  expect_read(d.key, std::nullopt);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  switch (data[0] % 3) {
    case 0:
      raw_entry(data + 1, size - 1);
      break;
    case 1:
      round_trip(data + 1, size - 1);
      break;
    default:
      damaged(data + 1, size - 1);
      break;
  }
  return 0;
}
