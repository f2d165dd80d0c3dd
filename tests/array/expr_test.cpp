// SPDX-License-Identifier: Apache-2.0
// Element-wise expressions: every operator and function against a host reference.
#include "anycl/elementwise.hpp"
#include "support/device_fixture.hpp"

TEST_CASE("expr: smoke", "[expr]") {
  anycl::test::env e;
  auto x = anycl::array<float>::arange(e.queue, 10);
  anycl::array<float> y = 2.0f * x + anycl::sin(x);
  auto h = y.to_host();
  for (int i = 0; i < 10; ++i) CHECK(h[i] == Approx(2.0f * i + std::sin(float(i))));
}
