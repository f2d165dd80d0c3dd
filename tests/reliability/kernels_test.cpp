// SPDX-License-Identifier: Apache-2.0
// Every kernel AnyCL ships (cl_kernels/anycl/*.cl), through the public array API, at sizes around
// a work-group boundary, for the main element types, plus generated element-wise expressions and
// user element-wise kernels: results against host references. CI also runs these tests under
// Oclgrind (--check-api --data-races --uninitialized), where any message fails the job, so each
// kernel is also checked for out-of-bounds accesses, races and uninitialised reads.
//
// Kernels covered (file: kernel functions, and the calls that run them):
//   array.cl   anycl_fill_strided (full, fill, fill of a view), anycl_copy_strided (copy and
//              assign of views, transposes), anycl_iota (arange)
//   reduce.cl  anycl_{sum,min,max,dot,any,all}_partial, contiguous and strided
//              (ANYCL_STRIDED); anycl_count_partial (count_if, ANYCL_ONLY_COUNT);
//              anycl_{sum,min,max}_{axis,axis_final} (in kernels_axis_test.cpp)
//   scan.cl    anycl_scan_reduce, anycl_scan_apply: inclusive and exclusive, built-in and custom
//              operators, views
//   sort.cl    anycl_sort_count_all, anycl_sort_count, anycl_sort_scatter: sort both orders,
//              sort_by_key, argsort
//   random.cl  anycl_random_{bits32,bits64,uniform_f32,uniform_f64,normal_f32,normal_f64}
//   sparse.cl  anycl_spmv_csr, anycl_spmv_scale
//   demo.cl    anycl_saxpy, anycl_sum_partial, anycl_transform_vertices, anycl_kmeans_assign
//              (anycl-demo's kernels)
// Complex arrays (storage for BLAS and FFT) go through array.cl's fill and copy.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/elementwise.hpp"
#include "anycl/random.hpp"
#include "anycl/reduce.hpp"
#include "anycl/scan.hpp"
#include "anycl/sort.hpp"
#include "anycl/sparse.hpp"
#include "reliability/kernels_support.hpp"
#include "support/device_fixture.hpp"

using anycl::array;
using namespace anycl::test::kernels;

// --- array.cl ---

TEMPLATE_TEST_CASE("kernels: array.cl fill, copy and iota equal the host", "[kernels]", float,
                   double, std::int32_t, std::uint32_t, std::int64_t, std::uint8_t) {
  using T = TestType;
  anycl::test::env e;
  if (!supported<T>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<T> h = values<T>(n);
    CHECK(array<T>::full(e.queue, n, T(5)).to_host() == std::vector<T>(n, T(5)));
    // iota: start + i * step, wrapping in T for narrow integers.
    std::vector<T> iota(n);
    for (std::size_t i = 0; i < n; ++i) iota[i] = static_cast<T>(3 + 2 * i);
    CHECK(array<T>::arange(e.queue, n, T(3), T(2)).to_host() == iota);

    auto a = array<T>::from_host(e.queue, h);
    // Fill of a strided view: every second element.
    auto f = a.copy();
    f.slice(0, 0, n, 2).fill(T(9));
    std::vector<T> want = h;
    for (std::size_t i = 0; i < n; i += 2) want[i] = T(9);
    CHECK(f.to_host() == want);
    // Copies of views: strided, offset, 2-D transposed.
    CHECK(a.copy().to_host() == h);
    CHECK(a.slice(0, 1, n, 3).copy().to_host() == every(h, 1, 3));
    const anycl::shape s = shape_2d(n);
    CHECK(a.reshape(s).transpose().copy().to_host() == transposed(h, s));
    // Assign into a strided view of the destination.
    auto d = array<T>::zeros(e.queue, n);
    auto src = array<T>::arange(e.queue, (n + 1) / 2, T(1), T(1));
    d.slice(0, 0, n, 2).assign(src);
    std::vector<T> dw(n, T(0));
    for (std::size_t i = 0; i < n; i += 2) dw[i] = static_cast<T>(1 + i / 2);
    CHECK(d.to_host() == dw);
  }
}

