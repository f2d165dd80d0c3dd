// SPDX-License-Identifier: Apache-2.0
// SHA-256 against the FIPS 180-4 test vectors, and the binary entry header: every corruption of a
// cache entry or prebuilt .bin is caught before a byte reaches a driver.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "anycl/kernel_loader.hpp"
#include "cache/digest.hpp"
#include "cache/key.hpp"

using anycl::detail::check_entry;
using anycl::detail::digest;
using anycl::detail::entry_header;
using anycl::detail::entry_header_size;
using anycl::detail::sha256;
using anycl::detail::to_hex;
using Catch::Matchers::Contains;

namespace {
std::string hex_of(std::string_view text) { return to_hex(sha256().update(text).finish()); }

std::vector<unsigned char> make_entry(const digest& key,
                                      const std::vector<unsigned char>& payload) {
  auto header = entry_header(key, payload.data(), payload.size());
  std::vector<unsigned char> file(header.size() + payload.size());
  std::copy(header.begin(), header.end(), file.begin());
  std::copy(payload.begin(), payload.end(), file.begin() + static_cast<long>(header.size()));
  return file;
}

std::string check(const std::vector<unsigned char>& file, const digest& key) {
  return check_entry(file.data(), file.size(), key);
}

digest key_of(std::string_view text) { return sha256().update(text).finish(); }
}  // namespace

