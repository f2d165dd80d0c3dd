// SPDX-License-Identifier: Apache-2.0
// anycl::half on the host against the compiler's _Float16 (a second implementation of IEEE
// binary16): every one of the 65,536 bit patterns widened, and floats and doubles around every
// half (the values, the midpoints between neighbours and one ulp either side) rounded.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "anycl/half.hpp"
#include "support/half_probes.hpp"

namespace {

std::uint16_t bits_of(_Float16 h) {
  std::uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
_Float16 from_bits(std::uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, sizeof h);
  return h;
}
// The halves' rounding of `v` agree: the same bits, or both NaN.
template <class F>
bool same_rounding(F v) {
  return anycl::test::same_half(anycl::half(v).bits(), bits_of(static_cast<_Float16>(v)));
}

}  // namespace

TEST_CASE("half: every bit pattern widens to the float _Float16 gives", "[half]") {
  std::size_t nan = 0;
  for (std::uint32_t b = 0; b <= 0xffffu; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float ours = anycl::half::from_bits(bits);
    const float ref = static_cast<float>(from_bits(bits));
    if (std::isnan(ref)) {
      ++nan;
      REQUIRE(std::isnan(ours));
      continue;
    }
    REQUIRE(std::memcmp(&ours, &ref, sizeof ours) == 0);  // -0 too
    REQUIRE(anycl::half(ours).bits() == bits);            // and back, exactly
  }
  CHECK(nan == 2 * 1023);
}

TEST_CASE("half: floats and doubles round to nearest, ties to even, as _Float16", "[half]") {
  std::size_t n = 0;
  for (float f : anycl::test::half_probes<float>()) {
    INFO("float " << f);
    REQUIRE(same_rounding(f));
    ++n;
  }
  for (double d : anycl::test::half_probes<double>()) {
    INFO("double " << d);
    REQUIRE(same_rounding(d));
  }
  CHECK(n > 5 * 2 * 0x7c00u);
  // A double just above a midpoint that float would round onto the midpoint: rounded once, it
  // goes up; through float, it would tie to even (down).
  const double mid = 1.0 + 0x1p-11, above = mid + 0x1p-40;
  CHECK(anycl::half(above).bits() == 0x3c01u);
  CHECK(anycl::half(static_cast<float>(above)).bits() == 0x3c00u);
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> d(-70000.0, 70000.0);
  for (int i = 0; i < 200000; ++i) REQUIRE(same_rounding(d(g)));
}

TEST_CASE("half: integers, limits and bit access", "[half]") {
  CHECK(anycl::half(0).bits() == 0);
  CHECK(anycl::half(-0.0f).bits() == 0x8000u);
  CHECK(anycl::half(1).bits() == 0x3c00u);
  CHECK(anycl::half(65504).bits() == 0x7bffu);
  CHECK(anycl::half(65519).bits() == 0x7bffu);
  CHECK(anycl::half(65520).bits() == 0x7c00u);
  CHECK(anycl::half(std::int64_t{1} << 40).bits() == 0x7c00u);
  CHECK(anycl::half(-2049).bits() == bits_of(static_cast<_Float16>(-2049.0f)));  // tie to even
  CHECK(static_cast<float>(anycl::half::from_bits(0x0001u)) == 0x1p-24f);
  CHECK(same_bits(anycl::half(2.5), anycl::half::from_bits(0x4100u)));
  CHECK_FALSE(same_bits(anycl::half(0.0), anycl::half(-0.0)));
  CHECK(anycl::half{}.bits() == 0);
}