TEMPLATE_TEST_CASE("kernels: complex arrays fill and copy through array.cl", "[kernels]",
                   std::complex<float>, std::complex<double>) {
  using C = TestType;
  using R = typename C::value_type;
  anycl::test::env e;
  if (!supported<C>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<C> h(n);
    for (std::size_t i = 0; i < n; ++i) h[i] = C(R(i % 11), -R(i % 7));
    auto a = array<C>::from_host(e.queue, h);
    CHECK(array<C>::full(e.queue, n, C(1, -2)).to_host() == std::vector<C>(n, C(1, -2)));
    CHECK(a.slice(0, 1, n, 2).copy().to_host() == every(h, 1, 2));
    auto f = a.copy();
    f.slice(0, 0, n, 3).fill(C(7, 8));
    std::vector<C> want = h;
    for (std::size_t i = 0; i < n; i += 3) want[i] = C(7, 8);
    CHECK(f.to_host() == want);
  }
}

// --- reduce.cl ---

TEMPLATE_TEST_CASE("kernels: reduce.cl reductions equal the host", "[kernels]", float, double,
                   std::int32_t, std::uint32_t, std::int64_t, std::uint8_t) {
  using T = TestType;
  using S = anycl::sum_type_t<T>;
  anycl::test::env e;
  if (!supported<T>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<T> h = values<T>(n), g = values<T>(n, 1);
    auto a = array<T>::from_host(e.queue, h);
    auto b = array<T>::from_host(e.queue, g);
    S sum = 0, dot = 0;
    std::uint64_t above = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sum = static_cast<S>(sum + static_cast<S>(h[i]));
      dot = static_cast<S>(dot + static_cast<S>(h[i]) * static_cast<S>(g[i]));
      above += h[i] > T(2);
    }
    CHECK(anycl::sum(a) == sum);
    CHECK(anycl::dot(a, b) == dot);
    CHECK(anycl::min(a) == *std::min_element(h.begin(), h.end()));
    CHECK(anycl::max(a) == *std::max_element(h.begin(), h.end()));
    CHECK(anycl::any(a) == std::any_of(h.begin(), h.end(), [](T x) { return x != T(0); }));
    CHECK(anycl::all(a) == std::all_of(h.begin(), h.end(), [](T x) { return x != T(0); }));
    CHECK(anycl::count_if(a, "x > 2") == above);
    // A strided view (ANYCL_STRIDED): every third element from 1.
    if (n > 1) {
      const std::vector<T> hs = every(h, 1, 3);
      S ss = 0;
      for (T x : hs) ss = static_cast<S>(ss + static_cast<S>(x));
      auto v = a.slice(0, 1, n, 3);
      CHECK(anycl::sum(v) == ss);
      CHECK(anycl::max(v) == *std::max_element(hs.begin(), hs.end()));
      CHECK(anycl::any(v) == std::any_of(hs.begin(), hs.end(), [](T x) { return x != T(0); }));
    }
  }
}

// --- scan.cl ---

TEMPLATE_TEST_CASE("kernels: scan.cl scans equal the host", "[kernels]", float, double,
                   std::int32_t, std::uint32_t, std::int64_t) {
  using T = TestType;
  anycl::test::env e;
  if (!supported<T>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<T> h = values<T>(n);
    auto a = array<T>::from_host(e.queue, h);
    auto out = array<T>::zeros(e.queue, n);
    std::vector<T> want(n);
    std::partial_sum(h.begin(), h.end(), want.begin());
    anycl::inclusive_scan(a, out);
    CHECK(out.to_host() == want);
    std::vector<T> ex(n);
    T run = T(4);
    for (std::size_t i = 0; i < n; ++i) {
      ex[i] = run;
      run = static_cast<T>(run + h[i]);
    }
    anycl::exclusive_scan(a, out, T(4));
    CHECK(out.to_host() == ex);
    anycl::inclusive_scan(a, out, anycl::scan_operator::max);
    std::vector<T> mx(n);
    for (std::size_t i = 0; i < n; ++i) mx[i] = i == 0 ? h[0] : std::max(mx[i - 1], h[i]);
    CHECK(out.to_host() == mx);
    // A custom operator in a generated kernel, over a strided view into a view.
    if (n > 1) {
      const std::vector<T> hs = every(h, 0, 2);
      auto dst = array<T>::zeros(e.queue, 2 * hs.size());
      anycl::inclusive_scan(a.slice(0, 0, n, 2), dst.slice(0, 1, dst.size(), 2),
                            anycl::scan_op("a + b", "0"));
      std::vector<T> ws(2 * hs.size(), T(0));
      T acc = T(0);
      for (std::size_t i = 0; i < hs.size(); ++i) ws[2 * i + 1] = acc = static_cast<T>(acc + hs[i]);
      CHECK(dst.to_host() == ws);
    }
  }
}

