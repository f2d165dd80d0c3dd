// SPDX-License-Identifier: Apache-2.0
// User element-wise kernels: parameter parsing, calls with views and scalars, errors.
#include <cstdint>
#include <random>

#include "anycl/elementwise.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

constexpr unsigned seed = 777;

std::vector<float> random_floats(std::size_t n, unsigned s) {
  std::mt19937 g(s);
  std::uniform_real_distribution<float> d(-10.0f, 10.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

}  // namespace

TEST_CASE("user_kernel: axpy over every size", "[user_kernel]") {
  anycl::test::env e;
  INFO("seed " << seed);
  anycl::elementwise_kernel axpy(e.ctx, "float a, global const float* x, global float* y",
                                 "y[i] = a * x[i] + y[i]", "axpy");
  CHECK(axpy.name() == "axpy");
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{97}, (std::size_t{1} << 20) + 3}) {
    INFO("n = " << n);
    const auto hx = random_floats(n, seed), hy = random_floats(n, seed + 1);
    auto x = anycl::array<float>::from_host(e.queue, hx);
    auto y = anycl::array<float>::from_host(e.queue, hy);
    anycl::event done = axpy(e.queue, 2.0f, x, y);
    CHECK(static_cast<bool>(done));
    if (n) CHECK(y.last_event().get() == done.get());
    const auto got = y.to_host();
    std::size_t bad = n;
    // Within 1e-6 relative to max(1, |want|): the kernel may contract a * x + y to fma.
    for (std::size_t i = 0; i < n && bad == n; ++i) {
      const float want = 2.0f * hx[i] + hy[i];
      if (!(std::fabs(got[i] - want) <= 1e-6f * std::max(1.0f, std::fabs(want)))) bad = i;
    }
    CHECK(bad == n);
  }
}

TEST_CASE("user_kernel: parameters are parsed", "[user_kernel]") {
  anycl::test::env e;
  if (!e.dev.fp64()) {
    WARN("no fp64 on this device: the parameter test (with a double) not run");
    return;
  }
  anycl::elementwise_kernel k(
      e.ctx,
      "  unsigned int m , global const uchar* restrict src,global ulong *dst, double d, "
      "unsigned long big, signed char c, const short s",
      "dst[i] = src[i] * m + c + s");
  const auto& p = k.parameters();
  REQUIRE(p.size() == 7);
  CHECK(p[0].name == "m");
  CHECK(p[0].type == anycl::scalar_type::u32);
  CHECK_FALSE(p[0].pointer);
  CHECK(p[1].name == "src");
  CHECK(p[1].type == anycl::scalar_type::u8);
  CHECK(p[1].pointer);
  CHECK(p[1].declaration == "global const uchar* restrict src");
  CHECK(p[2].type == anycl::scalar_type::u64);
  CHECK(p[2].pointer);
  CHECK(p[3].type == anycl::scalar_type::f64);
  CHECK(p[4].type == anycl::scalar_type::u64);
  CHECK(p[5].type == anycl::scalar_type::i8);
  CHECK(p[6].type == anycl::scalar_type::i16);
  CHECK(k.name() == "anycl_elementwise");
  CHECK_THAT(k.source(), Contains("src += src__off;") && Contains("ANYCL_FOR_EACH(i, anycl_n"));

  const std::size_t n = 1000;
  std::vector<std::uint8_t> hs(n);
  for (std::size_t i = 0; i < n; ++i) hs[i] = static_cast<std::uint8_t>(i * 7);
  auto src = anycl::array<std::uint8_t>::from_host(e.queue, hs);
  auto dst = anycl::array<std::uint64_t>::zeros(e.queue, n);
  // Scalars convert to the declared types: int to uint, to double, to ulong, to char.
  k(e.queue, 3, src, dst, 1, 5u, -2, 10);
  std::vector<std::uint64_t> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = hs[i] * 3u - 2 + 10;
  CHECK(dst.to_host() == want);
}

TEST_CASE("user_kernel: views with offsets, explicit counts, preambles", "[user_kernel]") {
  anycl::test::env e;
  const std::size_t n = 10007;
  std::vector<std::int32_t> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<std::int32_t>(i);
  auto a = anycl::array<std::int32_t>::from_host(e.queue, h);
  auto out = anycl::array<std::int32_t>::zeros(e.queue, n);

  anycl::elementwise_kernel sq(e.ctx, "global const int* x, global int* y, int add",
                               "y[i] = square(x[i]) + add", "sq",
                               "inline int square(int v) { return v * v; }");
  // Views with offsets on both sides: out[100:200] = a[5:105]^2 + 1.
  sq(e.queue, a.slice(5, 105), out.slice(100, 200), 1);
  // An explicit count smaller than the arrays: out[0:10] = a[0:10]^2 - 1.
  sq(e.queue, anycl::element_count{10}, a, out, -1);
  std::vector<std::int32_t> want(n, 0);
  for (std::size_t i = 0; i < 100; ++i) want[100 + i] = h[5 + i] * h[5 + i] + 1;
  for (std::size_t i = 0; i < 10; ++i) want[i] = h[i] * h[i] - 1;
  CHECK(out.to_host() == want);

  // A later expression waits for the kernel's write.
  anycl::elementwise_kernel fill(e.ctx, "global int* y, int v", "y[i] = v");
  auto b = anycl::array<std::int32_t>::zeros(e.queue, n);
  fill(e.queue, b, 42);
  anycl::array<std::int32_t> c = b + 1;
  CHECK(c.to_host() == std::vector<std::int32_t>(n, 43));
  // A zero count runs nothing and gives an event.
  anycl::event none = fill(e.queue, anycl::element_count{0}, b, 7);
  none.wait();
  CHECK(b.to_host() == std::vector<std::int32_t>(n, 42));
}

