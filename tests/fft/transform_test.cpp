// SPDX-License-Identifier: Apache-2.0
// anycl::fft::plan against an O(n^2) host DFT in double: 1-D/2-D/3-D, complex and real, forward
// and inverse, in and out of place, batched with distances, strided, float and double, offsets,
// arrays, round trips and the Hermitian symmetry of real-input spectra.
#include <complex>
#include <cstdint>
#include <vector>

#include "anycl/fft.hpp"
#include "support/device_fixture.hpp"
#include "support/fft_reference.hpp"

using anycl::fft::direction;
using anycl::fft::plan_desc;
using anycl::test::cd;
using anycl::test::check_plan;

namespace {

bool has_double(const anycl::test::env& e) { return e.dev.fp64(); }

}  // namespace

TEST_CASE("fft: 1-D complex transforms of lengths 1, 2, 15, 21 and 64, both directions",
          "[transform]") {
  anycl::test::env e;
  for (std::size_t n : {1, 2, 15, 21, 64}) {
    INFO("n = " << n);
    check_plan<float>(e, plan_desc::c2c({n}, direction::forward), 100 + n);
    check_plan<float>(e, plan_desc::c2c({n}, direction::inverse), 200 + n);
  }
}

TEST_CASE("fft: double precision 1-D and 2-D complex transforms", "[transform]") {
  anycl::test::env e;
  if (!has_double(e)) {
    WARN("no fp64 on this device: double not tested");
    return;
  }
  check_plan<double>(e, plan_desc::c2c({15}, direction::forward), 1);
  check_plan<double>(e, plan_desc::c2c({6, 10}, direction::inverse), 2);
  check_plan<double>(e, plan_desc::r2c({12}), 3);
}

TEST_CASE("fft: 2-D 6x10 and 3-D 3x5x7 complex transforms", "[transform]") {
  anycl::test::env e;
  check_plan<float>(e, plan_desc::c2c({6, 10}, direction::forward), 11);
  check_plan<float>(e, plan_desc::c2c({3, 5, 7}, direction::inverse), 12);
}

TEST_CASE("fft: batched transforms with distances larger than a transform", "[transform]") {
  anycl::test::env e;
  plan_desc d = plan_desc::c2c({15});
  d.batch = 3;
  d.in_distance = 17;   // 2 unused elements between input transforms
  d.out_distance = 20;  // 5 between output transforms: they must keep their sentinel
  check_plan<float>(e, d, 21);
  plan_desc d2 = plan_desc::c2c({6, 10}, direction::inverse);
  d2.batch = 2;  // dense batches of a 2-D transform
  check_plan<float>(e, d2, 22);
}

TEST_CASE("fft: strided input and output", "[transform]") {
  anycl::test::env e;
  plan_desc d = plan_desc::c2c({4, 6});
  d.in_strides = {14, 2};  // every other element, rows 14 apart
  d.out_strides = {1, 4};  // transposed output
  d.out_distance = 24;
  d.in_distance = 56;
  check_plan<float>(e, d, 31);
}

TEST_CASE("fft: real-to-complex and complex-to-real, odd and even, 1-D and 2-D", "[transform]") {
  anycl::test::env e;
  for (std::size_t n : {15, 64}) {
    INFO("n = " << n);
    check_plan<float>(e, plan_desc::r2c({n}), 40 + n);
    check_plan<float>(e, plan_desc::c2r({n}), 50 + n);
  }
  check_plan<float>(e, plan_desc::r2c({6, 10}), 61);
  check_plan<float>(e, plan_desc::c2r({6, 10}), 62);
  plan_desc batched = plan_desc::r2c({12});
  batched.batch = 4;
  check_plan<float>(e, batched, 63);
}

TEST_CASE("fft: the spectrum of real input is Hermitian", "[transform]") {
  anycl::test::env e;
  // 2-D 6x10: X[k0, 0] = conj(X[-k0, 0]) and X[k0, 5] = conj(X[-k0, 5]) (the columns the half
  // spectrum holds with their mirror images), and X[0, 0] is real.
  const std::vector<cd> x = check_plan<float>(e, plan_desc::r2c({6, 10}), 71);
  const std::size_t half = 6;
  for (std::size_t k0 = 0; k0 < 6; ++k0)
    for (std::size_t k1 : {std::size_t{0}, std::size_t{5}}) {
      const cd a = x[k0 * half + k1], b = x[((6 - k0) % 6) * half + k1];
      INFO("k0 " << k0 << " k1 " << k1);
      CHECK(std::abs(a - std::conj(b)) < 1e-4 * (1 + std::abs(a)));
    }
  CHECK(std::abs(x[0].imag()) < 1e-4);
}

