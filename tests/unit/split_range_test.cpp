// SPDX-License-Identifier: Apache-2.0
// anycl::split_range: the weighted split of an index range behind parallel_for_each_device.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "anycl/device_group.hpp"
#include "support/matchers.hpp"

using anycl::index_range;
using anycl::split_range;
using Catch::Matchers::Contains;

namespace {

// The ranges are consecutive, start at 0, end at n, and each size is within one element of its
// exact share n * w / sum(w).
void check_split(std::size_t n, const std::vector<double>& w) {
  INFO("n " << n << ", " << w.size() << " weights");
  const auto r = split_range(n, w);
  REQUIRE(r.size() == w.size());
  double total = 0;
  for (double x : w) total += x;
  std::size_t at = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    CHECK(r[i].begin == at);
    CHECK(r[i].end >= r[i].begin);
    const double exact = static_cast<double>(n) * w[i] / total;
    CHECK(std::fabs(static_cast<double>(r[i].size()) - exact) <= 1.0 + 1e-9 * exact);
    at = r[i].end;
  }
  CHECK(at == n);
}

}  // namespace

TEST_CASE("split_range: shares add up to n and follow the weights", "[split]") {
  CHECK(split_range(100, {1, 1}) == std::vector<index_range>{{0, 50}, {50, 100}});
  CHECK(split_range(100, {1, 3}) == std::vector<index_range>{{0, 25}, {25, 100}});
  CHECK(split_range(10, {1, 1, 1}) == std::vector<index_range>{{0, 3}, {3, 7}, {7, 10}});
  CHECK(split_range(7, {2.5}) == std::vector<index_range>{{0, 7}});
  // Fewer elements than devices: some shares are empty, none is negative.
  CHECK(split_range(1, {1, 1}) == std::vector<index_range>{{0, 1}, {1, 1}});
  CHECK(split_range(0, {1, 2, 3}) == std::vector<index_range>{{0, 0}, {0, 0}, {0, 0}});
  for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 1000u, 1000003u})
    for (const auto& w : std::vector<std::vector<double>>{
             {1}, {1, 1}, {1, 2}, {3, 1, 2}, {1e-9, 1}, {1e300, 1e300}, {0.1, 0.2, 0.3, 0.4}})
      check_split(n, w);
  check_split(std::numeric_limits<std::size_t>::max(), {1, 2, 3});
  // The same inputs give the same split (no state, no rounding drift).
  CHECK(split_range(12345, {0.3, 0.7}) == split_range(12345, {0.3, 0.7}));
}

TEST_CASE("split_range: no weights or a weight not finite and > 0 is refused", "[split]") {
  REQUIRE_THROWS_WHAT(split_range(10, {}), std::invalid_argument, Contains("no weights"));
  REQUIRE_THROWS_WHAT(split_range(10, {1, 0}), std::invalid_argument,
                      Contains("weight 1") && Contains("finite and > 0"));
  REQUIRE_THROWS_WHAT(split_range(10, {-1, 1}), std::invalid_argument, Contains("weight 0"));
  REQUIRE_THROWS_WHAT(split_range(10, {1, std::numeric_limits<double>::quiet_NaN()}),
                      std::invalid_argument, Contains("weight 1"));
  REQUIRE_THROWS_WHAT(split_range(10, {std::numeric_limits<double>::infinity(), 1}),
                      std::invalid_argument, Contains("weight 0"));
}
