// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the host references of the array benchmarks (see host_reference.hpp). Built with
// -O3 -march=native and, where CMake found OpenMP, -fopenmp; without OpenMP the pragmas are
// ignored and every function runs serially.
#include "host_reference.hpp"
#include "host_philox.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#ifdef _OPENMP
#include <omp.h>

#include <parallel/algorithm>
#endif

namespace anycl::bench::host {
namespace {

constexpr std::size_t block = 4096;      // floats summed in float lanes before going into a double
constexpr std::size_t max_parts = 1024;  // parts of a loop (the scan keeps their sums in an array)

/// The sum of a[0..m) (m <= block) in 16 float lanes the compiler vectorises.
inline float block_sum(const float* a, std::size_t m) {
  float lanes[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= m; i += 16)
    for (int l = 0; l < 16; ++l) lanes[l] += a[i + l];
  float s = 0;
  for (; i < m; ++i) s += a[i];
  for (int l = 0; l < 16; ++l) s += lanes[l];
  return s;
}

inline float block_dot(const float* a, const float* b, std::size_t m) {
  float lanes[16] = {};
  std::size_t i = 0;
  for (; i + 16 <= m; i += 16)
    for (int l = 0; l < 16; ++l) lanes[l] += a[i + l] * b[i + l];
  float s = 0;
  for (; i < m; ++i) s += a[i] * b[i];
  for (int l = 0; l < 16; ++l) s += lanes[l];
  return s;
}

struct range {
  std::size_t begin, end;
};

/// Part t of n items split into `count` contiguous parts (a multiple of 64 items each, so no two
/// parts share a cache line).
inline range part_of(std::size_t n, std::size_t count, std::size_t t) {
  const std::size_t per = ((n + count - 1) / count + 63) / 64 * 64;
  const std::size_t begin = std::min(n, t * per);
  return {begin, std::min(n, begin + per)};
}

/// 4 parts per thread (at most max_parts).
inline std::ptrdiff_t parts() {
  return static_cast<std::ptrdiff_t>(
      std::min<std::size_t>(max_parts, 4 * static_cast<std::size_t>(threads())));
}

inline std::uint32_t mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  return static_cast<std::uint32_t>(p);
}

/// Elements [4 c, 4 c + 4) of the stream (those below n).
inline void philox_block(float* out, std::size_t n, std::uint64_t c, const std::uint32_t key[2]) {
  const std::uint32_t ctr[4] = {static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32),
                                0, 0};
  std::uint32_t w[4];
  philox4x32_10(ctr, key, w);
  const std::size_t base = 4 * static_cast<std::size_t>(c);
  for (std::size_t j = 0; j < 4; ++j)
    if (base + j < n) out[base + j] = static_cast<float>(w[j] >> 8) * (1.0f / 16777216.0f);
}

/// Philox4x32-10 of counter {c0, c1, 0, 0} under {k0, k1}, stored as 4 floats at o: written on
/// scalars (no arrays) so that the loop in philox_blocks vectorises across blocks.
inline void philox_floats(std::uint32_t c0, std::uint32_t c1, std::uint32_t k0, std::uint32_t k1,
                          float* o) {
  std::uint32_t c2 = 0, c3 = 0;
  philox_rounds(c0, c1, c2, c3, k0, k1);
  o[0] = static_cast<float>(c0 >> 8) * (1.0f / 16777216.0f);
  o[1] = static_cast<float>(c1 >> 8) * (1.0f / 16777216.0f);
  o[2] = static_cast<float>(c2 >> 8) * (1.0f / 16777216.0f);
  o[3] = static_cast<float>(c3 >> 8) * (1.0f / 16777216.0f);
}

/// Elements [4 c, 4 e) (all below n): blocks c .. e - 1.
inline void philox_blocks(float* out, std::uint64_t c, std::uint64_t e,
                          const std::uint32_t key[2]) {
  for (; c < e; ++c)
    philox_floats(static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32), key[0],
                  key[1], out + 4 * c);
}

}  // namespace

int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

const char* threading() {
#ifdef _OPENMP
  static char text[64];
  static const int written = std::snprintf(text, sizeof text, "OpenMP, %d thread(s)", threads());
  (void)written;
  return text;
#else
  return "serial (built without OpenMP)";
#endif
}

// Every loop below splits its work into parts() contiguous parts handed to the threads as they
// come free (schedule(dynamic)): the shape of the device side (a few chunks per core), which
// keeps both cores busy when another process takes one for a while.

void triad(float* d, const float* b, const float* c, float s, std::size_t n) {
  const std::ptrdiff_t np = parts();
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
#pragma omp simd
    for (std::size_t i = r.begin; i < r.end; ++i) d[i] = b[i] + s * c[i];
  }
}

