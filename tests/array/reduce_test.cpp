// SPDX-License-Identifier: Apache-2.0
// Reductions: sum, min, max, argmin, argmax, dot, count_if, any, all for every element type and
// layout, axis reductions, float accuracy, reduction_kernel, the type-erased engine and the error
// paths.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "anycl/reduce.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/reduce_engine.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

// --- host references ---

// Random elements: the full range of an integer type; [-1, 1) for floats (or [0, 1) when
// `positive`).
template <class T>
std::vector<T> host_random(std::size_t n, std::uint64_t seed, bool positive = false) {
  std::mt19937_64 g(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(positive ? T(0) : T(-1), T(1));
    for (auto& x : v) x = d(g);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
    std::uniform_int_distribution<W> d(std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max());
    for (auto& x : v) x = static_cast<T>(d(g));
  }
  return v;
}

std::uint64_t seed_for(const char* what) {
  const std::uint64_t seed = std::random_device{}();
  UNSCOPED_INFO(what << ": seed " << seed);
  return seed;
}

// Integer sums wrap modulo 2^64 (done in uint64_t: no signed overflow); floats in long double.
template <class T>
anycl::sum_type_t<T> host_sum(const std::vector<T>& v) {
  if constexpr (std::is_floating_point_v<T>) {
    long double s = 0;
    for (T x : v) s += x;
    return static_cast<T>(s);
  } else {
    std::uint64_t s = 0;
    for (T x : v) s += static_cast<std::uint64_t>(static_cast<anycl::sum_type_t<T>>(x));
    return static_cast<anycl::sum_type_t<T>>(s);
  }
}

template <class T>
anycl::sum_type_t<T> host_dot(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_floating_point_v<T>) {
    long double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += static_cast<long double>(a[i]) * b[i];
    return static_cast<T>(s);
  } else {
    std::uint64_t s = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
      s += static_cast<std::uint64_t>(static_cast<anycl::sum_type_t<T>>(a[i])) *
           static_cast<std::uint64_t>(static_cast<anycl::sum_type_t<T>>(b[i]));
    return static_cast<anycl::sum_type_t<T>>(s);
  }
}

template <class T>
long double abs_sum(const std::vector<T>& v) {
  long double s = 0;
  for (T x : v) s += std::fabs(static_cast<long double>(x));
  return s;
}

// Float results: within `rel` of the sum of magnitudes (a pairwise sum is within about
// log2(n) * eps of it; these bounds leave a wide margin and still catch a lost element).
// The message is built only for a failing check: the axis tests check a million outputs one by
// one, and the sanitizer job paid for a million messages.
template <class T>
void check_close(anycl::sum_type_t<T> got, anycl::sum_type_t<T> want, long double magnitude,
                 std::size_t index = 0) {
  if constexpr (std::is_floating_point_v<T>) {
    const long double rel = std::is_same_v<T, float> ? 1e-5L : 1e-13L;
    const bool close = std::fabs(static_cast<long double>(got) - want) <= rel * magnitude + rel;
    if (!close)
      UNSCOPED_INFO("output " << index << ": got " << got << " want " << want << " magnitude "
                              << static_cast<double>(magnitude));
    CHECK(close);
  } else {
    (void)index;
    (void)magnitude;
    CHECK(got == want);
  }
}

using anycl::test::host_gather;

// Reduces dense row-major host data of shape `s` along `axis` with `op` (accumulator R).
template <class R, class T, class Op>
std::vector<R> host_axis(const std::vector<T>& v, const anycl::shape& s, unsigned axis, R init,
                         Op op) {
  std::size_t outer = 1, inner = 1;
  for (unsigned i = 0; i < axis; ++i) outer *= s[i];
  for (unsigned i = axis + 1; i < s.dims(); ++i) inner *= s[i];
  const std::size_t len = s[axis];
  std::vector<R> out(outer * inner, init);
  for (std::size_t o = 0; o < outer; ++o)
    for (std::size_t j = 0; j < len; ++j)
      for (std::size_t k = 0; k < inner; ++k) {
        R& r = out[o * inner + k];
        r = op(r, v[(o * len + j) * inner + k]);
      }
  return out;
}

template <class T>
bool skip_double(const anycl::test::env& e) {
  if (std::is_same_v<T, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return true;
  }
  return false;
}

// A launch plan with the GPU shape (grid-stride loops, local-memory trees) for any device, so that
// those kernels run on POCL too.
anycl::detail::launch_plan gpu_plan(std::size_t n, std::size_t local, std::size_t groups) {
  anycl::detail::launch_plan p;
  p.cpu = false;
  p.local = local;
  p.global = local * std::max<std::size_t>(1, std::min(groups, (n + local - 1) / local));
  p.chunk = 1;
  return p;
}

// The whole-array reduction `op` of `a` in the launch shape `plan`, into `result`.
template <class T>
void gpu_reduce(const anycl::array<T>& a, anycl::detail::reduce_op op, void* result,
                const anycl::detail::launch_plan& plan) {
  anycl::detail::reduce_request r(a.core(), op, "test");
  r.plan = &plan;
  anycl::detail::reduce_builtin(r, result);
}

const std::size_t sizes[] = {0, 1, 97, (std::size_t{1} << 20) + 3};

}  // namespace

// --- whole-array reductions ---

