// SPDX-License-Identifier: Apache-2.0
// SHA-256 (FIPS 180-4) and the binary entry header: magic, version, key, length, checksum.
#include "cache/digest.hpp"

#include <cstring>

namespace anycl::detail {
namespace {
constexpr std::uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

inline std::uint32_t rotr(std::uint32_t x, int n) noexcept { return (x >> n) | (x << (32 - n)); }

constexpr char magic[8] = {'A', 'N', 'Y', 'C', 'L', 'B', 'I', 'N'};

void put32(unsigned char* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
void put64(unsigned char* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint64_t get_le(const unsigned char* p, int bytes) noexcept {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
}  // namespace

sha256::sha256() noexcept
    : h_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

void sha256::block(const unsigned char* p) noexcept {
  std::uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = (std::uint32_t(p[4 * i]) << 24) | (std::uint32_t(p[4 * i + 1]) << 16) |
           (std::uint32_t(p[4 * i + 2]) << 8) | std::uint32_t(p[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6],
                h = h_[7];
  for (int i = 0; i < 64; ++i) {
    std::uint32_t t1 =
        h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
    std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

sha256& sha256::update(const void* data, std::size_t size) noexcept {
  const auto* p = static_cast<const unsigned char*>(data);
  total_ += size;
  if (used_ != 0) {
    std::size_t take = std::min(size, buf_.size() - used_);
    std::memcpy(buf_.data() + used_, p, take);
    used_ += take;
    p += take;
    size -= take;
    if (used_ < buf_.size()) return *this;
    block(buf_.data());
    used_ = 0;
  }
  for (; size >= 64; p += 64, size -= 64) block(p);
  if (size != 0) std::memcpy(buf_.data(), p, size);
  used_ = size;
  return *this;
}

sha256& sha256::field(std::string_view text) noexcept {
  unsigned char len[8];
  put64(len, text.size());
  update(len, sizeof len);
  return update(text);
}

digest sha256::finish() noexcept {
  std::uint64_t bits = total_ * 8;
  unsigned char pad[72] = {0x80};
  std::size_t padlen = (used_ < 56 ? 56 - used_ : 120 - used_);
  for (int i = 0; i < 8; ++i) pad[padlen + i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
  update(pad, padlen + 8);
  digest out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<unsigned char>(h_[i] >> (24 - 8 * j));
  return out;
}

std::string to_hex(const digest& d) {
  static const char hexdigits[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : d) {
    s += hexdigits[c >> 4];
    s += hexdigits[c & 15];
  }
  return s;
}

std::array<unsigned char, entry_header_size> entry_header(const digest& key,
                                                          const unsigned char* payload,
                                                          std::size_t size) {
  std::array<unsigned char, entry_header_size> h{};
  std::memcpy(h.data(), magic, 8);
  put32(h.data() + 8, entry_format_version);
  put32(h.data() + 12, 0);
  std::memcpy(h.data() + 16, key.data(), 32);
  put64(h.data() + 48, size);
  digest sum = sha256().update(payload, size).finish();
  std::memcpy(h.data() + 56, sum.data(), 32);
  return h;
}

std::string check_entry(const unsigned char* file, std::size_t size, const digest& key) {
  if (size < entry_header_size)
    return "truncated: " + std::to_string(size) + " bytes, shorter than the " +
           std::to_string(entry_header_size) + "-byte header";
  if (std::memcmp(file, magic, 8) != 0) return "not an AnyCL binary (bad magic)";
  std::uint64_t version = get_le(file + 8, 4);
  if (version != entry_format_version)
    return "format version " + std::to_string(version) + ", this library reads " +
           std::to_string(entry_format_version);
  if (get_le(file + 12, 4) != 0) return "corrupt header (reserved field is not zero)";
  if (std::memcmp(file + 16, key.data(), 32) != 0)
    return "made for another source, options, device or driver (key mismatch)";
  std::uint64_t length = get_le(file + 48, 8);
  if (length == 0 || length > entry_max_payload) return "corrupt header (payload length)";
  if (length != size - entry_header_size)
    return "truncated or padded: header says " + std::to_string(length) +
           " payload bytes, file has " + std::to_string(size - entry_header_size);
  digest sum = sha256().update(file + entry_header_size, length).finish();
  if (std::memcmp(file + 56, sum.data(), 32) != 0) return "corrupt payload (checksum mismatch)";
  return {};
}

}  // namespace anycl::detail
