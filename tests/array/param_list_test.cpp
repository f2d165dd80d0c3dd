// SPDX-License-Identifier: Apache-2.0
// User-kernel parameter lists: elementwise_kernel and reduction_kernel accept and refuse the same
// lists, with the same reasons, and convert scalar arguments by the same rules.
#include <cstdint>
#include <string>
#include <vector>

#include "anycl/elementwise.hpp"
#include "anycl/reduce.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

// The part of a message from "parameter N" or "argument N" on, which names no caller.
std::string reason(const std::string& what, const char* from) {
  const std::size_t at = what.find(from);
  return at == std::string::npos ? what : what.substr(at);
}

std::string elementwise_error(const anycl::context& ctx, const std::string& params) {
  try {
    anycl::elementwise_kernel(ctx, params, ";");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

std::string reduction_error(const anycl::context& ctx, const std::string& params) {
  try {
    anycl::reduction_kernel<float>(ctx, "0", "a + b", "0", params);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("param_list: both kernels refuse the same lists with the same reasons", "[param_list]") {
  anycl::test::env e;
  struct bad {
    const char* params;
    const char* message;
  };
  const bad cases[] = {
      {"float", "no parameter name"},
      {"global float* int", "no parameter name"},
      {"x", "no type"},
      {"global const x", "no type"},
      {"float* x", "needs 'global'"},
      {"global float4* x", "unsupported type or keyword 'float4'"},
      {"size_t n, global float* x", "unsupported type or keyword 'size_t'"},
      {"local float* x", "'local' memory is not supported"},
      {"global const float* x, int x", "declared twice"},
      {"float v,, global float* b", "parameter 2 '': an empty parameter"},
      {"global float* x,", "parameter 2 '': an empty parameter"},
      {"global float** x", "pointers to pointers"},
      {"float v; global float* b", "unexpected character ';'"},
      {"global float* const x", "const pointer"},
      {"global int v, global float* x", "'global' on a scalar"},
      {"float int v, global float* x", "more than one type"},
      {"global * int x", "the type comes before '*'"},
      {"unsigned float v, global float* x", "cannot take it"},
      {"signed unsigned int v, global float* x", "both signed and unsigned"},
      {"global float* 3a", "'3a' is not a name"},
  };
  for (const bad& c : cases) {
    INFO("params: " << c.params);
    const std::string ew = elementwise_error(e.ctx, c.params);
    const std::string rd = reduction_error(e.ctx, c.params);
    CHECK_THAT(ew, Contains(c.message) && Contains("elementwise_kernel"));
    CHECK_THAT(rd, Contains(c.message) && Contains("reduction_kernel"));
    CHECK(reason(ew, "parameter ") == reason(rd, "parameter "));
  }
  // Names every caller reserves, and those each reserves for its own code.
  for (const char* params : {"global float* anycl_x", "global float* x__off", "int i"}) {
    INFO("params: " << params);
    CHECK_THAT(elementwise_error(e.ctx, params), Contains("is reserved"));
    CHECK_THAT(reduction_error(e.ctx, params), Contains("is reserved"));
  }
  CHECK_THAT(elementwise_error(e.ctx, "global float* k"), Contains("is reserved"));
  CHECK(reduction_error(e.ctx, "global float* k") == "accepted");
  CHECK_THAT(reduction_error(e.ctx, "global float* a"), Contains("is reserved"));
  CHECK(elementwise_error(e.ctx, "global float* a") == "accepted");
}

TEST_CASE("param_list: both kernels accept the same lists as the same parameters", "[param_list]") {
  anycl::test::env e;
  const char* const lists[] = {
      "global const float* x, unsigned int m",
      "global float* y, unsigned char c, signed short s, unsigned u",
      "__global const int* restrict d, ulong n, __const float s",
      "global volatile uint* v, const long k2, signed char c",
  };
  for (const char* params : lists) {
    INFO("params: " << params);
    anycl::elementwise_kernel ek(e.ctx, params, ";");
    anycl::reduction_kernel<float> rk(e.ctx, "0", "a + b", "0", params);
    const auto& ep = ek.parameters();
    const auto& rp = rk.params();
    REQUIRE(ep.size() == rp.size());
    for (std::size_t i = 0; i < ep.size(); ++i) {
      CHECK(ep[i].name == rp[i].name);
      CHECK(ep[i].type == rp[i].type);
      CHECK(ep[i].pointer == rp[i].pointer);
    }
  }
}

TEST_CASE("param_list: both kernels convert scalar arguments by the same rules", "[param_list]") {
  anycl::test::env e;
  const char* params = "global const float* y, uchar c, int k2, float f";
  anycl::elementwise_kernel ek(e.ctx, params, ";");
  anycl::reduction_kernel<float> rk(e.ctx, "0", "a + b", "y[i]", params);
  auto y = anycl::array<float>::full(e.queue, 4, 1.0f);
  auto check_same = [&](auto c, auto k, auto f, const char* message) {
    std::string ew, rd;
    try {
      ek(e.queue, y, c, k, f);
    } catch (const std::invalid_argument& x) {
      ew = x.what();
    }
    try {
      rk(e.queue, y, c, k, f);
    } catch (const std::invalid_argument& x) {
      rd = x.what();
    }
    CHECK_THAT(ew, Contains(message));
    CHECK_THAT(rd, Contains(message));
    CHECK(reason(ew, "): ") == reason(rd, "): "));
  };
  check_same(256, 0, 0.0f, "the value 256 does not fit in uchar");
  check_same(-1, 0, 0.0f, "the value -1 does not fit in uchar");
  check_same(1.5, 0, 0.0f,
             "a floating-point value for an integer parameter must be a whole number");
  check_same(1, 1e20, 0.0f, "the value 1e+20 does not fit in int");
  check_same(1, 0, 1e300, "does not fit in float");
  check_same(1, std::uint64_t{1} << 40, 0.0f, "does not fit in int");
  // Whole floating-point values and integers that fit are taken by both.
  CHECK_NOTHROW(ek(e.queue, y, 2.0, -3, 1));
  CHECK(rk(e.queue, y, 2.0, -3, 1) == 4.0f);
}