TEMPLATE_TEST_CASE(
    "reduce: sum, min, max, argmin, argmax, dot, count_if, any, all of every element type",
    "[reduce][reduce_types]", std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
    std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  const std::uint64_t seed = seed_for("reduce: every element type");
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto hx = host_random<T>(n, seed + n);
    const auto hy = host_random<T>(n, seed + n + 1);
    auto x = anycl::array<T>::from_host(e.queue, hx);
    auto y = anycl::array<T>::from_host(e.queue, hy);
    check_close<T>(anycl::sum(x), host_sum(hx), abs_sum(hx));
    long double dot_mag = 0;
    for (std::size_t i = 0; i < n; ++i)
      dot_mag += std::fabs(static_cast<long double>(hx[i]) * static_cast<long double>(hy[i]));
    check_close<T>(anycl::dot(x, y), host_dot(hx, hy), dot_mag);
    if (n > 0) {
      CHECK(anycl::min(x) == *std::min_element(hx.begin(), hx.end()));
      CHECK(anycl::max(x) == *std::max_element(hx.begin(), hx.end()));
      // The first index on ties, as std::min_element/max_element (and numpy) give it.
      CHECK(anycl::argmin(x) ==
            static_cast<std::uint64_t>(std::min_element(hx.begin(), hx.end()) - hx.begin()));
      CHECK(anycl::argmax(x) ==
            static_cast<std::uint64_t>(std::max_element(hx.begin(), hx.end()) - hx.begin()));
    }
    CHECK(anycl::count_if(x, "x > 3") == static_cast<std::uint64_t>(std::count_if(
                                             hx.begin(), hx.end(), [](T v) { return v > 3; })));
    CHECK(anycl::count_if(x, "x <= 3") == static_cast<std::uint64_t>(std::count_if(
                                              hx.begin(), hx.end(), [](T v) { return v <= 3; })));
    CHECK(anycl::any(x) == std::any_of(hx.begin(), hx.end(), [](T v) { return v != 0; }));
    CHECK(anycl::all(x) == std::all_of(hx.begin(), hx.end(), [](T v) { return v != 0; }));
    if (n > 1) {
      // any/all around a single zero or a single non-zero, at the end (the tail of the last chunk).
      auto ones = anycl::array<T>::full(e.queue, n, T(1));
      auto zeros = anycl::array<T>::zeros(e.queue, n);
      CHECK(anycl::all(ones));
      CHECK_FALSE(anycl::any(zeros));
      ones.slice(n - 1, n).fill(T(0));
      zeros.slice(n - 1, n).fill(T(1));
      CHECK_FALSE(anycl::all(ones));
      CHECK(anycl::any(zeros));
      CHECK(anycl::count_if(zeros, "x == 1") == 1);
    }
  }
}

TEMPLATE_TEST_CASE("reduce: integer sums accumulate in 64 bits", "[reduce]", std::int8_t,
                   std::uint8_t, std::int16_t, std::int32_t, std::uint32_t) {
  using T = TestType;
  anycl::test::env e;
  const std::size_t n = (std::size_t{1} << 20) + 3;
  const T hi = std::numeric_limits<T>::max();
  const T lo = std::numeric_limits<T>::min();
  auto a = anycl::array<T>::full(e.queue, n, hi);
  CHECK(anycl::sum(a) == static_cast<anycl::sum_type_t<T>>(hi) * static_cast<std::int64_t>(n));
  using S = anycl::sum_type_t<T>;
  const std::uint64_t hi64 = static_cast<std::uint64_t>(static_cast<S>(hi));
  CHECK(anycl::dot(a, a) == static_cast<S>(hi64 * hi64 * n));
  if (std::is_signed_v<T>) {
    auto b = anycl::array<T>::full(e.queue, n, lo);
    CHECK(anycl::sum(b) == static_cast<anycl::sum_type_t<T>>(lo) * static_cast<std::int64_t>(n));
  }
  static_assert(std::is_same_v<anycl::sum_type_t<std::int8_t>, std::int64_t>);
  static_assert(std::is_same_v<anycl::sum_type_t<std::uint16_t>, std::uint64_t>);
  static_assert(std::is_same_v<anycl::sum_type_t<float>, float>);
  static_assert(std::is_same_v<decltype(anycl::min(a)), T>);
}

TEST_CASE("reduce: 64-bit sums wrap modulo 2^64", "[reduce]") {
  anycl::test::env e;
  auto a = anycl::array<std::int64_t>::from_host(
      e.queue, std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), 1, 5});
  CHECK(anycl::sum(a) == std::numeric_limits<std::int64_t>::min() + 5);
  auto u = anycl::array<std::uint64_t>::from_host(
      e.queue, std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 2});
  CHECK(anycl::sum(u) == 1);
}