TEST_CASE("fft: in-place complex and real transforms", "[transform]") {
  anycl::test::env e;
  plan_desc c = plan_desc::c2c({21}, direction::inverse);
  c.in_place = true;
  c.batch = 2;
  check_plan<float>(e, c, 81);
  plan_desc r = plan_desc::r2c({6, 10});
  r.in_place = true;  // real rows padded to 12
  check_plan<float>(e, r, 82);
  plan_desc b = plan_desc::c2r({15});
  b.in_place = true;
  b.batch = 3;
  check_plan<float>(e, b, 83);
}

TEST_CASE("fft: a scale replaces clFFT's default 1/N", "[transform]") {
  anycl::test::env e;
  plan_desc d = plan_desc::c2c({15}, direction::inverse);
  d.scale = 1.0;  // unnormalised inverse
  check_plan<float>(e, d, 91);
  plan_desc f = plan_desc::c2c({15});
  f.scale = 0.5;
  check_plan<float>(e, f, 92);
}

TEST_CASE("fft: forward then inverse gives the input back", "[transform]") {
  anycl::test::env e;
  const std::uint32_t seed = 101;
  INFO("seed " << seed);
  const std::vector<cd> x = anycl::test::random_values(6 * 10 * 2, false, seed);
  std::vector<std::complex<float>> xf(x.begin(), x.end());
  plan_desc fd = plan_desc::c2c({6, 10});
  fd.batch = 2;
  plan_desc id = fd;
  id.dir = direction::inverse;
  anycl::fft::plan fwd(e.queue, fd), inv(e.queue, id);
  anycl::buffer a = anycl::buffer::from(e.ctx, xf);
  anycl::buffer b(e.ctx, a.size());
  anycl::buffer_view<std::complex<float>> va(a), vb(b);
  anycl::event f = fwd.execute(e.queue, va, vb);
  inv.execute(e.queue, vb, va, {f}).wait();
  const std::vector<std::complex<float>> back = e.queue.read(va);
  for (std::size_t i = 0; i < xf.size(); ++i) CHECK(std::abs(back[i] - xf[i]) < 1e-5);
}

TEST_CASE("fft: views at an aligned offset use a sub-buffer", "[transform]") {
  anycl::test::env e;
  const std::size_t n = 64, pad = 256;  // 2048 bytes: a multiple of any base address alignment
  const std::vector<cd> x = anycl::test::random_values(n, false, 111);
  std::vector<std::complex<float>> host(pad + n, std::complex<float>(7, 7));
  for (std::size_t i = 0; i < n; ++i) host[pad + i] = std::complex<float>(x[i]);
  anycl::buffer in = anycl::buffer::from(e.ctx, host);
  anycl::buffer out(e.ctx, in.size());
  anycl::fft::plan p(e.queue, plan_desc::c2c({n}));
  p.execute(e.queue, anycl::buffer_view<std::complex<float>>(in, pad, n),
            anycl::buffer_view<std::complex<float>>(out, pad, n))
      .wait();
  const std::vector<std::complex<float>> got =
      e.queue.read(anycl::buffer_view<std::complex<float>>(out, pad, n));
  const std::vector<cd> want = anycl::test::host_dft(x, {n}, -1);
  CHECK(anycl::test::relative_error(std::vector<cd>(got.begin(), got.end()), want) < 2e-5);
}

TEST_CASE("fft: in-place real-to-complex on an array<float>, recorded on the array",
          "[transform]") {
  anycl::test::env e;
  const std::size_t n = 16, padded = 2 * (n / 2 + 1);
  const std::vector<cd> x = anycl::test::random_values(n, true, 121);
  std::vector<float> host(padded, 0.0f);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(x[i].real());
  auto a = anycl::array<float>::from_host(e.queue, host);
  plan_desc d = plan_desc::r2c({n});
  d.in_place = true;
  anycl::fft::plan p(e.queue, d);
  anycl::event done = p.execute(a);
  CHECK(a.last_event().get() == done.get());
  const std::vector<float> got = a.to_host();  // waits for the recorded transform
  const std::vector<cd> want = anycl::test::host_dft(x, {n}, -1);
  for (std::size_t k = 0; k <= n / 2; ++k) {
    INFO("k " << k);
    CHECK(std::abs(cd(got[2 * k], got[2 * k + 1]) - want[k]) < 1e-4);
  }
}

TEST_CASE("fft: a plan can be moved and transforms after the move", "[transform]") {
  anycl::test::env e;
  anycl::fft::plan p(e.queue, plan_desc::c2c({8}));
  anycl::fft::plan q = std::move(p);
  CHECK_FALSE(p);  // NOLINT: the moved-from plan is empty
  REQUIRE(q);
  std::vector<std::complex<float>> ones(8, 1.0f);
  anycl::buffer in = anycl::buffer::from(e.ctx, ones);
  anycl::buffer out(e.ctx, in.size());
  q.execute(e.queue, anycl::buffer_view<std::complex<float>>(in),
            anycl::buffer_view<std::complex<float>>(out))
      .wait();
  const auto got = e.queue.read(anycl::buffer_view<std::complex<float>>(out));
  CHECK(std::abs(got[0] - std::complex<float>(8, 0)) < 1e-5);
  for (std::size_t k = 1; k < 8; ++k) CHECK(std::abs(got[k]) < 1e-5);
}