TEST_CASE("user_kernel: malformed parameter lists, names and bodies", "[user_kernel]") {
  anycl::test::env e;
  using anycl::elementwise_kernel;
  const char* body = "y[i] = 0";
  struct bad {
    const char* params;
    const char* message;
  };
  const bad cases[] = {
      {"float", "expected a type and a name"},
      {"float* x", "must be 'global'"},
      {"global float4* x", "unsupported type or keyword 'float4'"},
      {"local float* x", "'local' memory is not supported"},
      {"int a, int a", "the name 'a' is taken"},
      {"int i", "reserved"},
      {"global float* x__off", "reserved"},
      {"float a,, float b", "an empty parameter"},
      {"float a,", "an empty parameter"},
      {"global float** x", "pointers to pointers"},
      {"float a; int b", "unexpected character ';'"},
      {"global float* const x", "const pointer"},
      {"global int a", "'global' on a scalar"},
      {"float int a", "two types"},
      {"unsigned float a", "cannot take it"},
      {"float 3a", "not an identifier"},
      {"size_t n", "unsupported type or keyword 'size_t'"},
  };
  for (const bad& c : cases) {
    INFO("params: " << c.params);
    REQUIRE_THROWS_WHAT(elementwise_kernel(e.ctx, c.params, body), std::invalid_argument,
                        Contains(c.message) && Contains("elementwise_kernel"));
  }
  REQUIRE_THROWS_WHAT(elementwise_kernel(e.ctx, "global float* y", body, "not a name"),
                      std::invalid_argument, Contains("not an identifier"));
  REQUIRE_THROWS_WHAT(elementwise_kernel(e.ctx, "global float* y", "  "), std::invalid_argument,
                      Contains("the body is empty"));
  REQUIRE_THROWS_WHAT(elementwise_kernel(anycl::context(), "global float* y", body),
                      std::invalid_argument, Contains("context is empty"));
  // A body that does not compile: build_error with the compiler's log.
  try {
    elementwise_kernel k(e.ctx, "global float* y", "y[i] = widht * 2", "broken");
    FAIL("no build_error");
  } catch (const anycl::build_error& err) {
    std::string logs;
    for (const auto& l : err.logs()) logs += l.log;
    CHECK_THAT(logs, Contains("widht"));
    CHECK_THAT(std::string(err.what()), Contains("broken"));
  }
}

TEST_CASE("user_kernel: call errors", "[user_kernel]") {
  anycl::test::env e;
  anycl::elementwise_kernel k(e.ctx, "float a, global const float* x, global float* y, uchar c",
                              "y[i] = a * x[i] + c", "k");
  auto x = anycl::array<float>::zeros(e.queue, 16);
  auto y = anycl::array<float>::zeros(e.queue, 16);
  auto xi = anycl::array<std::int32_t>::zeros(e.queue, 16);
  auto m = anycl::array<float>::zeros(e.queue, {4, 4});
  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, x, y), std::invalid_argument,
                      Contains("3 arguments given, it takes 4"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, xi, y, 1), std::invalid_argument,
                      Contains("argument 1") && Contains("takes an array of float") &&
                          Contains("given an array of int"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, 2.0f, y, 1), std::invalid_argument,
                      Contains("argument 1") && Contains("not a scalar"));
  REQUIRE_THROWS_WHAT(k(e.queue, x, x, y, 1), std::invalid_argument,
                      Contains("argument 0") && Contains("takes a scalar"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, m.transpose(), y, 1), std::invalid_argument,
                      Contains("strided view"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, x, y, 256), std::invalid_argument,
                      Contains("256 does not fit in uchar"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, x, y, -1), std::invalid_argument,
                      Contains("-1 does not fit in uchar"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, x, y, 1.5), std::invalid_argument,
                      Contains("floating-point value for an integer parameter"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, none, y, 1), std::invalid_argument,
                      Contains("empty (default-constructed)"));
  anycl::test::env other{anycl::test::fresh_context};
  auto xo = anycl::array<float>::zeros(other.queue, 16);
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, xo, y, 1), std::invalid_argument,
                      Contains("another context"));
  REQUIRE_THROWS_WHAT(k(other.queue, 1.0f, xo, xo, 1), std::invalid_argument,
                      Contains("another context"));
  anycl::elementwise_kernel scalars_only(e.ctx, "int a", "(void)a");
  REQUIRE_THROWS_WHAT(scalars_only(e.queue, 1), std::invalid_argument, Contains("element_count"));
  anycl::elementwise_kernel empty;
  REQUIRE_THROWS_WHAT(empty(e.queue, 1), std::invalid_argument, Contains("default-constructed"));
  // Nothing ran.
  CHECK(y.to_host() == std::vector<float>(16, 0.0f));
  // A good call still works after the errors.
  k(e.queue, 2.0f, anycl::array<float>::full(e.queue, 16, 1.5f), y, 1);
  CHECK(y.to_host() == std::vector<float>(16, 4.0f));
}