TEMPLATE_TEST_CASE("reduce: strided views (slices, transposes) reduce through their strides",
                   "[reduce][reduce_strided]", std::int8_t, std::int32_t, std::uint64_t, float,
                   double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  const std::uint64_t seed = seed_for("reduce: strided views");
  const std::size_t rows = 301, cols = 1031;  // about 2^18 elements
  const auto hx = host_random<T>(rows * cols, seed);
  const auto hy = host_random<T>(rows * cols, seed + 1);
  auto x = anycl::array<T>::from_host(e.queue, hx, {rows, cols});
  auto y = anycl::array<T>::from_host(e.queue, hy, {rows, cols});
  const std::vector<anycl::array<T>> xs = {
      x.transpose(),   x.slice(1, 3, 1000, 7),       x.slice(0, 5, 300, 2),
      x.slice(17, 23), x.transpose().slice(0, 0, 1), x.slice(1, 2, 2)};  // the last one empty
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const auto& v = xs[k];
    INFO("view " << k << " shape " << v.shape().str() << " offset " << v.offset());
    const auto hv = host_gather(hx, v);
    check_close<T>(anycl::sum(v), host_sum(hv), abs_sum(hv));
    if (!hv.empty()) {
      CHECK(anycl::min(v) == *std::min_element(hv.begin(), hv.end()));
      CHECK(anycl::max(v) == *std::max_element(hv.begin(), hv.end()));
    }
    CHECK(anycl::count_if(v, "x < 0") == static_cast<std::uint64_t>(std::count_if(
                                             hv.begin(), hv.end(), [](T a) { return a < 0; })));
    CHECK(anycl::any(v) == std::any_of(hv.begin(), hv.end(), [](T a) { return a != 0; }));
    CHECK(anycl::all(v) == std::all_of(hv.begin(), hv.end(), [](T a) { return a != 0; }));
  }
  // dot: strided with strided, strided with contiguous, view with offset.
  const auto xt = x.transpose(), yt = y.transpose();
  const auto hxt = host_gather(hx, xt), hyt = host_gather(hy, yt);
  long double mag = 0;
  for (std::size_t i = 0; i < hxt.size(); ++i)
    mag += std::fabs(static_cast<long double>(hxt[i]) * static_cast<long double>(hyt[i]));
  check_close<T>(anycl::dot(xt, yt), host_dot(hxt, hyt), mag);
  auto yt_dense = yt.copy();
  check_close<T>(anycl::dot(xt, yt_dense), host_dot(hxt, hyt), mag);
  const auto xr = x.slice(100, 200), yr = y.slice(1, 101);
  const auto hxr = host_gather(hx, xr), hyr = host_gather(hy, yr);
  mag = 0;
  for (std::size_t i = 0; i < hxr.size(); ++i)
    mag += std::fabs(static_cast<long double>(hxr[i]) * static_cast<long double>(hyr[i]));
  check_close<T>(anycl::dot(xr, yr), host_dot(hxr, hyr), mag);
}

TEST_CASE("reduce: min and max ignore NaNs as fmin/fmax do", "[reduce]") {
  anycl::test::env e;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> h(1000, 2.0f);
  h[0] = nan;
  h[500] = -3.0f;
  h[998] = 7.0f;
  h[999] = nan;
  auto a = anycl::array<float>::from_host(e.queue, h);
  CHECK(anycl::min(a) == -3.0f);
  CHECK(anycl::max(a) == 7.0f);
  auto all_nan = anycl::array<float>::full(e.queue, 300, nan);
  CHECK(std::isnan(anycl::min(all_nan)));
  CHECK(std::isnan(anycl::max(all_nan)));
  CHECK(anycl::any(all_nan));  // NaN is not zero
  CHECK(anycl::count_if(a, "isnan(x)") == 2);
  auto inf = anycl::array<float>::full(e.queue, 10, std::numeric_limits<float>::infinity());
  CHECK(anycl::min(inf) == std::numeric_limits<float>::infinity());
}

TEMPLATE_TEST_CASE("reduce: sums and dots with infinities and overflow are IEEE's", "[reduce]",
                   float, double) {
  using T = TestType;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  const T inf = std::numeric_limits<T>::infinity();
  const T big = std::numeric_limits<T>::max() / 2;
  // Small (the scalar tails) and large (the vector lanes, several work-items), both shapes.
  for (std::size_t n : {std::size_t{3}, std::size_t{(1 << 20) + 3}}) {
    INFO("n = " << n);
    std::vector<T> h(n, T(1));
    h[n / 2] = inf;
    auto a = anycl::array<T>::from_host(e.queue, h);
    const auto gpu = gpu_plan(n, 256, 64);
    T g = 0;
    CHECK(anycl::sum(a) == inf);
    gpu_reduce(a, anycl::detail::reduce_op::sum, &g, gpu);
    CHECK(g == inf);
    CHECK(anycl::dot(a, a) == inf);
    CHECK(anycl::sum(a * T(2)) == inf);
    h[n - 1] = -inf;  // inf - inf
    a = anycl::array<T>::from_host(e.queue, h);
    CHECK(std::isnan(anycl::sum(a)));
    gpu_reduce(a, anycl::detail::reduce_op::sum, &g, gpu);
    CHECK(std::isnan(g));
    // Three to eight values of half the largest, spread out: the exact sum overflows T.
    std::vector<T> o(n, T(0));
    const std::size_t count = std::min<std::size_t>(n, 8);
    for (std::size_t k = 0; k < count; ++k) o[k * (n / count)] = big;
    auto b = anycl::array<T>::from_host(e.queue, o);
    CHECK(anycl::sum(b) == inf);
    gpu_reduce(b, anycl::detail::reduce_op::sum, &g, gpu);
    CHECK(g == inf);
  }
}

TEST_CASE("reduce: results wait for pending commands and are recorded on the inputs", "[reduce]") {
  anycl::test::env e;
  anycl::command_queue other(e.ctx, e.dev, {true, false});  // out of order
  const std::size_t n = (1 << 20) + 3;
  auto a = anycl::array<int>::zeros(other, n);
  a.fill(3);  // pending on the out-of-order queue
  CHECK(anycl::sum(a) == 3 * static_cast<std::int64_t>(n));
  const anycl::event after_sum = a.last_event();
  CHECK(after_sum);
  a.fill(1);
  auto b = anycl::array<int>::full(e.queue, n, 2);
  CHECK(anycl::dot(a, b) == 2 * static_cast<std::int64_t>(n));
  CHECK(b.last_event().get() == a.last_event().get());
  CHECK(a.last_event().get() != after_sum.get());
}

// --- the GPU shape, run on this device ---

