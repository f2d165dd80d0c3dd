// SPDX-License-Identifier: Apache-2.0
// BLAS level 1 against host loops: axpy, scal, copy, swap, dot/dotu/dotc, nrm2, asum, amax with
// increments and offsets, sizes 1 and odd, n = 0, and the array forms (strided slices).
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "anycl/blas.hpp"
#include "blas/blas_reference.hpp"
#include "support/device_fixture.hpp"

namespace blas = anycl::blas;
namespace ref = anycl::test::blas_ref;

namespace {

// n elements `inc` apart from element `off` of a host vector, in a device buffer.
template <class T>
struct strided {
  std::size_t n, inc, off;
  std::vector<T> host;
  anycl::buffer buf;
  strided(const anycl::context& ctx, std::size_t count, std::size_t step, std::size_t offset,
          std::uint32_t seed)
      : n(count), inc(step), off(offset) {
    host = ref::random<T>(off + (n == 0 ? 0 : (n - 1) * inc + 1) + 2, seed);
    buf = anycl::buffer::from(ctx, host);
  }
  blas::vector_view<T> view() const {
    return blas::vector_view<T>(anycl::buffer_view<T>(buf, off, host.size() - off), n, inc);
  }
  T& at(std::size_t i) { return host[off + i * inc]; }
  std::vector<T> read(const anycl::command_queue& q) const {
    return q.read(anycl::buffer_view<T>(buf));
  }
};

template <class T>
void check_level1(const anycl::test::env& e, std::size_t n, std::uint32_t seed) {
  INFO("n " << n << " seed " << seed);
  const double tol = ref::tolerance<T>();
  const T alpha = T(0.75f);
  strided<T> x(e.ctx, n, 2, 1, seed), y(e.ctx, n, 3, 2, seed + 1);
  auto result = anycl::buffer(e.ctx, 4 * sizeof(T));
  const anycl::buffer_view<T> r1(result, 1, 1);

  blas::axpy(e.queue, alpha, x.view(), y.view()).wait();
  for (std::size_t i = 0; i < n; ++i) y.at(i) += alpha * x.at(i);
  CHECK(ref::max_error(y.read(e.queue), y.host) < tol);

  blas::scal(e.queue, alpha, x.view()).wait();
  for (std::size_t i = 0; i < n; ++i) x.at(i) *= alpha;
  CHECK(ref::max_error(x.read(e.queue), x.host) < tol);

  // dot (or dotu and dotc), with the result at element 1 of a 4-element buffer.
  T dot_u = T(0), dot_c = T(0);
  for (std::size_t i = 0; i < n; ++i) {
    dot_u += x.at(i) * y.at(i);
    dot_c += ref::conj_if(x.at(i), true) * y.at(i);
  }
  if constexpr (blas::is_complex_v<T>) {
    blas::dotu(e.queue, x.view(), y.view(), r1).wait();
    CHECK(ref::max_error(e.queue.read(r1), {dot_u}) < tol);
    blas::dotc(e.queue, x.view(), y.view(), r1).wait();
    CHECK(ref::max_error(e.queue.read(r1), {dot_c}) < tol);
  } else {
    blas::dot(e.queue, x.view(), y.view(), r1).wait();
    CHECK(ref::max_error(e.queue.read(r1), {dot_u}) < tol);
  }

  double norm = 0, sum = 0, best = -1;
  cl_uint best_i = 0;
  for (std::size_t i = 0; i < n; ++i) {
    norm += std::norm(x.at(i));
    // asum adds |re| + |im|; CLBlast's amax compares |re| only (see blas.hpp).
    const double mag = std::abs(std::real(x.at(i)));
    sum += mag + std::abs(std::imag(x.at(i)));
    if (mag > best) best = mag, best_i = static_cast<cl_uint>(i);
  }
  blas::nrm2(e.queue, x.view(), r1).wait();
  CHECK(std::abs(std::real(e.queue.read(r1)[0]) - std::sqrt(norm)) < tol * (1 + std::sqrt(norm)));
  blas::asum(e.queue, x.view(), r1).wait();
  CHECK(std::abs(std::real(e.queue.read(r1)[0]) - sum) < tol * (1 + sum));
  auto index = anycl::buffer(e.ctx, 2 * sizeof(cl_uint));
  blas::amax(e.queue, x.view(), anycl::buffer_view<cl_uint>(index, 1, 1)).wait();
  if (n > 0) CHECK(e.queue.read(anycl::buffer_view<cl_uint>(index, 1, 1))[0] == best_i);

  blas::copy(e.queue, x.view(), y.view()).wait();
  for (std::size_t i = 0; i < n; ++i) y.at(i) = x.at(i);
  CHECK(y.read(e.queue) == y.host);

  strided<T> z(e.ctx, n, 1, 0, seed + 2);
  blas::swap(e.queue, x.view(), z.view()).wait();
  for (std::size_t i = 0; i < n; ++i) std::swap(x.at(i), z.at(i));
  CHECK(x.read(e.queue) == x.host);
  CHECK(z.read(e.queue) == z.host);
}

}  // namespace

