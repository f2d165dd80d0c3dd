// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the host ("host") references of the array benchmarks, C++ with OpenMP, compiled
// on their own with -O3 -march=native -fopenmp (serial where OpenMP was not found). They take raw
// pointers only, so no template the rest of the tool instantiates is compiled here with other
// code-generation flags.
#pragma once

#include <cstddef>
#include <cstdint>

namespace anycl::bench::host {

/// The threads the OpenMP loops run on (omp_get_max_threads(), so OMP_NUM_THREADS); 1 without
/// OpenMP.
int threads();
/// "OpenMP, 2 threads" or "serial (built without OpenMP)", for the references' descriptions.
const char* threading();

/// d[i] = b[i] + s * c[i]: a parallel for.
void triad(float* d, const float* b, const float* c, float s, std::size_t n);
/// out[r * cols + c] = m[r * cols + c] - row[c] for r < rows: a parallel for over rows.
void broadcast_sub(float* out, const float* m, const float* row, std::size_t rows,
                   std::size_t cols);
/// The index of the first largest of a[0..n) (no NaNs): each part's first largest, in parallel,
/// then the first of those.
std::size_t argmax(const float* a, std::size_t n);
/// out[k] = a[idx[k]] for k < n: a parallel for.
void take(const float* a, const std::uint32_t* idx, float* out, std::size_t n);
/// The elements of a[0..n) above t, in order, into out; returns their number: two parallel
/// passes (each part's count, then each part writes from its offset).
std::size_t compress_above(const float* a, std::size_t n, float t, float* out);
/// counts[b] = how many of a[0..n) fall in [edges[b], edges[b + 1]) (the last bin closed), by a
/// guess from the even spacing corrected to the edges: per-thread rows, then added.
void histogram(const float* a, std::size_t n, const float* edges, std::size_t bins,
               std::uint64_t* counts);
/// The sum of a[0..n): a parallel reduction (float lanes over blocks of 4096, the blocks added in
/// double).
double sum(const float* a, std::size_t n);
/// The sum of a[i] * b[i], as sum().
double dot(const float* a, const float* b, std::size_t n);
/// out[i] = in[0] + ... + in[i] (modulo 2^32): two parallel passes, chunk sums then each chunk
/// scanned from its offset.
void inclusive_scan(const std::uint32_t* in, std::uint32_t* out, std::size_t n);
/// Ascending: __gnu_parallel::sort (std::sort without OpenMP).
void sort(std::uint32_t* keys, std::size_t n);
/// Ascending: a parallel LSD radix sort (11-bit digits, constant digits skipped) through `scratch`
/// of n keys (host_radix.cpp).
void radix_sort(std::uint32_t* keys, std::uint32_t* scratch, std::size_t n);
/// A parallel copy of `bytes` bytes: each thread std::memcpy's a contiguous part.
void copy(void* dst, const void* src, std::size_t bytes);

/// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011): the
/// four 32-bit words of counter `ctr` under key `key`.
void philox4x32_10(const std::uint32_t ctr[4], const std::uint32_t key[2], std::uint32_t out[4]);
/// Uniform floats in [0, 1), in parallel: the stream of anycl::random_generator(seed) at offset
/// 0, which the raw OpenCL kernel also draws. The key is {seed mod 2^32, seed >> 32}; counter
/// c = {c mod 2^32, c >> 32, 0, 0} gives its words w0..w3 to elements 4 c .. 4 c + 3, each as
/// (w >> 8) * 2^-24.
void philox_uniform(float* out, std::size_t n, std::uint64_t seed);
/// The same, serially (the checks' reference).
void philox_uniform_serial(float* out, std::size_t n, std::uint64_t seed);
/// Standard normal floats, in parallel: the stream of anycl::random_generator(seed)::normal at
/// offset 0. Block c's words (w0, w1) and (w2, w3) go through Box-Muller as random.hpp states it:
/// u1 = ((w_even >> 8) + 1) * 2^-24, t = (w_odd >> 8) * 2^-23, r = sqrt(-2 ln u1), giving
/// r cos(pi t) and r sin(pi t) to elements 4 c .. 4 c + 3; in float with the host's libm.
void philox_normal(float* out, std::size_t n, std::uint64_t seed);
/// The same, serially, with the trigonometry in double (the checks' reference).
void philox_normal_serial(float* out, std::size_t n, std::uint64_t seed);

/// y = A x for a CSR matrix of `rows` rows (row_ptr of rows + 1 entries, col_idx and values of
/// row_ptr[rows]): a parallel for over rows.
void spmv(const std::uint32_t* row_ptr, const std::uint32_t* col_idx, const float* values,
          const float* x, float* y, std::size_t rows);

}  // namespace anycl::bench::host