TEMPLATE_TEST_CASE("reduce: the GPU-shaped kernels (grid-stride, local-memory trees) agree",
                   "[reduce][reduce_gpu]", std::int16_t, std::uint32_t, std::int64_t, float) {
  using T = TestType;
  anycl::test::env e;
  const std::uint64_t seed = seed_for("reduce: GPU shape");
  // Work-group sizes that are and are not powers of two; group counts above and below the
  // number of groups the data fills.
  const std::size_t shapes[][2] = {{256, 16}, {96, 5}, {1, 3}, {64, 1}};
  for (std::size_t n : sizes) {
    if (n == 0) continue;
    const auto h = host_random<T>(n, seed + n);
    auto x = anycl::array<T>::from_host(e.queue, h);
    auto xt = anycl::array<T>::from_host(e.queue, h, {n}).slice(0, 0, n, 3);
    const auto ht = host_gather(h, xt);
    for (const auto& s : shapes) {
      INFO("n " << n << " local " << s[0] << " groups " << s[1]);
      const auto plan = gpu_plan(n, s[0], s[1]);
      anycl::sum_type_t<T> r{};
      gpu_reduce(x, anycl::detail::reduce_op::sum, &r, plan);
      check_close<T>(r, host_sum(h), abs_sum(h));
      T m{};
      gpu_reduce(x, anycl::detail::reduce_op::min, &m, plan);
      CHECK(m == *std::min_element(h.begin(), h.end()));
      gpu_reduce(x, anycl::detail::reduce_op::max, &m, plan);
      CHECK(m == *std::max_element(h.begin(), h.end()));
      gpu_reduce(xt, anycl::detail::reduce_op::sum, &r, plan);
      check_close<T>(r, host_sum(ht), abs_sum(ht));
      anycl::detail::reduce_request dot(x.core(), anycl::detail::reduce_op::sum, "test");
      dot.b = &x.core();
      dot.plan = &plan;
      anycl::detail::reduce_builtin(dot, &r);
      long double mag = 0;
      for (T v : h) mag += static_cast<long double>(v) * static_cast<long double>(v);
      check_close<T>(r, host_dot(h, h), mag);
      const std::string positive = "x > 0";
      anycl::detail::reduce_request count(x.core(), anycl::detail::reduce_op::sum, "test");
      count.predicate = &positive;
      count.plan = &plan;
      std::uint64_t c = 0;
      anycl::detail::reduce_builtin(count, &c);
      CHECK(c == static_cast<std::uint64_t>(
                     std::count_if(h.begin(), h.end(), [](T v) { return v > 0; })));
    }
  }
}

// --- float accuracy ---

namespace {

// Pairwise summation (halves down to single elements): the host reference the device must match.
template <class T>
T pairwise(const T* p, std::size_t n) {
  if (n == 1) return p[0];
  const std::size_t h = n / 2;
  return pairwise(p, h) + pairwise(p + h, n - h);
}

// Neumaier-compensated sum in long double: the exact sum to well below a float ulp.
long double compensated(const std::vector<float>& v) {
  long double s = 0, c = 0;
  for (float x : v) {
    const long double t = s + x;
    c += std::fabs(s) >= std::fabs(static_cast<long double>(x)) ? (s - t) + x : (x - t) + s;
    s = t;
  }
  return s + c;
}

}  // namespace

TEST_CASE("reduce: float sums and dots of 2^24 randoms are as accurate as pairwise host sums",
          "[reduce]") {
  anycl::test::env e;
  const std::size_t n = std::size_t{1} << 24;
  const std::uint64_t seed = seed_for("reduce: float accuracy");
  for (bool positive : {true, false}) {
    const auto h = host_random<float>(n, seed + positive, positive);
    const long double exact = compensated(h);
    const long double pair_err = std::fabs(pairwise(h.data(), n) - exact);
    float seq = 0;
    for (float v : h) seq += v;
    const long double seq_err = std::fabs(seq - exact);
    auto a = anycl::array<float>::from_host(e.queue, h);
    const long double dev_err = std::fabs(anycl::sum(a) - exact);
    const auto plan = gpu_plan(n, 256, 64);
    float g = 0;
    gpu_reduce(a, anycl::detail::reduce_op::sum, &g, plan);
    const long double gpu_err = std::fabs(g - exact);
    // One ulp of the sum: the device sum is compensated, so within half an ulp (correctly
    // rounded) in all but extreme cases.
    const long double ulp = std::nextafter(static_cast<float>(std::fabs(exact)), INFINITY) -
                            std::fabs(static_cast<float>(exact));
    INFO((positive ? "[0, 1)" : "[-1, 1)")
         << " exact " << static_cast<double>(exact) << " ulp " << static_cast<double>(ulp)
         << " errors: device " << static_cast<double>(dev_err) << ", GPU shape "
         << static_cast<double>(gpu_err) << ", host pairwise " << static_cast<double>(pair_err)
         << ", host sequential " << static_cast<double>(seq_err));
    CHECK(dev_err <= std::max(pair_err, ulp / 2));  // no worse than pairwise, or correctly rounded
    CHECK(gpu_err <= std::max(pair_err, ulp / 2));

    // dot(a, b) and sum(a * b) against the exact sum of the float products (exact in long
    // double), and the host's pairwise sum of those products.
    const auto hb = host_random<float>(n, seed + 2 + positive, true);
    std::vector<float> prod(n);
    long double exact_dot = 0, c = 0;
    for (std::size_t i = 0; i < n; ++i) {
      prod[i] = h[i] * hb[i];
      const long double p = static_cast<long double>(h[i]) * hb[i], t = exact_dot + p;
      c += std::fabs(exact_dot) >= std::fabs(p) ? (exact_dot - t) + p : (p - t) + exact_dot;
      exact_dot = t;
    }
    exact_dot += c;
    const long double pair_dot_err = std::fabs(pairwise(prod.data(), n) - exact_dot);
    const long double dot_ulp = std::nextafter(static_cast<float>(std::fabs(exact_dot)), INFINITY) -
                                std::fabs(static_cast<float>(exact_dot));
    auto b = anycl::array<float>::from_host(e.queue, hb);
    const long double dot_err = std::fabs(anycl::dot(a, b) - exact_dot);
    const long double expr_err = std::fabs(anycl::sum(a * b) - exact_dot);
    INFO("dot: exact " << static_cast<double>(exact_dot) << " errors: device "
                       << static_cast<double>(dot_err) << ", sum(a * b) "
                       << static_cast<double>(expr_err) << ", host pairwise "
                       << static_cast<double>(pair_dot_err));
    CHECK(dot_err <= std::max(pair_dot_err, dot_ulp / 2));
    CHECK(expr_err <= std::max(pair_dot_err, dot_ulp / 2));
  }
}