// --- sort.cl ---

TEMPLATE_TEST_CASE("kernels: sort.cl sorts equal a stable host sort", "[kernels]", std::uint32_t,
                   std::int32_t, float, std::int64_t, double) {
  using K = TestType;
  anycl::test::env e;
  if (!supported<K>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<K> h = values<K>(n);
    std::vector<std::uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return h[x] < h[y]; });
    std::vector<K> up(n);
    for (std::size_t i = 0; i < n; ++i) up[i] = h[idx[i]];

    auto keys = array<K>::from_host(e.queue, h);
    anycl::sort(keys);
    CHECK(keys.to_host() == up);
    keys = array<K>::from_host(e.queue, h);
    anycl::sort(keys, anycl::sort_order::descending);
    std::vector<K> down = up;
    std::reverse(down.begin(), down.end());
    CHECK(keys.to_host() == down);

    keys = array<K>::from_host(e.queue, h);
    auto vals = array<std::uint32_t>::arange(e.queue, n);
    anycl::sort_by_key(keys, vals);
    CHECK(keys.to_host() == up);
    CHECK(vals.to_host() == idx);
    CHECK(anycl::argsort(array<K>::from_host(e.queue, h)).to_host() == idx);
  }
}

// --- random.cl ---

namespace {
template <class T>
void check_random(anycl::test::env& e, std::size_t n) {
  anycl::random_generator gen(42);
  auto u = array<T>::zeros(e.queue, n);
  gen.uniform(u, T(-2), T(3));
  const std::vector<T> hu = u.to_host();
  CHECK(std::all_of(hu.begin(), hu.end(), [](T x) { return x >= T(-2) && x < T(3); }));
  // The same seed gives the same numbers; an offset of one 128-bit block skips 4 32-bit or 2
  // 64-bit numbers.
  const std::size_t skip = 16 / sizeof(T);
  auto again = array<T>::zeros(e.queue, n + skip);
  anycl::random_generator(42).uniform(again, T(-2), T(3));
  std::vector<T> ha = again.to_host();
  CHECK(std::vector<T>(ha.begin(), ha.begin() + static_cast<std::ptrdiff_t>(n)) == hu);
  auto skipped = array<T>::zeros(e.queue, n);
  anycl::random_generator(42, 1).uniform(skipped, T(-2), T(3));
  CHECK(skipped.to_host() ==
        std::vector<T>(ha.begin() + static_cast<std::ptrdiff_t>(skip), ha.end()));

  auto z = array<T>::zeros(e.queue, n);
  gen.normal(z, T(1), T(2));
  const std::vector<T> hz = z.to_host();
  CHECK(std::all_of(hz.begin(), hz.end(), [](T x) { return std::isfinite(x); }));
  if (n >= 1000) {
    double mean = 0;
    for (T x : hz) mean += static_cast<double>(x) / static_cast<double>(n);
    CHECK(std::fabs(mean - 1.0) < 0.3);  // 2 / sqrt(1000) = 0.063 standard errors
  }
}

template <class U>
void check_bits(anycl::test::env& e, std::size_t n) {
  const std::size_t skip = 2 * (16 / sizeof(U));  // two blocks
  auto a = array<U>::zeros(e.queue, n + skip);
  anycl::random_generator(7).bits(a);
  const std::vector<U> h = a.to_host();
  auto b = array<U>::zeros(e.queue, n);
  anycl::random_generator(7, 2).bits(b);
  CHECK(b.to_host() == std::vector<U>(h.begin() + static_cast<std::ptrdiff_t>(skip), h.end()));
  std::vector<U> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::unique(sorted.begin(), sorted.end()) == sorted.end());  // 64 or 32 random bits
}
}  // namespace

