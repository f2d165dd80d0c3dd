// SPDX-License-Identifier: Apache-2.0
// indexing.cl (take, put, searchsorted), compact.cl (compress, flatnonzero), histogram.cl
// (histogram, bincount) and segments.cl (reduce_by_key) at sizes around a work-group boundary,
// against the host: run under Oclgrind with every check by the [kernels] entries (and in the GPU
// shape by oclgrind-kernels-gpu), where out-of-bounds accesses and races would show.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "anycl/histogram.hpp"
#include "anycl/indexing.hpp"
#include "reliability/kernels_support.hpp"
#include "support/device_fixture.hpp"

using anycl::array;
using namespace anycl::test::kernels;

TEST_CASE("kernels: indexing.cl take, put and searchsorted equal the host", "[kernels]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> h = values<float>(n);
    auto a = array<float>::from_host(e.queue, h);
    std::vector<std::int32_t> idx(n + 3);
    for (std::size_t k = 0; k < idx.size(); ++k)
      idx[k] =
          static_cast<std::int32_t>((k * 31) % n) - (k % 3 == 0 ? static_cast<std::int32_t>(n) : 0);
    auto ia = array<std::int32_t>::from_host(e.queue, idx);
    std::vector<float> want;
    for (std::int32_t i : idx)
      want.push_back(h[static_cast<std::size_t>(i < 0 ? i + static_cast<std::int32_t>(n) : i)]);
    CHECK(anycl::take(a, ia).to_host() == want);
    std::vector<float> put = h;
    std::vector<float> v(idx.size());
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k) + 0.5f;
    for (std::size_t k = 0; k < idx.size(); ++k)
      put[static_cast<std::size_t>(idx[k] < 0 ? idx[k] + static_cast<std::int32_t>(n) : idx[k])] =
          v[k];
    anycl::put(a, ia, array<float>::from_host(e.queue, v));
    CHECK(a.to_host() == put);
    std::vector<float> sorted = h;
    std::sort(sorted.begin(), sorted.end());
    auto s = array<float>::from_host(e.queue, sorted);
    std::vector<std::uint64_t> left;
    for (float x : h)
      left.push_back(std::lower_bound(sorted.begin(), sorted.end(), x) - sorted.begin());
    CHECK(anycl::searchsorted(s, array<float>::from_host(e.queue, h)).to_host() == left);
  }
}

TEST_CASE("kernels: compact.cl, histogram.cl and segments.cl equal the host", "[kernels]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<std::int32_t> h = values<std::int32_t>(n);
    auto a = array<std::int32_t>::from_host(e.queue, h);
    std::vector<std::int32_t> kept;
    std::vector<std::uint64_t> where, counts(37, 0);
    for (std::size_t k = 0; k < n; ++k) {
      if (h[k] > 0) {
        kept.push_back(h[k]);
        where.push_back(k);
      }
      ++counts[static_cast<std::size_t>(h[k] + 18)];
    }
    CHECK(anycl::compress(a > 0, a).to_host() == kept);
    CHECK(anycl::flatnonzero(a > 0).to_host() == where);
    // Values -18..18 in 37 unit bins from -18.5: bin i holds value i - 18.
    const auto r = anycl::histogram(anycl::cast<float>(a), 37, -18.5f, 18.5f);
    CHECK(r.counts.to_host() == counts);
    // 7,400 bins (29.6 KB a row: more than half of Oclgrind's 32 KiB of __local memory, so the
    // GPU shape counts in global memory with atomics): value i - 18 lands in bin 200 i + 100.
    const auto wide = anycl::histogram(anycl::cast<float>(a), 7400, -18.5f, 18.5f);
    const auto wc = wide.counts.to_host();
    for (std::size_t i = 0; i < counts.size(); ++i) {
      INFO("bin of value " << int(i) - 18);
      CHECK(wc[200 * i + 100] == counts[i]);
    }
    CHECK(std::accumulate(wc.begin(), wc.end(), std::uint64_t{0}) == n);
    // Runs of equal neighbours: their keys and sums.
    std::vector<std::int32_t> run_keys;
    std::vector<std::int64_t> run_sums;
    for (std::size_t k = 0; k < n; ++k) {
      if (k == 0 || h[k] != h[k - 1]) run_keys.push_back(h[k]), run_sums.push_back(0);
      run_sums.back() += h[k];
    }
    const auto runs = anycl::reduce_by_key(a, a);
    CHECK(runs.first.to_host() == run_keys);
    CHECK(runs.second.to_host() == run_sums);
    // Runs of 100 (the GPU shape's work-group a run): the sums of each hundred values.
    std::vector<std::int32_t> hundreds(n);
    std::vector<std::int64_t> hundred_sums((n + 99) / 100, 0);
    for (std::size_t k = 0; k < n; ++k) {
      hundreds[k] = static_cast<std::int32_t>(k / 100);
      hundred_sums[k / 100] += h[k];
    }
    const auto long_runs =
        anycl::reduce_by_key(array<std::int32_t>::from_host(e.queue, hundreds), a);
    CHECK(long_runs.second.to_host() == hundred_sums);
    const auto c = anycl::bincount(a + 18).to_host();
    while (counts.back() == 0) counts.pop_back();  // bincount's length: the largest value + 1
    CHECK(c == counts);
  }
}
