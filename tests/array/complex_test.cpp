// SPDX-License-Identifier: Apache-2.0
// array<std::complex<T>>: storage, host round trips, views, fills, copies and values moved by
// sort_by_key, checked against the host.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>

#include "anycl/sort.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

template <class C>
std::vector<C> host_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<typename C::value_type> d(-1, 1);
  std::vector<C> v(n);
  for (auto& x : v) x = C(d(rng), d(rng));
  return v;
}

}  // namespace

TEMPLATE_TEST_CASE("complex arrays: round trips, zeros, full, views, fill, copy", "[complex]",
                   std::complex<float>, std::complex<double>) {
  anycl::test::env e;
  if (std::is_same_v<TestType, std::complex<double>> && !e.dev.fp64()) {
    WARN("no fp64 on this device: array<std::complex<double>> not tested");
    return;
  }
  using A = anycl::array<TestType>;
  STATIC_REQUIRE(anycl::scalar_type_of<TestType>() ==
                 (sizeof(TestType) == 8 ? anycl::scalar_type::c64 : anycl::scalar_type::c128));
  CHECK(anycl::size_of(anycl::scalar_type_of<TestType>()) == sizeof(TestType));
  CHECK(anycl::is_complex(anycl::scalar_type_of<TestType>()));
  const unsigned seed = 4242;
  INFO("seed " << seed);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{77}, std::size_t{1} << 16}) {
    INFO("n = " << n);
    auto host = host_values<TestType>(n, seed);
    auto a = A::from_host(e.queue, host);
    CHECK(a.to_host() == host);
    CHECK(A::zeros(e.queue, n).to_host() == std::vector<TestType>(n, TestType(0, 0)));
    const TestType v(1.5, -2.25);
    CHECK(A::full(e.queue, n, v).to_host() == std::vector<TestType>(n, v));
  }

  // A strided view of a 2-D array: read, filled by the strided kernel, transposed and copied.
  auto host = host_values<TestType>(6 * 10, seed + 1);
  auto m = A::from_host(e.queue, host, {6, 10});
  auto cols = m.slice(1, 1, 9, 3);
  CHECK(cols.to_host() == anycl::test::host_gather(host, cols));
  const TestType w(-7, 0.5);
  cols.fill(w);
  auto back = m.to_host();
  for (std::size_t i = 0; i < back.size(); ++i) {
    const bool in = (i % 10) == 1 || (i % 10) == 4 || (i % 10) == 7;
    CHECK(back[i] == (in ? w : host[i]));
  }
  auto t = m.transpose().copy();
  CHECK(t.shape() == anycl::shape{10, 6});
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 10; ++j) CHECK(t.to_host()[j * 6 + i] == back[i * 10 + j]);
  // Overlapping assignment through a temporary, as for real arrays.
  auto flat = m.reshape({60});
  flat.slice(1, 60).assign(flat.slice(0, 59));
  auto shifted = flat.to_host();
  CHECK(shifted[0] == back[0]);
  for (std::size_t i = 1; i < 60; ++i) CHECK(shifted[i] == back[i - 1]);
  REQUIRE_THROWS_WHAT(anycl::array<float>(m.core()), std::invalid_argument,
                      Contains(sizeof(TestType) == 8 ? "float2" : "double2"));
}

TEST_CASE("complex arrays: sort_by_key moves complex values with their keys", "[complex]") {
  anycl::test::env e;
  const unsigned seed = 99;
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  const std::size_t n = 5000;
  std::vector<std::uint32_t> keys(n);
  for (auto& k : keys) k = rng() % 1000;
  auto vals_f = host_values<std::complex<float>>(n, seed);
  // Host reference: a stable sort of positions by key.
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });

  auto k1 = anycl::array<std::uint32_t>::from_host(e.queue, keys);
  auto v1 = anycl::array<std::complex<float>>::from_host(e.queue, vals_f);
  anycl::sort_by_key(k1, v1);
  auto got = v1.to_host();
  for (std::size_t i = 0; i < n; ++i) CHECK(got[i] == vals_f[order[i]]);

  if (e.dev.fp64()) {
    auto vals_d = host_values<std::complex<double>>(n, seed + 1);
    auto k2 = anycl::array<std::uint32_t>::from_host(e.queue, keys);
    auto v2 = anycl::array<std::complex<double>>::from_host(e.queue, vals_d);
    anycl::sort_by_key(k2, v2);
    auto got2 = v2.to_host();
    for (std::size_t i = 0; i < n; ++i) CHECK(got2[i] == vals_d[order[i]]);
  }
}