TEST_CASE("kernels: random.cl generators are deterministic, in range and skip by offset",
          "[kernels]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    check_random<float>(e, n);
    check_bits<std::uint32_t>(e, n);
    check_bits<std::uint64_t>(e, n);
    if (e.dev.fp64()) check_random<double>(e, n);
  }
}

// --- sparse.cl ---

TEMPLATE_TEST_CASE("kernels: sparse.cl spmv equals the host", "[kernels]", float, double) {
  using T = TestType;
  anycl::test::env e;
  if (!supported<T>(e)) return;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    // A band matrix with a few empty rows: entries (r, r), (r, r + 1), (r, r + 7).
    std::vector<std::uint32_t> rs, cs;
    std::vector<T> vs;
    for (std::uint32_t r = 0; r < n; ++r) {
      if (r % 5 == 4) continue;
      for (std::uint32_t d : {0u, 1u, 7u})
        if (r + d < n) {
          rs.push_back(r);
          cs.push_back(r + d);
          vs.push_back(static_cast<T>((r + 2 * d) % 9) - T(4));
        }
    }
    auto A = anycl::csr_matrix<T>::from_triplets(e.queue, n, n, rs, cs, vs);
    const std::vector<T> hx = values<T>(n), hy = values<T>(n, 2);
    std::vector<T> ax(n, T(0));
    for (std::size_t k = 0; k < vs.size(); ++k) ax[rs[k]] += vs[k] * hx[cs[k]];
    auto x = array<T>::from_host(e.queue, hx);
    auto y = array<T>::from_host(e.queue, hy);
    anycl::spmv(A, x, y);
    CHECK(y.to_host() == ax);
    y = array<T>::from_host(e.queue, hy);
    anycl::spmv(T(2), A, x, T(-1), y);
    std::vector<T> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = T(2) * ax[i] - hy[i];
    CHECK(y.to_host() == want);
  }
}

// --- demo.cl ---

TEST_CASE("kernels: demo.cl saxpy and partial sums equal the host", "[kernels]") {
  anycl::test::env e;
  anycl::kernel_loader loader(e.ctx);
  anycl::program prog = loader.load("anycl/demo.cl");
  auto saxpy =
      prog.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "anycl_saxpy");
  auto partial = prog.function<cl_uint, anycl::buffer_view<const float>, anycl::buffer_view<float>,
                               anycl::local_memory<float>>("anycl_sum_partial");
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> x = values<float>(n), y = values<float>(n, 3);
    anycl::buffer xb = anycl::buffer::from(e.ctx, x, anycl::memory_access::read_only);
    anycl::buffer yb = anycl::buffer::from(e.ctx, y);
    const auto nn = static_cast<cl_uint>(n);
    anycl::event s = saxpy(e.queue, anycl::nd_range{n}, nn, 2.5f, xb, yb);
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = 2.5f * x[i] + y[i];
    CHECK(e.queue.read(anycl::buffer_view<float>(yb), {s}) == want);

    const std::size_t local = 16, groups = 4;
    anycl::buffer parts(e.ctx, groups * sizeof(float));
    anycl::event p = partial(e.queue, anycl::nd_range{groups * local, local}, nn, xb, parts,
                             anycl::local_memory<float>(local));
    const std::vector<float> got = e.queue.read(anycl::buffer_view<float>(parts), {p});
    CHECK(std::accumulate(got.begin(), got.end(), 0.0f) ==
          std::accumulate(x.begin(), x.end(), 0.0f));
  }
}