TEMPLATE_TEST_CASE("blas: level 1 routines against host loops", "[level1]", float, double,
                   std::complex<float>, std::complex<double>) {
  anycl::test::env e;
  if (ref::skip_double<TestType>(e)) return;
  std::uint32_t seed = 5;
  for (std::size_t n : {std::size_t{1}, std::size_t{37}}) check_level1<TestType>(e, n, seed += 7);
}

TEST_CASE("blas: level 1 with no elements: reductions give 0, the rest does nothing", "[level1]") {
  anycl::test::env e;
  auto x = anycl::buffer::from(e.ctx, std::vector<float>{3.0f});
  auto r = anycl::buffer::from(e.ctx, std::vector<float>{7.0f});
  blas::vector_view<float> empty(anycl::buffer_view<float>(x), 0, 1);
  blas::nrm2(e.queue, empty, anycl::buffer_view<float>(r)).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(r))[0] == 0.0f);
  blas::scal(e.queue, 2.0f, empty).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(x))[0] == 3.0f);
}

TEST_CASE("blas: level 1 on arrays, strided slices included", "[level1]") {
  anycl::test::env e;
  const std::uint32_t seed = 9;
  INFO("seed " << seed);
  auto hx = ref::random<float>(20, seed), hy = ref::random<float>(10, seed + 1);
  auto x = anycl::array<float>::from_host(e.queue, hx);
  auto y = anycl::array<float>::from_host(e.queue, hy);
  auto xs = x.slice(0, 0, 20, 2);  // 10 elements, increment 2
  blas::axpy(2.0f, xs, y);
  for (std::size_t i = 0; i < 10; ++i) hy[i] += 2.0f * hx[2 * i];
  CHECK(ref::max_error(y.to_host(), hy) < 1e-5);
  float d = 0;
  for (std::size_t i = 0; i < 10; ++i) d += hx[2 * i] * hy[i];
  CHECK(std::abs(blas::dot(xs, y).to_host()[0] - d) < 1e-4);
  double nrm = 0;
  std::uint32_t best = 0;
  for (std::size_t i = 0; i < 10; ++i) {
    nrm += double(hy[i]) * hy[i];
    if (std::abs(hy[i]) > std::abs(hy[best])) best = static_cast<std::uint32_t>(i);
  }
  CHECK(std::abs(blas::nrm2(y).to_host()[0] - std::sqrt(nrm)) < 1e-4);
  CHECK(blas::amax(y).to_host()[0] == best);
  blas::scal(0.5f, xs);
  blas::copy(xs, y);
  for (std::size_t i = 0; i < 10; ++i) hy[i] = 0.5f * hx[2 * i];
  CHECK(ref::max_error(y.to_host(), hy) < 1e-6);
  auto z = anycl::array<float>::zeros(e.queue, 10);
  blas::swap(y, z);
  CHECK(z.to_host() == hy);
  CHECK(y.to_host() == std::vector<float>(10, 0.0f));
}