// --- axis reductions ---

TEMPLATE_TEST_CASE("reduce: sum, min, max along each axis of 1-D to 4-D arrays and views",
                   "[reduce][reduce_axis]", std::int8_t, std::uint16_t, std::int64_t, float,
                   double) {
  using T = TestType;
  using S = anycl::sum_type_t<T>;
  anycl::test::env e;
  if (skip_double<T>(e)) return;
  const std::uint64_t seed = seed_for("reduce: axis");
  const anycl::shape shapes[] = {{97},         {5, 7},       {3, 70001},    {70001, 3},  {4, 1, 6},
                                 {2, 3, 4, 5}, {1, 9, 1, 4}, {3, 2, 40000}, {1, 1000003}};
  auto add = [](S a, T b) {
    return static_cast<S>(static_cast<std::uint64_t>(a) +
                          static_cast<std::uint64_t>(static_cast<S>(b)));
  };
  auto fadd = [](long double a, T b) { return a + b; };
  auto mn = [](T a, T b) { return std::min(a, b); };
  auto mx = [](T a, T b) { return std::max(a, b); };
  for (const auto& s : shapes) {
    const auto h = host_random<T>(s.size(), seed + s.size());
    auto a = anycl::array<T>::from_host(e.queue, h, s);
    for (unsigned axis = 0; axis < s.dims(); ++axis) {
      INFO("shape " << s.str() << " axis " << axis);
      auto got_sum = anycl::sum(a, anycl::axis{axis});
      auto got_min = anycl::min(a, anycl::axis{axis});
      auto got_max = anycl::max(a, anycl::axis{axis});
      std::vector<std::size_t> want_ext;
      for (unsigned i = 0; i < s.dims(); ++i)
        if (i != axis) want_ext.push_back(s[i]);
      if (want_ext.empty()) want_ext.push_back(1);
      CHECK(got_sum.shape() == anycl::shape(want_ext));
      CHECK(got_min.shape() == anycl::shape(want_ext));
      CHECK(got_min.to_host() == host_axis<T>(h, s, axis, std::numeric_limits<T>::max(), mn));
      CHECK(got_max.to_host() == host_axis<T>(h, s, axis, std::numeric_limits<T>::lowest(), mx));
      const auto sums = got_sum.to_host();
      if constexpr (std::is_floating_point_v<T>) {
        const auto want = host_axis<long double>(h, s, axis, 0.0L, fadd);
        const auto mags = host_axis<long double>(
            h, s, axis, 0.0L, [](long double m, T b) { return m + std::fabs(b); });
        for (std::size_t k = 0; k < want.size(); ++k)
          check_close<T>(sums[k], static_cast<T>(want[k]), mags[k], k);
      } else {
        CHECK(sums == host_axis<S>(h, s, axis, S(0), add));
      }
    }
  }
  // Strided views as inputs: a transposed 3-D array and a stepped slice.
  const anycl::shape s3{6, 5, 301};
  const auto h3 = host_random<T>(s3.size(), seed + 3);
  auto a3 = anycl::array<T>::from_host(e.queue, h3, s3);
  for (const auto& v : {a3.transpose({2, 0, 1}), a3.slice(2, 1, 300, 4)}) {
    const auto hv = host_gather(h3, v);
    for (unsigned axis = 0; axis < 3; ++axis) {
      INFO("view " << v.shape().str() << " axis " << axis);
      CHECK(anycl::max(v, anycl::axis{axis}).to_host() ==
            host_axis<T>(hv, v.shape(), axis, std::numeric_limits<T>::lowest(), mx));
      if constexpr (!std::is_floating_point_v<T>)
        CHECK(anycl::sum(v, anycl::axis{axis}).to_host() ==
              host_axis<S>(hv, v.shape(), axis, S(0), add));
    }
  }
}

TEST_CASE("reduce: axes of extent 0", "[reduce]") {
  anycl::test::env e;
  auto a = anycl::array<float>::zeros(e.queue, {3, 4}).slice(1, 2, 2);  // shape (3, 0)
  REQUIRE(a.shape() == anycl::shape({3, 0}));
  auto s = anycl::sum(a, anycl::axis{1});
  CHECK(s.shape() == anycl::shape{3});
  CHECK(s.to_host() == std::vector<float>(3, 0.0f));
  CHECK(anycl::sum(a, anycl::axis{0}).shape() == anycl::shape{0});
  CHECK(anycl::max(a, anycl::axis{0}).empty());
  REQUIRE_THROWS_WHAT(anycl::min(a, anycl::axis{1}), std::invalid_argument,
                      Contains("anycl::min") && Contains("extent 0"));
  auto i8 = anycl::array<std::int8_t>::zeros(e.queue, {0, 5});
  CHECK(anycl::sum(i8, anycl::axis{0}).to_host() == std::vector<std::int64_t>(5, 0));
}

// --- reduction_kernel ---

