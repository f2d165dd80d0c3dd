// SPDX-License-Identifier: Apache-2.0
// The ten rounds of Philox4x32-10 on scalars (no arrays), so that loops over blocks vectorise:
// shared by the host references' uniform and normal fills.
#pragma once

#include <cstdint>

namespace anycl::bench::host {

/// Philox4x32-10 of counter {c0, c1, c2, c3} under {k0, k1}, in place.
inline void philox_rounds(std::uint32_t& c0, std::uint32_t& c1, std::uint32_t& c2,
                          std::uint32_t& c3, std::uint32_t k0, std::uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c0;
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * c2;
    const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1 ^ k0;
    const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3 ^ k1;
    c1 = static_cast<std::uint32_t>(p1);
    c3 = static_cast<std::uint32_t>(p0);
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

}  // namespace anycl::bench::host