void broadcast_sub(float* out, const float* m, const float* row, std::size_t rows,
                   std::size_t cols) {
  const std::ptrdiff_t np = parts();
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(rows, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    for (std::size_t i = r.begin; i < r.end; ++i) {
      float* o = out + i * cols;
      const float* a = m + i * cols;
#pragma omp simd
      for (std::size_t c = 0; c < cols; ++c) o[c] = a[c] - row[c];
    }
  }
}

void take(const float* a, const std::uint32_t* idx, float* out, std::size_t n) {
  const auto m = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < m; ++k) out[k] = a[idx[k]];
}

std::size_t compress_above(const float* a, std::size_t n, float t, float* out) {
  const std::ptrdiff_t np = parts();
  std::vector<std::size_t> at(static_cast<std::size_t>(np) + 1, 0);
#pragma omp parallel for schedule(static, 1)
  for (std::ptrdiff_t p = 0; p < np; ++p) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(p));
    std::size_t c = 0;
    for (std::size_t i = r.begin; i < r.end; ++i) c += a[i] > t ? 1 : 0;
    at[static_cast<std::size_t>(p) + 1] = c;
  }
  for (std::size_t p = 1; p < at.size(); ++p) at[p] += at[p - 1];
#pragma omp parallel for schedule(static, 1)
  for (std::ptrdiff_t p = 0; p < np; ++p) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(p));
    float* o = out + at[static_cast<std::size_t>(p)];
    for (std::size_t i = r.begin; i < r.end; ++i)
      if (a[i] > t) *o++ = a[i];
  }
  return at.back();
}

void histogram(const float* a, std::size_t n, const float* edges, std::size_t bins,
               std::uint64_t* counts) {
  const std::ptrdiff_t np = parts();
  std::vector<std::uint64_t> rows(static_cast<std::size_t>(np) * bins, 0);
  const float lo = edges[0], hi = edges[bins];
  const float inv = static_cast<float>(static_cast<double>(bins) / (static_cast<double>(hi) - lo));
  const auto last = static_cast<std::ptrdiff_t>(bins) - 1;
#pragma omp parallel for schedule(static, 1)
  for (std::ptrdiff_t p = 0; p < np; ++p) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(p));
    std::uint64_t* row = rows.data() + static_cast<std::size_t>(p) * bins;
    for (std::size_t i = r.begin; i < r.end; ++i) {
      const float x = a[i];
      if (!(x >= lo && x <= hi)) continue;
      auto b = std::min(last, static_cast<std::ptrdiff_t>((x - lo) * inv));
      while (b > 0 && x < edges[b]) --b;
      while (b < last && x >= edges[b + 1]) ++b;
      ++row[b];
    }
  }
  for (std::size_t b = 0; b < bins; ++b) {
    std::uint64_t c = 0;
    for (std::ptrdiff_t p = 0; p < np; ++p) c += rows[static_cast<std::size_t>(p) * bins + b];
    counts[b] = c;
  }
}

std::size_t argmax(const float* a, std::size_t n) {
  const std::ptrdiff_t np = parts();
  std::vector<std::size_t> best(static_cast<std::size_t>(np), n);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    if (r.begin < r.end)
      best[static_cast<std::size_t>(t)] =
          static_cast<std::size_t>(std::max_element(a + r.begin, a + r.end) - a);
  }
  std::size_t out = n;
  for (std::size_t b : best)
    if (b < n && (out == n || a[b] > a[out])) out = b;
  return out;
}

double sum(const float* a, std::size_t n) {
  const std::ptrdiff_t np = parts();
  double total = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    for (std::size_t i = r.begin; i < r.end; i += block)
      total += block_sum(a + i, std::min(block, r.end - i));
  }
  return total;
}

double dot(const float* a, const float* b, std::size_t n) {
  const std::ptrdiff_t np = parts();
  double total = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    for (std::size_t i = r.begin; i < r.end; i += block)
      total += block_dot(a + i, b + i, std::min(block, r.end - i));
  }
  return total;
}

void inclusive_scan(const std::uint32_t* in, std::uint32_t* out, std::size_t n) {
  const std::ptrdiff_t np = parts();
  std::uint32_t sums[max_parts + 1] = {};
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t t = 0; t < np; ++t) {
      const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
      std::uint32_t s = 0;
#pragma omp simd reduction(+ : s)
      for (std::size_t i = r.begin; i < r.end; ++i) s += in[i];
      sums[t + 1] = s;
    }
    // (the for's implicit barrier: every part's sum is known)