TEST_CASE("reduce: reduction_kernel computes dot, max-abs and custom reductions", "[reduce]") {
  anycl::test::env e;
  const std::uint64_t seed = seed_for("reduce: reduction_kernel");
  anycl::reduction_kernel<float> kdot(e.ctx, "0", "a + b", "x[i] * y[i]",
                                      "global const float* x, global const float* y");
  anycl::reduction_kernel<float> max_abs(e.ctx, "0", "fmax(a, b)", "fabs(x[i])",
                                         "global const float* x");
  // Sum of squares offset by a scalar, in double from float data, with a preamble helper.
  anycl::reduction_kernel<double> sq(e.ctx, "0", "a + b", "sq((double)x[i] - c)",
                                     "global const float *x, double c",
                                     "inline double sq(double v) { return v * v; }");
  // Integer index of the first element above a threshold (min over matching indices).
  anycl::reduction_kernel<std::uint64_t> first_above(
      e.ctx, "ULONG_MAX", "min(a, b)", "v[i] > t ? i : ULONG_MAX", "global const int* v, int t");
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const auto hx = host_random<float>(n, seed + n);
    const auto hy = host_random<float>(n, seed + n + 7);
    auto x = anycl::array<float>::from_host(e.queue, hx);
    auto y = anycl::array<float>::from_host(e.queue, hy);
    long double mag = 0;
    for (std::size_t i = 0; i < n; ++i) mag += std::fabs(static_cast<long double>(hx[i]) * hy[i]);
    check_close<float>(kdot(e.queue, x, y), host_dot(hx, hy), mag);
    float want_max = 0;
    for (float v : hx) want_max = std::max(want_max, std::fabs(v));
    CHECK(max_abs(e.queue, x) == want_max);
    long double want_sq = 0;  // all terms positive: also the magnitude
    for (float v : hx)
      want_sq += (static_cast<long double>(v) - 0.25L) * (static_cast<long double>(v) - 0.25L);
    if (e.dev.fp64())
      check_close<double>(sq(e.queue, x, 0.25f), static_cast<double>(want_sq), want_sq);
    std::vector<int> hv(n);
    for (std::size_t i = 0; i < n; ++i) hv[i] = static_cast<int>(i % 1000);
    auto v = anycl::array<int>::from_host(e.queue, hv);
    const std::uint64_t want_first = n > 998 ? 998 : std::numeric_limits<std::uint64_t>::max();
    CHECK(first_above(e.queue, v, 997) == want_first);
    CHECK(first_above(e.queue, v, 997L) == want_first);  // a long converts to the int parameter
  }
}

TEST_CASE("reduce: reduction_kernel takes views with offsets and copies strided const views",
          "[reduce]") {
  anycl::test::env e;
  std::vector<float> h(6000);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 17) - 8.0f;
  auto m = anycl::array<float>::from_host(e.queue, h, {60, 100});
  anycl::reduction_kernel<float> ksum(e.ctx, "0", "a + b", "x[i]", "global const float* x");
  anycl::reduction_kernel<float> kdot(e.ctx, "0", "a + b", "x[i] * y[i]",
                                      "global const float* x, global const float* restrict y");
  auto rows = m.slice(7, 9);  // offset 700, 200 elements
  float want = 0;
  for (std::size_t i = 700; i < 900; ++i) want += h[i];
  CHECK(ksum(e.queue, rows) == want);
  // n is the size of the first array; the second is read at its own offset.
  auto other = m.slice(20, 30);
  float want_dot = 0;
  for (std::size_t i = 0; i < 200; ++i) want_dot += h[700 + i] * h[2000 + i];
  CHECK(kdot(e.queue, rows, other) == want_dot);
  // A strided view is copied first (const pointer).
  auto col = m.slice(1, 3, 4);  // column 3
  float want_col = 0;
  for (std::size_t r = 0; r < 60; ++r) want_col += h[r * 100 + 3];
  CHECK(ksum(e.queue, col) == want_col);
  // An empty first array gives the neutral element.
  CHECK(ksum(e.queue, m.slice(5, 5)) == 0.0f);
  anycl::reduction_kernel<int> kmin(e.ctx, "INT_MAX", "min(a, b)", "x[i]", "global const int* x");
  auto empty = anycl::array<int>::zeros(e.queue, 0);
  CHECK(kmin(e.queue, empty) == std::numeric_limits<int>::max());
  // The GPU shape through the type-erased call.
  const auto plan = gpu_plan(200, 32, 3);
  anycl::detail::reduction_arg arg;
  arg.array = &rows.core();
  arg.type = anycl::scalar_type::f32;
  anycl::detail::reduction_program prog(e.ctx, anycl::scalar_type::f32, "0", "a + b", "x[i]",
                                        "global const float* x", "");
  float r = 0;
  prog.run(e.queue, &arg, 1, &r, &plan);
  CHECK(r == want);
  CHECK(prog.params().size() == 1);
  CHECK(prog.params()[0].pointer);
  CHECK(prog.params()[0].is_const);
  CHECK(prog.params()[0].name == "x");
}

