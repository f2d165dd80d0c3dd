// SPDX-License-Identifier: Apache-2.0
// anycl::half: an IEEE 754 binary16 number on the host, the element type of half arrays. Device
// code stores it as OpenCL C's half and computes in float (vload_half/vstore_half_rte).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace anycl {

/// IEEE 754 binary16: 1 sign bit, 5 exponent bits, 10 fraction bits; ±65504 at most, 2^-24 the
/// smallest subnormal. Conversions from arithmetic values round to nearest, ties to even, as IEEE
/// says (beyond 65504 + 16 to infinity; NaN stays NaN); to float and double they are exact.
class half {
 public:
  /// +0.
  constexpr half() noexcept = default;
  /// `v` rounded to the nearest half, ties to even (directly from a double, so never rounded
  /// twice); integers beyond 65519 become infinity.
  template <class A, class = std::enable_if_t<std::is_arithmetic_v<A>>>
  explicit half(A v) noexcept : bits_(round_from(static_cast<double>(v))) {}
  /// The half with these bits.
  static constexpr half from_bits(std::uint16_t b) noexcept {
    half h;
    h.bits_ = b;
    return h;
  }
  constexpr std::uint16_t bits() const noexcept { return bits_; }
  /// The exact value (a NaN stays a quiet NaN with its payload's top bits).
  operator float() const noexcept {  // NOLINT: widening is exact, as float to double
    const std::uint32_t sign = static_cast<std::uint32_t>(bits_ & 0x8000u) << 16;
    const std::uint32_t exp = (bits_ >> 10) & 0x1fu, frac = bits_ & 0x3ffu;
    float mag;
    if (exp == 0x1f) {
      const std::uint32_t b = 0x7f800000u | (frac << 13) | (frac ? 0x400000u : 0u);
      std::memcpy(&mag, &b, sizeof mag);
    } else if (exp == 0) {
      mag = std::ldexp(static_cast<float>(frac), -24);
    } else {
      mag = std::ldexp(static_cast<float>(frac | 0x400u), static_cast<int>(exp) - 25);
    }
    std::uint32_t b;
    std::memcpy(&b, &mag, sizeof b);
    b |= sign;
    std::memcpy(&mag, &b, sizeof mag);
    return mag;
  }
  /// Bitwise equality: +0 and -0 differ, and a NaN equals itself (storage comparison; compare
  /// values as floats).
  friend constexpr bool same_bits(half a, half b) noexcept { return a.bits_ == b.bits_; }

 private:
  static std::uint16_t round_from(double v) noexcept {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    const auto sign = static_cast<std::uint16_t>((b >> 48) & 0x8000u);
    const double a = std::fabs(v);
    if (std::isnan(v)) return static_cast<std::uint16_t>(sign | 0x7e00u | ((b >> 42) & 0x1ffu));
    if (a >= 65520.0) return static_cast<std::uint16_t>(sign | 0x7c00u);  // past the midpoint
    if (a < 0x1p-14)  // subnormal: a count of 2^-24 units, 1024 being the smallest normal
      return static_cast<std::uint16_t>(sign | static_cast<unsigned>(std::nearbyint(a * 0x1p24)));
    int e;
    std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1): the exponent of a is e - 1, in [-14, 15]
    const double q = std::nearbyint(std::ldexp(a, 11 - e));  // [1024, 2048]; 2048 carries
    return static_cast<std::uint16_t>(
        sign | ((static_cast<unsigned>(e + 14) << 10) + static_cast<unsigned>(q) - 1024u));
  }
  std::uint16_t bits_ = 0;
};

static_assert(sizeof(half) == 2 && std::is_trivially_copyable_v<half>,
              "anycl::half is stored as two bytes");

}  // namespace anycl
