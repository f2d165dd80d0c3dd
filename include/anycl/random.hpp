// SPDX-License-Identifier: Apache-2.0
// Counter-based random numbers on device arrays: Philox4x32-10 (Random123) streams that depend only
// on (seed, offset, element index), never on the device or the launch shape.
#pragma once

#include <cstddef>
#include <cstdint>

#include "anycl/array.hpp"
#include "anycl/export.hpp"

namespace anycl {

namespace detail {

/// What a random fill draws.
enum class random_distribution : unsigned char { bits, uniform, normal };

}  // namespace detail

/// A Philox4x32-10 stream (Salmon et al. 2011, as Random123 defines it; cl_kernels/anycl/philox.h
/// has the same function for your own kernels) keyed by a 64-bit seed, with a position `offset`
/// counted in Philox blocks of 128 bits.
///
/// A call filling n elements at offset o uses the blocks o, o + 1, ... and then advances the
/// offset past them, so a stream is reproducible from (seed, offset) and element k of a call
/// depends only on (seed, o, k):
///  - key = (seed mod 2^32, seed >> 32); block j is Philox4x32-10 of the 128-bit counter o + j
///    (words little-endian: (o + j) mod 2^32, (o + j) >> 32 mod 2^32, the carry, 0), giving the
///    32-bit words x0, x1, x2, x3.
///  - 32-bit elements (uint32_t, float) use block k / 4: bits() stores x_{k%4}; uniform() stores
///    (x_{k%4} >> 8) * 2^-24 in [0, 1); normal() applies Box-Muller to the pair (x0, x1) for
///    k % 4 in {0, 1} and (x2, x3) for {2, 3}: u1 = ((x_even >> 8) + 1) * 2^-24 in (0, 1],
///    t = (x_odd >> 8) * 2^-23, r = sqrt(-2 ln u1); even k gets r cos(pi t), odd k r sin(pi t).
///    A call advances the offset by ceil(n / 4).
///  - 64-bit elements (uint64_t, double) use block k / 2 and the 64-bit words
///    y0 = x1 * 2^32 + x0, y1 = x3 * 2^32 + x2: bits() stores y_{k%2}; uniform() stores
///    (y_{k%2} >> 11) * 2^-53 in [0, 1); normal() applies Box-Muller with
///    u1 = ((y0 >> 11) + 1) * 2^-53 and t = (y1 >> 11) * 2^-52 (even k: r cos(pi t), odd k:
///    r sin(pi t)). A call advances the offset by ceil(n / 2).
///  - uniform(a, lo, hi) stores fma(hi - lo, u, lo), and the largest value below hi where that
///    rounds to hi, so results lie in [lo, hi); normal(a, mean, sd) stores fma(z, sd, mean).
/// Consecutive calls therefore equal one big call when each call but the last fills a multiple of
/// 4 (32-bit) or 2 (64-bit) elements; otherwise the unused words of the last block are skipped.
/// bits() and uniform() are exact (equal on every device); normal() uses the device's log, sqrt,
/// cospi and sinpi, so devices may differ by a few ulp, but one device gives the same bits for
/// any launch shape (every element goes through the same 8-wide code; cl_kernels/anycl/random.cl).
///
/// Arrays of any shape are filled in row-major element order; a strided view is filled through a
/// dense temporary. Empty arrays (size 0) are left alone and consume nothing. Commands are
/// enqueued on the array's queue after its pending commands, as array::fill is; the generator holds
/// no OpenCL objects and may be copied freely (a copy continues the same stream: copy, then
/// advance the copy's offset, to split streams, or use different seeds).
class ANYCL_EXPORT random_generator {
 public:
  /// The stream of `seed` from block `offset`.
  explicit random_generator(std::uint64_t seed, std::uint64_t offset = 0) noexcept
      : seed_(seed), offset_(offset) {}

  std::uint64_t seed() const noexcept { return seed_; }
  /// The next block to use.
  std::uint64_t offset() const noexcept { return offset_; }
  /// Moves to block `offset` (forwards or back).
  void seek(std::uint64_t offset) noexcept { offset_ = offset; }

  /// Raw 32-bit outputs. Throws std::invalid_argument for a default-constructed array,
  /// std::overflow_error when the offset would pass 2^64 blocks.
  void bits(const array<std::uint32_t>& a);
  /// Raw 64-bit outputs (two words each).
  void bits(const array<std::uint64_t>& a);
  /// Uniform in [0, 1).
  void uniform(const array<float>& a);
  void uniform(const array<double>& a);
  /// Uniform in [lo, hi). Throws std::invalid_argument unless lo < hi, both finite and hi - lo
  /// finite.
  void uniform(const array<float>& a, float lo, float hi);
  void uniform(const array<double>& a, double lo, double hi);
  /// Normal with `mean` and standard deviation `stddev` (Box-Muller). Throws
  /// std::invalid_argument for stddev < 0 or a non-finite mean or stddev.
  void normal(const array<float>& a, float mean = 0.0f, float stddev = 1.0f);
  void normal(const array<double>& a, double mean = 0.0, double stddev = 1.0);

 private:
  void fill(const detail::array_core& a, detail::random_distribution d, double p0, double p1,
            const char* what);
  std::uint64_t seed_;
  std::uint64_t offset_;
};

}  // namespace anycl