TEST_CASE("fft: complex and real arrays, after their last commands, recorded on both",
          "[transform]") {
  anycl::test::env e;
  const std::uint32_t seed = 131;
  INFO("seed " << seed);
  const std::vector<cd> x = anycl::test::random_values(6 * 10, false, seed);
  std::vector<std::complex<float>> xf(x.begin(), x.end());
  auto in = anycl::array<std::complex<float>>::from_host(e.queue, xf, anycl::shape{6, 10});
  auto out = anycl::array<std::complex<float>>::zeros(e.queue, anycl::shape{6, 10});
  anycl::fft::plan p(e.queue, plan_desc::c2c({6, 10}));
  anycl::event done = p.execute(in, out);
  CHECK(in.last_event().get() == done.get());
  CHECK(out.last_event().get() == done.get());
  const std::vector<std::complex<float>> got = out.to_host();
  const std::vector<cd> want = anycl::test::host_dft(x, {6, 10}, -1);
  CHECK(anycl::test::relative_error(std::vector<cd>(got.begin(), got.end()), want) < 2e-5);

  // Real input, half spectrum out; the input array's fill runs before the transform.
  const std::vector<cd> r = anycl::test::random_values(16, true, seed + 1);
  auto real_in = anycl::array<float>::zeros(e.queue, anycl::shape(16));
  std::vector<float> rf(16);
  for (std::size_t i = 0; i < 16; ++i) rf[i] = static_cast<float>(r[i].real());
  real_in.assign(anycl::array<float>::from_host(e.queue, rf));
  auto half = anycl::array<std::complex<float>>::zeros(e.queue, anycl::shape(9));
  anycl::fft::plan rp(e.queue, plan_desc::r2c({16}));
  rp.execute(real_in, half);
  const std::vector<std::complex<float>> spectrum = half.to_host();
  const std::vector<cd> full = anycl::test::host_dft(r, {16}, -1);
  for (std::size_t k = 0; k < 9; ++k) {
    INFO("k " << k);
    CHECK(std::abs(cd(spectrum[k]) - full[k]) < 1e-4);
  }
  // An array of the wrong element type is refused before clFFT.
  CHECK_THROWS_MATCHES(rp.execute(half, half), std::invalid_argument,
                       anycl::test::what(Catch::Matchers::Contains(
                           "holds float, got a view of std::complex<float>")));
}

TEST_CASE("fft: the README example", "[transform]") {
  anycl::test::env e;
  const anycl::command_queue& q = e.queue;
  anycl::fft::plan_desc d = anycl::fft::plan_desc::r2c({6, 10});  // real 6x10 -> complex 6x6
  d.batch = 4;
  anycl::fft::plan p(q, d);
  auto x = anycl::array<float>::zeros(q, anycl::shape{4, 6, 10});
  auto X = anycl::array<std::complex<float>>::zeros(q, anycl::shape{4, 6, 6});
  x.fill(1.0f);
  p.execute(x, X);
  // Read before the inverse: a complex-to-real transform may overwrite its input.
  const std::vector<std::complex<float>> spectrum = X.to_host();
  auto inv = anycl::fft::plan(q, anycl::fft::plan_desc::c2r({6, 10}));  // batch 1: X[0] back
  auto back = anycl::array<float>::zeros(q, anycl::shape{6, 10});
  inv.execute(X.slice(0, 1).reshape({6, 6}), back);
  for (std::size_t b = 0; b < 4; ++b) {
    CHECK(std::abs(spectrum[b * 36] - std::complex<float>(60, 0)) < 1e-4);  // the DC bin
    for (std::size_t k = 1; k < 36; ++k) CHECK(std::abs(spectrum[b * 36 + k]) < 1e-4);
  }
  for (float v : back.to_host()) CHECK(std::abs(v - 1.0f) < 1e-5);
}

TEST_CASE("fft: a plan that needs a temporary buffer owns one", "[transform]") {
  anycl::test::env e;
  // 143 = 11 * 13: clFFT runs it in two passes through a temporary buffer (1144 bytes).
  anycl::fft::plan p(e.queue, plan_desc::c2c({143}));
  CHECK(p.temp_bytes() >= 143 * sizeof(std::complex<float>));
  for (std::uint32_t run = 0; run < 2; ++run)
    check_plan<float>(e, plan_desc::c2c({143}), 141 + run);
}