#pragma omp single
    for (std::ptrdiff_t k = 1; k <= np; ++k) sums[k] += sums[k - 1];
#pragma omp for schedule(dynamic, 1)
    for (std::ptrdiff_t t = 0; t < np; ++t) {
      const range r = part_of(n, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
      std::uint32_t run = sums[t];
      for (std::size_t i = r.begin; i < r.end; ++i) out[i] = run += in[i];
    }
  }
}

void sort(std::uint32_t* keys, std::size_t n) {
#ifdef _OPENMP
  __gnu_parallel::sort(keys, keys + n);
#else
  std::sort(keys, keys + n);
#endif
}

void copy(void* dst, const void* src, std::size_t bytes) {
  const std::ptrdiff_t np = parts();
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(bytes, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    if (r.end > r.begin)
      std::memcpy(static_cast<char*>(dst) + r.begin, static_cast<const char*>(src) + r.begin,
                  r.end - r.begin);
  }
}

void philox4x32_10(const std::uint32_t ctr[4], const std::uint32_t key[2], std::uint32_t out[4]) {
  std::uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
  std::uint32_t k0 = key[0], k1 = key[1];
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, hi1;
    const std::uint32_t lo0 = mulhilo(0xD2511F53u, c0, hi0);
    const std::uint32_t lo1 = mulhilo(0xCD9E8D57u, c2, hi1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

void philox_uniform(float* out, std::size_t n, std::uint64_t seed) {
  const std::uint32_t key[2] = {static_cast<std::uint32_t>(seed),
                                static_cast<std::uint32_t>(seed >> 32)};
  const std::size_t blocks = (n + 3) / 4;
  const std::ptrdiff_t np = parts();
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(blocks, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    const std::size_t full = std::min(r.end, n / 4);  // blocks whose 4 elements are all in
    philox_blocks(out, r.begin, std::max(r.begin, full), key);
    for (std::size_t c = std::max(r.begin, full); c < r.end; ++c) philox_block(out, n, c, key);
  }
}

void philox_uniform_serial(float* out, std::size_t n, std::uint64_t seed) {
  const std::uint32_t key[2] = {static_cast<std::uint32_t>(seed),
                                static_cast<std::uint32_t>(seed >> 32)};
  for (std::uint64_t c = 0; c < (n + 3) / 4; ++c) philox_block(out, n, c, key);
}

namespace {

/// Box-Muller of the words of counter c into elements 4 c .. 4 c + 3 (those below n); `Real` is
/// the precision of pi t and its cosine and sine.
template <class Real>
inline void normal_block(float* out, std::size_t n, std::uint64_t c, const std::uint32_t key[2]) {
  const std::uint32_t ctr[4] = {static_cast<std::uint32_t>(c), static_cast<std::uint32_t>(c >> 32),
                                0, 0};
  std::uint32_t w[4];
  philox4x32_10(ctr, key, w);
  const Real pi = static_cast<Real>(3.14159265358979323846);
  float z[4];
  for (int h = 0; h < 2; ++h) {
    const float u1 = static_cast<float>(w[2 * h] >> 8) * 0x1.0p-24f + 0x1.0p-24f;
    const float t = static_cast<float>(w[2 * h + 1] >> 8) * 0x1.0p-23f;
    const float r = std::sqrt(-2.0f * std::log(u1));
    z[2 * h] = static_cast<float>(r * std::cos(pi * t));
    z[2 * h + 1] = static_cast<float>(r * std::sin(pi * t));
  }
  const std::size_t base = 4 * static_cast<std::size_t>(c);
  for (std::size_t j = 0; j < 4; ++j)
    if (base + j < n) out[base + j] = z[j];
}

}  // namespace

void philox_normal_serial(float* out, std::size_t n, std::uint64_t seed) {
  const std::uint32_t key[2] = {static_cast<std::uint32_t>(seed),
                                static_cast<std::uint32_t>(seed >> 32)};
  for (std::uint64_t c = 0; c < (n + 3) / 4; ++c) normal_block<double>(out, n, c, key);
}

void spmv(const std::uint32_t* row_ptr, const std::uint32_t* col_idx, const float* values,
          const float* x, float* y, std::size_t rows) {
  const std::ptrdiff_t np = parts();
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t t = 0; t < np; ++t) {
    const range r = part_of(rows, static_cast<std::size_t>(np), static_cast<std::size_t>(t));
    for (std::size_t i = r.begin; i < r.end; ++i) {
      float s = 0;
      for (std::uint32_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) s += values[k] * x[col_idx[k]];
      y[i] = s;
    }
  }
}

}  // namespace anycl::bench::host