TEST_CASE("kernels: demo.cl vertex transforms and k-means assignment equal the host", "[kernels]") {
  anycl::test::env e;
  anycl::kernel_loader loader(e.ctx);
  anycl::program prog = loader.load("anycl/demo.cl");
  auto transform =
      prog.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float4>,
                    anycl::buffer_view<const cl_float4>, anycl::buffer_view<cl_float4>>(
          "anycl_transform_vertices");
  auto assign_step = prog.function<cl_uint, cl_uint, anycl::buffer_view<const cl_float2>,
                                   anycl::buffer_view<const cl_float2>, anycl::buffer_view<cl_uint>,
                                   anycl::buffer_view<cl_float4>>("anycl_kmeans_assign");
  // Small integers throughout: every product and sum is exact, so results compare with ==.
  const std::vector<float> m = values<float>(3 * 16, 5);
  const std::vector<cl_float2> centres = {{{-10, -10}}, {{0, 0}}, {{10, 5}}, {{0, 0}}};
  const std::size_t k = centres.size();
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> c = values<float>(3 * n, 1);
    std::vector<cl_float4> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {{c[3 * i], c[3 * i + 1], c[3 * i + 2], 1.0f}};
    const std::size_t per = n / 3 + 1;  // vertex i takes matrix i / per of 3
    anycl::buffer mb = anycl::buffer::from(e.ctx, m, anycl::memory_access::read_only);
    anycl::buffer vb = anycl::buffer::from(e.ctx, v, anycl::memory_access::read_only);
    anycl::buffer ob(e.ctx, n * sizeof(cl_float4));
    anycl::event t = transform(e.queue, anycl::nd_range{n}, static_cast<cl_uint>(n),
                               static_cast<cl_uint>(per), mb, vb, ob);
    const std::vector<cl_float4> got = e.queue.read(anycl::buffer_view<cl_float4>(ob), {t});
    for (std::size_t i = 0; i < n; ++i)
      for (int r = 0; r < 4; ++r) {
        float want = 0;
        for (int j = 0; j < 4; ++j) want += m[(i / per) * 16 + std::size_t(j * 4 + r)] * v[i].s[j];
        CHECK(got[i].s[r] == want);
      }

    // Points from the same values; centre 3 repeats centre 1, so ties go to the first. Each point
    // starts on centre i % 2, so some change centre and some do not.
    std::vector<cl_float2> pts(n);
    std::vector<cl_uint> start(n);
    for (std::size_t i = 0; i < n; ++i) {
      pts[i] = {{c[3 * i], c[3 * i + 1]}};
      start[i] = static_cast<cl_uint>(i % 2);
    }
    for (std::size_t items : {std::size_t{1}, std::size_t{7}, std::size_t{64}}) {
      INFO("work-items = " << items);
      anycl::buffer pb = anycl::buffer::from(e.ctx, pts, anycl::memory_access::read_only);
      anycl::buffer cb = anycl::buffer::from(e.ctx, centres, anycl::memory_access::read_only);
      anycl::buffer ab = anycl::buffer::from(e.ctx, start);
      anycl::buffer parts(e.ctx, items * k * sizeof(cl_float4));
      anycl::event a = assign_step(e.queue, anycl::nd_range{items}, static_cast<cl_uint>(n),
                                   static_cast<cl_uint>(k), pb, cb, ab, parts);
      const std::vector<cl_float4> got_parts =
          e.queue.read(anycl::buffer_view<cl_float4>(parts), {a});
      const std::vector<cl_uint> got_assign = e.queue.read(anycl::buffer_view<cl_uint>(ab));
      std::vector<cl_float4> want_parts(items * k, cl_float4{{0, 0, 0, 0}});
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t best = 0;
        float best_d = INFINITY;
        for (std::size_t j = 0; j < k; ++j) {
          const float dx = pts[i].s[0] - centres[j].s[0], dy = pts[i].s[1] - centres[j].s[1];
          if (dx * dx + dy * dy < best_d) best_d = dx * dx + dy * dy, best = j;
        }
        CHECK(got_assign[i] == best);
        cl_float4& w = want_parts[(i % items) * k + best];
        w.s[0] += pts[i].s[0];
        w.s[1] += pts[i].s[1];
        w.s[2] += 1;
        w.s[3] += start[i] != best ? 1 : 0;
      }
      for (std::size_t j = 0; j < items * k; ++j)
        for (int q = 0; q < 4; ++q) CHECK(got_parts[j].s[q] == want_parts[j].s[q]);
    }
  }
}

// --- generated kernels: element-wise expressions and user element-wise kernels ---