TEST_CASE("sha256: FIPS 180-4 vectors", "[unit][digest]") {
  CHECK(hex_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_of(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: any split of the input gives the same digest", "[unit][digest]") {
  std::mt19937 rng(7);
  std::string text(300, '\0');
  for (auto& c : text) c = static_cast<char>(rng());
  const std::string whole = to_hex(sha256().update(text).finish());
  for (std::size_t cut = 0; cut <= text.size(); cut += 13) {
    sha256 h;
    h.update(text.data(), cut).update(text.data() + cut, text.size() - cut);
    REQUIRE(to_hex(h.finish()) == whole);
  }
}

TEST_CASE("sha256::field separates fields by length", "[unit][digest]") {
  CHECK(sha256().field("ab").field("c").finish() != sha256().field("a").field("bc").finish());
  CHECK(sha256().field("ab").field("c").finish() == sha256().field("ab").field("c").finish());
}

TEST_CASE("entry: a sound entry passes with its own key only", "[unit][digest][cache]") {
  std::vector<unsigned char> payload(1000);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<unsigned char>(i * 7);
  const digest key = key_of("program A on device X");
  auto file = make_entry(key, payload);
  REQUIRE(file.size() == entry_header_size + payload.size());
  CHECK(check(file, key).empty());
  CHECK_THAT(check(file, key_of("program B on device X")), Contains("key mismatch"));
}

TEST_CASE("entry: every truncation is refused", "[unit][digest][cache]") {
  std::vector<unsigned char> payload(4096, 0x5a);
  const digest key = key_of("k");
  auto file = make_entry(key, payload);
  for (std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(16), entry_header_size - 1,
                           entry_header_size, file.size() / 2, file.size() - 1}) {
    INFO("truncated to " << size << " bytes");
    std::vector<unsigned char> cut(file.begin(), file.begin() + static_cast<long>(size));
    CHECK_FALSE(check(cut, key).empty());
  }
  auto padded = file;
  padded.push_back(0);
  CHECK_THAT(check(padded, key), Contains("truncated or padded"));
}

TEST_CASE("entry: any single flipped byte is refused", "[unit][digest][cache]") {
  std::vector<unsigned char> payload(2048);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<unsigned char>(i);
  const digest key = key_of("k");
  const auto file = make_entry(key, payload);
  for (std::size_t i = 0; i < entry_header_size; ++i) {  // every header byte
    auto bad = file;
    bad[i] ^= 0x01;
    INFO("header byte " << i);
    CHECK_FALSE(check(bad, key).empty());
  }
  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  for (int n = 0; n < 100; ++n) {  // payload bytes
    auto bad = file;
    std::size_t at = entry_header_size + rng() % payload.size();
    bad[at] ^= static_cast<unsigned char>(1 + rng() % 255);
    INFO("payload byte " << at);
    CHECK_THAT(check(bad, key), Contains("checksum mismatch"));
  }
}

TEST_CASE("entry: zeroed, random, foreign-format and other-version files are refused",
          "[unit][digest][cache]") {
  std::vector<unsigned char> payload(512, 1);
  const digest key = key_of("k");
  auto file = make_entry(key, payload);
  CHECK_THAT(check(std::vector<unsigned char>(file.size(), 0), key), Contains("bad magic"));
  std::mt19937 rng(11);
  std::vector<unsigned char> noise(file.size());
  for (auto& b : noise) b = static_cast<unsigned char>(rng());
  CHECK_THAT(check(noise, key), Contains("bad magic"));
  auto other_version = file;
  other_version[8] = static_cast<unsigned char>(anycl::detail::entry_format_version + 1);
  CHECK_THAT(check(other_version, key), Contains("format version"));
  // An ELF or POCL binary handed over as a cache entry is not ours.
  std::vector<unsigned char> elf = {0x7f, 'E', 'L', 'F'};
  elf.resize(200, 0);
  CHECK_THAT(check(elf, key), Contains("bad magic"));
}

TEST_CASE("cache_key: source, options and every part of the device identity change the key",
          "[unit][digest][cache]") {
  const anycl::detail::device_identity id{"Portable Computing Language",
                                          "OpenCL 3.0 PoCL 3.1",
                                          "cpu-haswell",
                                          "GenuineIntel",
                                          "OpenCL 3.0 PoCL",
                                          "3.1"};
  const digest base = anycl::detail::cache_key("kernel void k() {}", "-DN=1", id);
  CHECK(anycl::detail::cache_key("kernel void k() {}", "-DN=1", id) == base);
  CHECK(anycl::detail::cache_key("kernel void k() { }", "-DN=1", id) != base);
  CHECK(anycl::detail::cache_key("kernel void k() {}", "-DN=2", id) != base);
  auto changed = [&](std::string anycl::detail::device_identity::*field) {
    auto other = id;
    other.*field += "x";
    return anycl::detail::cache_key("kernel void k() {}", "-DN=1", other) != base;
  };
  using anycl::detail::device_identity;
  CHECK(changed(&device_identity::platform_name));
  CHECK(changed(&device_identity::platform_version));
  CHECK(changed(&device_identity::device_name));
  CHECK(changed(&device_identity::vendor));
  CHECK(changed(&device_identity::device_version));
  CHECK(changed(&device_identity::driver_version));
}

TEST_CASE("default_cache_dir: ANYCL_CACHE_DIR, XDG_CACHE_HOME, HOME, ANYCL_CACHE=off",
          "[unit][cache][env]") {
  auto keep = [](const char* name) {
    const char* v = std::getenv(name);
    return std::pair<std::string, bool>(v ? v : "", v != nullptr);
  };
  auto restore = [](const char* name, const std::pair<std::string, bool>& v) {
    if (v.second)
      setenv(name, v.first.c_str(), 1);
    else
      unsetenv(name);
  };
  auto a = keep("ANYCL_CACHE_DIR"), b = keep("XDG_CACHE_HOME"), c = keep("HOME"),
       d = keep("ANYCL_CACHE");
  unsetenv("ANYCL_CACHE");
  setenv("ANYCL_CACHE_DIR", "/tmp/a", 1);
  setenv("XDG_CACHE_HOME", "/tmp/x", 1);
  setenv("HOME", "/tmp/h", 1);
  CHECK(anycl::default_cache_dir() == "/tmp/a");
  unsetenv("ANYCL_CACHE_DIR");
  CHECK(anycl::default_cache_dir() == "/tmp/x/anycl");
  setenv("XDG_CACHE_HOME", "relative", 1);  // the XDG spec says: ignore a relative path
  CHECK(anycl::default_cache_dir() == "/tmp/h/.cache/anycl");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  CHECK(anycl::default_cache_dir().empty());
  setenv("ANYCL_CACHE_DIR", "/tmp/a", 1);
  setenv("ANYCL_CACHE", "off", 1);
  CHECK(anycl::default_cache_dir().empty());
  restore("ANYCL_CACHE_DIR", a);
  restore("XDG_CACHE_HOME", b);
  restore("HOME", c);
  restore("ANYCL_CACHE", d);
}
