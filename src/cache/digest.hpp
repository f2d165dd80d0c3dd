// SPDX-License-Identifier: Apache-2.0
// SHA-256 and the on-disk binary entry format shared by the kernel cache and prebuilt .bin files.
// Internal; visible to the tests, which check the format byte by byte.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/internal.hpp"

namespace anycl::detail {

using digest = std::array<unsigned char, 32>;

/// Incremental SHA-256 (FIPS 180-4): cache keys and payload checksums.
class ANYCL_INTERNAL sha256 {
 public:
  sha256() noexcept;
  sha256& update(const void* data, std::size_t size) noexcept;
  sha256& update(std::string_view text) noexcept { return update(text.data(), text.size()); }
  /// Adds the length first, so that ("ab","c") and ("a","bc") hash differently.
  sha256& field(std::string_view text) noexcept;
  digest finish() noexcept;

 private:
  void block(const unsigned char* p) noexcept;
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buf_{};
  std::size_t used_ = 0;
  std::uint64_t total_ = 0;
};

ANYCL_INTERNAL std::string to_hex(const digest& d);

/// Version of the entry layout and of what goes into a cache key; bumping it retires old entries.
inline constexpr std::uint32_t entry_format_version = 1;
/// magic[8] "ANYCLBIN", u32 version, u32 zero, key[32], u64 payload size, sha256(payload)[32].
inline constexpr std::size_t entry_header_size = 88;
/// Larger entries are refused without being read.
inline constexpr std::uint64_t entry_max_payload = std::uint64_t(1) << 30;

/// The header for `payload` under `key`, little-endian.
ANYCL_INTERNAL std::array<unsigned char, entry_header_size> entry_header(
    const digest& key, const unsigned char* payload, std::size_t size);
/// Checks a whole entry file against the key it must have. Returns an empty string when it is
/// sound (the payload is bytes [entry_header_size, end)), else why it is not.
ANYCL_INTERNAL std::string check_entry(const unsigned char* file, std::size_t size,
                                       const digest& key);

}  // namespace anycl::detail