TEST_CASE("reduce: the type-erased engine runs a spec with a vector accumulator", "[reduce]") {
  anycl::test::env e;
  const std::uint64_t seed = seed_for("reduce: engine");
  const std::size_t n = 100003;
  const auto h = host_random<float>(n, seed);
  auto a = anycl::array<float>::from_host(e.queue, h);
  anycl::detail::reduction_spec spec;
  spec.acc_type = "float2";
  spec.acc_size = 8;
  spec.neutral = "(float2)(INFINITY, -INFINITY)";
  spec.reduce = "lohi(a, b)";
  spec.preamble =
      "inline float2 lohi(float2 a, float2 b) { return (float2)(fmin(a.x, b.x), fmax(a.y, b.y)); "
      "}";
  spec.map = "(float2)(x[i], x[i])";
  spec.params = "global const float* x, ulong x__off";
  spec.prologue = "x += x__off;";
  const cl_ulong off = 0;
  std::array<anycl::detail::kernel_arg, 2> args{
      anycl::detail::arg_traits<anycl::buffer>::make(a.buffer()),
      anycl::detail::arg_traits<cl_ulong>::make(off)};
  float r[2] = {0, 0};
  auto ev = anycl::detail::run_reduction(e.queue, spec, n, args.data(), args.size(),
                                         anycl::detail::dependencies({&a.core()}), r);
  a.record(ev);
  CHECK(r[0] == *std::min_element(h.begin(), h.end()));
  CHECK(r[1] == *std::max_element(h.begin(), h.end()));
  // Into element 3 of a device buffer, with the GPU shape.
  anycl::buffer out(e.ctx, 5 * 8);
  const auto plan = gpu_plan(n, 128, 7);
  auto ev2 = anycl::detail::enqueue_reduction(e.queue, spec, n, args.data(), args.size(), {ev}, out,
                                              3, &plan);
  std::vector<float> back(10);
  e.queue.read_bytes(out, 0, out.size(), back.data(), {ev2});
  CHECK(back[6] == r[0]);
  CHECK(back[7] == r[1]);
  CHECK_THAT(anycl::detail::reduction_source(spec), Contains("#include \"anycl/reduce_engine.h\""));
  REQUIRE_THROWS_WHAT(
      anycl::detail::enqueue_reduction(e.queue, spec, n, args.data(), args.size(), {}, out, 5),
      std::invalid_argument, Contains("outside the output buffer"));
  spec.map = " ";
  REQUIRE_THROWS_WHAT(
      anycl::detail::run_reduction(e.queue, spec, n, args.data(), args.size(), {}, r),
      std::invalid_argument, Contains("map expression is empty"));
}

// --- errors ---

TEST_CASE("reduce: bad arguments to the built-in reductions", "[reduce]") {
  anycl::test::env e;
  auto empty = anycl::array<float>::zeros(e.queue, 0);
  CHECK(anycl::sum(empty) == 0.0f);
  CHECK(anycl::dot(empty, empty) == 0.0f);
  CHECK(anycl::count_if(empty, "x > 0") == 0);
  CHECK_FALSE(anycl::any(empty));
  CHECK(anycl::all(empty));
  REQUIRE_THROWS_WHAT(anycl::min(empty), std::invalid_argument,
                      Contains("anycl::min") && Contains("empty"));
  REQUIRE_THROWS_WHAT(anycl::max(empty), std::invalid_argument, Contains("anycl::max"));
  auto a = anycl::array<float>::zeros(e.queue, {4, 6});
  auto b = anycl::array<float>::zeros(e.queue, {6, 4});
  REQUIRE_THROWS_WHAT(anycl::dot(a, b), std::invalid_argument,
                      Contains("anycl::dot") && Contains("(4, 6)") && Contains("(6, 4)"));
  CHECK(anycl::dot(a, b.transpose()) == 0.0f);  // equal shapes, different layouts
  REQUIRE_THROWS_WHAT(anycl::sum(a, anycl::axis{2}), std::invalid_argument,
                      Contains("anycl::sum") && Contains("axis 2") && Contains("2 dimensions"));
  REQUIRE_THROWS_WHAT(anycl::max(a, anycl::axis{7}), std::invalid_argument, Contains("axis 7"));
  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(anycl::sum(none), std::invalid_argument, Contains("default-constructed"));
  REQUIRE_THROWS_WHAT(anycl::dot(none, a), std::invalid_argument, Contains("default-constructed"));
  REQUIRE_THROWS_WHAT(anycl::sum(none, anycl::axis{0}), std::invalid_argument,
                      Contains("default-constructed"));
  REQUIRE_THROWS_WHAT(anycl::count_if(a, "  "), std::invalid_argument,
                      Contains("predicate is empty"));
  // The type-erased entry point refuses complex elements before building anything (the public
  // functions refuse them at compile time).
  auto z = anycl::array<std::complex<float>>::zeros(e.queue, 4);
  unsigned char out[16] = {};
  REQUIRE_THROWS_WHAT(
      anycl::detail::reduce_builtin({z.core(), anycl::detail::reduce_op::min, "test min"}, out),
      std::invalid_argument,
      Contains("test min") && Contains("float2") && Contains("no built-in reduction"));
  anycl::detail::reduce_request zdot(z.core(), anycl::detail::reduce_op::sum, "test dot");
  zdot.b = &z.core();
  REQUIRE_THROWS_WHAT(anycl::detail::reduce_builtin(zdot, out), std::invalid_argument,
                      Contains("test dot") && Contains("float2 elements have no built-in"));
  REQUIRE_THROWS_AS(anycl::count_if(a, "x >"), anycl::build_error);
  try {
    anycl::count_if(a, "x > no_such_name");
    FAIL("no build_error");
  } catch (const anycl::build_error& err) {
    CHECK_THAT(err.what(), Contains("no_such_name"));
  }
}