TEST_CASE("kernels: generated element-wise expressions equal the host", "[kernels]") {
  anycl::test::env e;
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> hx = values<float>(n), hy = values<float>(n, 1);
    auto x = array<float>::from_host(e.queue, hx);
    auto y = array<float>::from_host(e.queue, hy);
    y = 2.0f * x + sin(y);
    const std::vector<float> got = y.to_host();
    for (std::size_t i = 0; i < n; ++i)
      CHECK(got[i] == Approx(2.0f * hx[i] + std::sin(hy[i])).margin(1e-5).epsilon(1e-5));

    const std::vector<std::int32_t> ha = values<std::int32_t>(n), hb = values<std::int32_t>(n, 2);
    auto a = array<std::int32_t>::from_host(e.queue, ha);
    auto b = array<std::int32_t>::from_host(e.queue, hb);
    array<std::int32_t> r = where(a > b, a, b) * 3 - a % 5;
    array<float> c = anycl::cast<float>(a) * 0.5f + abs(x);
    std::vector<std::int32_t> wr(n);
    std::vector<float> wc(n);
    for (std::size_t i = 0; i < n; ++i) {
      wr[i] = std::max(ha[i], hb[i]) * 3 - ha[i] % 5;
      wc[i] = static_cast<float>(ha[i]) * 0.5f + std::fabs(hx[i]);
    }
    CHECK(r.to_host() == wr);
    CHECK(c.to_host() == wc);

    // Strided operands and destination: a 2-D transpose, and every second element.
    const anycl::shape s = shape_2d(n);
    array<std::int32_t> t = a.reshape(s).transpose() + b.reshape(s).transpose();
    std::vector<std::int32_t> sum(n);
    for (std::size_t i = 0; i < n; ++i) sum[i] = ha[i] + hb[i];
    CHECK(t.to_host() == transposed(sum, s));
    auto u = array<std::uint8_t>::from_host(e.queue, values<std::uint8_t>(n));
    auto half = u.slice(0, 0, n, 2);
    half = half * std::uint8_t(9) + std::uint8_t(200);
    std::vector<std::uint8_t> wu = values<std::uint8_t>(n);
    for (std::size_t i = 0; i < n; i += 2) wu[i] = static_cast<std::uint8_t>(wu[i] * 9 + 200);
    CHECK(u.to_host() == wu);

    if (e.dev.fp64()) {
      const std::vector<double> hd = values<double>(n);
      auto d = array<double>::from_host(e.queue, hd);
      array<double> q = sqrt(abs(d)) + d * d;
      const std::vector<double> gq = q.to_host();
      for (std::size_t i = 0; i < n; ++i)
        CHECK(gq[i] == Approx(std::sqrt(std::fabs(hd[i])) + hd[i] * hd[i]).epsilon(1e-12));
    }
  }
}

TEST_CASE("kernels: user element-wise kernels equal the host", "[kernels]") {
  anycl::test::env e;
  anycl::elementwise_kernel axpy(e.ctx, "float a, global const float* x, global float* y",
                                 "y[i] = a * x[i] + y[i]", "axpy");
  anycl::elementwise_kernel sq(e.ctx, "global const int* x, global int* y, int add",
                               "y[i] = square(x[i]) + add", "sq",
                               "inline int square(int v) { return v * v; }");
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const std::vector<float> hx = values<float>(n), hy = values<float>(n, 1);
    auto x = array<float>::from_host(e.queue, hx);
    auto y = array<float>::from_host(e.queue, hy);
    axpy(e.queue, 2.0f, x, y);
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = 2.0f * hx[i] + hy[i];
    CHECK(y.to_host() == want);

    const std::vector<std::int32_t> ha = values<std::int32_t>(n);
    auto a = array<std::int32_t>::from_host(e.queue, ha);
    auto out = array<std::int32_t>::zeros(e.queue, n + 3);
    sq(e.queue, a, out.slice(3, n + 3), 1);
    std::vector<std::int32_t> wo(n + 3, 0);
    for (std::size_t i = 0; i < n; ++i) wo[i + 3] = ha[i] * ha[i] + 1;
    CHECK(out.to_host() == wo);
  }
}