TEST_CASE("reduce: reduction_kernel checks its parameter list", "[reduce]") {
  anycl::test::env e;
  auto make = [&](const std::string& params) {
    return anycl::reduction_kernel<float>(e.ctx, "0", "a + b", "x[i]", params);
  };
  using std::invalid_argument;
  REQUIRE_THROWS_WHAT(make(""), invalid_argument, Contains("parameter list is empty"));
  REQUIRE_THROWS_WHAT(make("float s"), invalid_argument, Contains("no 'global T*' parameter"));
  REQUIRE_THROWS_WHAT(make("float* x"), invalid_argument,
                      Contains("parameter 1 'float* x'") && Contains("needs 'global'"));
  REQUIRE_THROWS_WHAT(make("global float s, global const float* x"), invalid_argument,
                      Contains("'global' applies to pointers only"));
  REQUIRE_THROWS_WHAT(make("global const float** x"), invalid_argument,
                      Contains("pointers to pointers"));
  REQUIRE_THROWS_WHAT(make("global const float4* x"), invalid_argument,
                      Contains("unsupported type or keyword 'float4'"));
  REQUIRE_THROWS_WHAT(make("local float* x"), invalid_argument,
                      Contains("only global pointers and scalars"));
  REQUIRE_THROWS_WHAT(make("global const float* x,"), invalid_argument,
                      Contains("parameter 2") && Contains("stray comma"));
  REQUIRE_THROWS_WHAT(make("global const float* x, global int* x"), invalid_argument,
                      Contains("declared twice"));
  REQUIRE_THROWS_WHAT(make("global const float* i"), invalid_argument, Contains("reserved"));
  REQUIRE_THROWS_WHAT(make("global const float* anycl_x"), invalid_argument, Contains("reserved"));
  REQUIRE_THROWS_WHAT(make("global const float*"), invalid_argument, Contains("no parameter name"));
  REQUIRE_THROWS_WHAT(make("global const float* 2x"), invalid_argument,
                      Contains("'2x' is not a name"));
  REQUIRE_THROWS_WHAT(make("global const x"), invalid_argument, Contains("no type"));
  REQUIRE_THROWS_WHAT(make("global const float int* x"), invalid_argument,
                      Contains("more than one type"));
  REQUIRE_THROWS_WHAT(anycl::reduction_kernel<float>(e.ctx, "0", "", "x[i]", "global float* x"),
                      invalid_argument, Contains("reduce expression is empty"));
  REQUIRE_THROWS_WHAT(anycl::reduction_kernel<float>(e.ctx, " ", "a+b", "x[i]", "global float* x"),
                      invalid_argument, Contains("neutral element is empty"));
  REQUIRE_THROWS_WHAT(anycl::reduction_kernel<float>(e.ctx, "0", "a+b", "", "global float* x"),
                      invalid_argument, Contains("map expression is empty"));
}

TEST_CASE("reduce: reduction_kernel checks its arguments and reports build errors", "[reduce]") {
  anycl::test::env e;
  anycl::reduction_kernel<float> k(e.ctx, "0", "a + b", "x[i] * s + y[i]",
                                   "global const float* x, float s, global float* y");
  auto x = anycl::array<float>::full(e.queue, 10, 1.0f);
  auto y = anycl::array<float>::full(e.queue, 10, 2.0f);
  auto d = anycl::array<std::int64_t>::zeros(e.queue, 10);
  auto i = anycl::array<int>::zeros(e.queue, 10);
  CHECK(k(e.queue, x, 3, y) == 50.0f);
  CHECK(k(e.queue, x, 0.5, y) == 25.0f);
  using std::invalid_argument;
  REQUIRE_THROWS_WHAT(k(e.queue, x, 3.0f), invalid_argument,
                      Contains("2 arguments for 3 parameters") &&
                          Contains("global const float* x, float s, global float* y"));
  REQUIRE_THROWS_WHAT(k(e.queue, i, 3.0f, y), invalid_argument,
                      Contains("argument 1 ('global const float* x') needs an array of float") &&
                          Contains("got an array of int"));
  REQUIRE_THROWS_WHAT(k(e.queue, 1.0f, 3.0f, y), invalid_argument,
                      Contains("needs an array, got a float scalar"));
  REQUIRE_THROWS_WHAT(k(e.queue, x, y, y), invalid_argument,
                      Contains("argument 2 ('float s') needs a float scalar, got an array"));
  REQUIRE_THROWS_WHAT(k(e.queue, x, 3.0f, d), invalid_argument,
                      Contains("argument 3 ('global float* y') needs an array of float") &&
                          Contains("got an array of long"));
  REQUIRE_THROWS_WHAT(k(e.queue, x, 1e300, y), invalid_argument, Contains("does not fit in float"));
  REQUIRE_THROWS_WHAT(k(e.queue, x, 3.0f, anycl::array<float>()), invalid_argument,
                      Contains("default-constructed"));
  // A strided view for a non-const pointer cannot be copied behind the caller's back.
  auto m = anycl::array<float>::zeros(e.queue, {4, 4});
  REQUIRE_THROWS_WHAT(k(e.queue, x, 1.0f, m.transpose()), invalid_argument,
                      Contains("strided view") && Contains("'const' pointer"));
  // Another context.
  anycl::command_queue q2(e.dev);
  REQUIRE_THROWS_WHAT(k(q2, x, 1.0f, y), invalid_argument, Contains("another context"));
  auto x2 = anycl::array<float>::zeros(q2, 10);
  REQUIRE_THROWS_WHAT(k(e.queue, x2, 1.0f, y), invalid_argument, Contains("another context"));
  // Integer parameters take only values that fit when given a float.
  anycl::reduction_kernel<int> ki(e.ctx, "0", "a + b", "v[i] + t", "global const int* v, int t");
  CHECK(ki(e.queue, i, 2.0) == 20);
  REQUIRE_THROWS_WHAT(ki(e.queue, i, 1e20), invalid_argument, Contains("does not fit in int"));
  // Expressions that do not compile: build_error with the log.
  anycl::reduction_kernel<float> bad(e.ctx, "0", "a + b", "x[i] +* oops", "global const float* x");
  REQUIRE_THROWS_AS(bad(e.queue, x), anycl::build_error);
  try {
    anycl::reduction_kernel<float>(e.ctx, "0", "a + undefined_b", "x[i]", "global const float* x")(
        e.queue, x);
    FAIL("no build_error");
  } catch (const anycl::build_error& err) {
    CHECK_THAT(err.what(), Contains("undefined_b"));
  }
}
