// SPDX-License-Identifier: Apache-2.0
// anycl::fft's refusals: every bad description or buffer is an exception naming the problem and
// the plan, thrown before any clFFT call (the call counter proves it: clFFT itself checks no
// buffer size and corrupts the heap on an undersized one); clFFT's own failures are fft_error.
#include <complex>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "anycl/fft.hpp"
#include "fft/counters.hpp"
#include "support/device_fixture.hpp"

using anycl::fft::direction;
using anycl::fft::plan_desc;
using anycl::test::what;
using Catch::Matchers::Contains;
using cf = std::complex<float>;

namespace {

std::size_t clfft_calls() { return anycl::detail::fft_library_counters().calls; }

// Requires `expr` to throw `type` with every text in `parts`, and no clFFT call in between.
#define REQUIRE_REFUSED(expr, type, matcher)           \
  do {                                                 \
    const std::size_t calls_before = clfft_calls();    \
    REQUIRE_THROWS_MATCHES(expr, type, what(matcher)); \
    CHECK(clfft_calls() == calls_before);              \
  } while (false)

anycl::buffer complex_buffer(const anycl::test::env& e, std::size_t n) {
  return anycl::buffer(e.ctx, n * sizeof(cf));
}

}  // namespace

TEST_CASE("fft errors: an unsupported length names the nearest supported ones", "[errors]") {
  anycl::test::env e;
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, plan_desc::c2c({17})), std::invalid_argument,
                  Contains("length 17 (axis 0) is not supported by clFFT") &&
                      Contains("products of 2, 3, 5, 7, 11 and 13") &&
                      Contains("nearest supported lengths: 16 and 18") &&
                      Contains("complex_to_complex forward float plan, lengths (17)"));
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, plan_desc::r2c({6, 19})), std::invalid_argument,
                  Contains("length 19 (axis 1)") && Contains("18 and 20"));
  CHECK(anycl::fft::nearest_supported(17).below == 16);
  CHECK(anycl::fft::nearest_supported(17).above == 18);
  CHECK(anycl::fft::nearest_supported(34).above == 35);
  CHECK(anycl::fft::nearest_supported(1).below == 1);
  CHECK(anycl::fft::is_supported_length(2 * 3 * 5 * 7 * 11 * 13));
  CHECK_FALSE(anycl::fft::is_supported_length(0));
  CHECK_FALSE(anycl::fft::is_supported_length(23 * 2));
}

TEST_CASE("fft errors: bad descriptions are refused before clFFT is set up", "[errors]") {
  anycl::test::env e;
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, plan_desc::c2c({})), std::invalid_argument,
                  Contains("needs 1 to 3 lengths, got 0"));
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, plan_desc::c2c({2, 2, 2, 2})), std::invalid_argument,
                  Contains("needs 1 to 3 lengths, got 4"));
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, plan_desc::c2c({8, 0})), std::invalid_argument,
                  Contains("length of axis 1 is 0"));
  plan_desc d = plan_desc::c2c({8});
  d.batch = 0;
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument, Contains("batch is 0"));
  d = plan_desc::c2c({4, 8});
  d.in_strides = {1};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("input strides (1) has 1 entries for 2 axes"));
  d.in_strides = {8, 0};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("input stride of axis 1 is 0"));
  d = plan_desc::c2c({8});
  d.out_distance = std::numeric_limits<std::size_t>::max() / 2;
  d.batch = 3;
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("output extent overflows size_t"));
  d = plan_desc::c2c({8});
  d.scale = std::numeric_limits<double>::infinity();
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("is not a finite float"));
  d = plan_desc::c2c({8});
  d.in_place = true;
  d.out_strides = {2};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("in-place transform needs equal input and output layouts"));
  CHECK(anycl::detail::fft_library_counters().guards == 0);
}

TEST_CASE("fft errors: in-place real transforms need padded rows", "[errors]") {
  anycl::test::env e;
  plan_desc d = plan_desc::r2c({4, 8});
  d.in_place = true;
  d.in_strides = {8, 1};  // unpadded real rows: the 5 complex results of a row do not fit
  d.out_strides = {4, 1};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("in-place real transforms need the real rows padded to 2 * (8/2 + 1) "
                           "= 10 reals"));
  d.in_strides = {8, 1};
  d.out_strides = {5, 1};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("real strides twice the complex strides"));
  // Dense (padded) plan, but the buffer holds only the unpadded 32 reals.
  plan_desc ok = plan_desc::r2c({4, 8});
  ok.in_place = true;
  anycl::fft::plan p(e.queue, ok);
  CHECK(p.input_elements() == 38);  // the last real row needs no padding
  CHECK(p.output_elements() == 20);
  anycl::buffer small(e.ctx, 32 * sizeof(float));
  REQUIRE_REFUSED(p.execute(e.queue, anycl::buffer_view<float>(small)), std::out_of_range,
                  Contains("the data view holds 32 float") && Contains("needs 38") &&
                      Contains("rows padded to 2 * (n/2 + 1) reals"));
  // 38 reals hold the real side, not the 20 complex results.
  anycl::buffer almost(e.ctx, 38 * sizeof(float));
  REQUIRE_REFUSED(p.execute(e.queue, anycl::buffer_view<float>(almost)), std::out_of_range,
                  Contains("the data view holds 19 std::complex<float>") &&
                      Contains("the output side") && Contains("needs 20"));
}

TEST_CASE("fft errors: undersized input and output views", "[errors]") {
  anycl::test::env e;
  plan_desc d = plan_desc::c2c({64});
  d.batch = 3;
  d.in_distance = 70;
  anycl::fft::plan p(e.queue, d);
  CHECK(p.input_elements() == 2 * 70 + 64);
  CHECK(p.output_elements() == 3 * 64);
  anycl::buffer in = complex_buffer(e, 204), out = complex_buffer(e, 192);
  anycl::buffer_view<cf> vin(in), vout(out);
  REQUIRE_REFUSED(p.execute(e.queue, vin.subview(0, 203), vout), std::out_of_range,
                  Contains("the input view holds 203 std::complex<float>") &&
                      Contains("needs 204 (lengths (64), strides (1), distance 70)") &&
                      Contains("batch 3"));
  REQUIRE_REFUSED(p.execute(e.queue, vin, vout.subview(0, 191)), std::out_of_range,
                  Contains("the output view holds 191") && Contains("needs 192"));
  // Exactly large enough runs.
  p.execute(e.queue, vin, vout).wait();
}

TEST_CASE("fft errors: the wrong real/complex type or precision", "[errors]") {
  anycl::test::env e;
  anycl::fft::plan r2c(e.queue, plan_desc::r2c({16}));
  anycl::buffer b(e.ctx, 1024);
  REQUIRE_REFUSED(
      r2c.execute(e.queue, anycl::buffer_view<cf>(b), anycl::buffer_view<cf>(b, 64, 9)),
      std::invalid_argument,
      Contains("the input of a real_to_complex float plan, lengths (16), batch 1 holds float, "
               "got a view of std::complex<float>"));
  REQUIRE_REFUSED(r2c.execute(e.queue, anycl::buffer_view<double>(b), anycl::buffer_view<cf>(b)),
                  std::invalid_argument, Contains("holds float, got a view of double"));
  anycl::fft::plan c2r(e.queue, plan_desc::c2r({16}));
  REQUIRE_REFUSED(
      c2r.execute(e.queue, anycl::buffer_view<cf>(b, 0, 9), anycl::buffer_view<cf>(b, 64, 16)),
      std::invalid_argument,
      Contains("the output of a complex_to_real") &&
          Contains("holds float, got a view of std::complex<float>"));
}

TEST_CASE("fft errors: placement, overlap, alignment and empty plans", "[errors]") {
  anycl::test::env e;
  anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
  anycl::buffer b = complex_buffer(e, 1024);
  anycl::buffer_view<cf> v(b);
  REQUIRE_REFUSED(p.execute(e.queue, v), std::invalid_argument,
                  Contains("an out-of-place plan takes an input and an output buffer"));
  REQUIRE_REFUSED(p.execute(e.queue, v.subview(0, 16), v.subview(8, 16)), std::invalid_argument,
                  Contains("the input and output of an out-of-place plan overlap"));
  REQUIRE_REFUSED(p.execute(e.queue, v.subview(1, 16), v.subview(512, 16)), std::invalid_argument,
                  Contains("the input view starts at byte 8, not a multiple of") &&
                      Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  plan_desc ip = plan_desc::c2c({16});
  ip.in_place = true;
  anycl::fft::plan in_place(e.queue, ip);
  REQUIRE_REFUSED(in_place.execute(e.queue, v, v), std::invalid_argument,
                  Contains("an in-place plan takes one buffer"));
  anycl::fft::plan moved = std::move(p);
  REQUIRE_REFUSED(p.execute(e.queue, v.subview(0, 16), v.subview(512, 16)),  // NOLINT
                  std::invalid_argument, Contains("the plan is empty"));
}

TEST_CASE("fft errors: empty queues and views, in-place real strides and distances", "[errors]") {
  anycl::test::env e;
  REQUIRE_REFUSED(anycl::fft::plan(anycl::command_queue(), plan_desc::c2c({16})),
                  std::invalid_argument, Contains("anycl::fft::plan: the queue is empty"));
  anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
  anycl::buffer b = complex_buffer(e, 1024);
  anycl::buffer_view<cf> v(b);
  REQUIRE_REFUSED(p.execute(anycl::command_queue(), v.subview(0, 16), v.subview(512, 16)),
                  std::invalid_argument, Contains("anycl::fft::plan::execute: the queue is empty"));
  REQUIRE_REFUSED(p.execute(e.queue, anycl::buffer_view<cf>(), v.subview(512, 16)),
                  std::invalid_argument, Contains("the input view has no buffer"));

  plan_desc d = plan_desc::r2c({4, 8});
  d.in_place = true;
  d.in_strides = {20, 2};  // every other real: the complex results cannot share the memory
  d.out_strides = {5, 1};
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, d), std::invalid_argument,
                  Contains("need stride 1 along the last axis on both sides") &&
                      Contains("real strides (20, 2)"));
  plan_desc b2 = plan_desc::r2c({8});
  b2.in_place = true;
  b2.batch = 2;
  b2.in_distance = 10;
  b2.out_distance = 6;
  REQUIRE_REFUSED(anycl::fft::plan(e.queue, b2), std::invalid_argument,
                  Contains("need the real distance twice the complex distance") &&
                      Contains("real distance 10, complex distance 6"));
}

TEST_CASE("fft errors: a queue of another context or device", "[errors]") {
  anycl::test::env e;
  anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
  anycl::context other(e.dev);
  anycl::command_queue q(other, e.dev);
  anycl::buffer in(other, 16 * sizeof(cf)), out(other, 16 * sizeof(cf));
  REQUIRE_REFUSED(
      p.execute(q, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(out)), std::invalid_argument,
      Contains("the queue is in another context than the plan's") && Contains("lengths (16)"));
  auto a = anycl::array<float>::zeros(e.queue, anycl::shape(36));
  auto c = anycl::array<float>::zeros(q, anycl::shape(36));
  plan_desc rd = plan_desc::r2c({16});
  rd.in_place = true;
  anycl::fft::plan r(e.queue, rd);
  REQUIRE_REFUSED(r.execute(c), std::invalid_argument, Contains("another context"));
  REQUIRE_REFUSED(r.execute(a.reshape({2, 18}).slice(1, 0, 18, 2)), std::invalid_argument,
                  Contains("the data array is a strided view; copy() it"));
}

TEST_CASE("fft errors: a failed wait event fails that transform only", "[errors]") {
  anycl::test::env e;
  anycl::fft::plan p(e.queue, plan_desc::c2c({16}));
  std::vector<cf> ones(16, cf(1, 0));
  anycl::buffer in = anycl::buffer::from(e.ctx, ones), out = complex_buffer(e, 16);
  anycl::buffer_view<cf> vin(in), vout(out);
  anycl::user_event gate(e.ctx);
  anycl::event failed = p.execute(e.queue, vin, vout, {gate});
  gate.set_error(CL_OUT_OF_RESOURCES);
  CHECK_THROWS_AS(failed.wait(), anycl::api_error);
  // Later transforms, on the same queue or another, do not inherit the failure.
  anycl::command_queue q2(e.ctx, e.dev);
  for (const anycl::command_queue* q : {&e.queue, &q2}) {
    p.execute(*q, vin, vout).wait();
    const std::vector<cf> got = q->read(vout);
    CHECK(std::abs(got[0] - cf(16, 0)) < 1e-5);
    CHECK(std::abs(got[5]) < 1e-5);
  }
}

TEST_CASE("fft errors: fft_error names the call, the clFFT or OpenCL status and a hint",
          "[errors]") {
  // clFFT 2.12.2 on POCL accepts every plan AnyCL lets through (lengths up to 13^4, strided and
  // batched real layouts were tried), so its failures are checked through the type itself.
  const anycl::fft_error own("clfftBakePlan", 4097, "a plan");
  CHECK(own.call() == "clfftBakePlan");
  CHECK(own.status() == 4097);
  CHECK(own.status_name() == "CLFFT_NOTIMPLEMENTED (4097)");
  CHECK_THAT(own.what(), Contains("clfftBakePlan failed: CLFFT_NOTIMPLEMENTED (4097): a plan. "
                                  "Hint: clFFT 2.12 has no kernels"));
  const anycl::fft_error cl("clfftEnqueueTransform", -30, "");
  CHECK(cl.status_name() == "CL_INVALID_VALUE (-30)");
  CHECK(anycl::fft_error("clfftBakePlan", 4103, "").status_name() ==
        "CLFFT_DEVICE_NO_DOUBLE (4103)");
  CHECK_THAT(anycl::fft_error("clfftBakePlan", 4103, "").what(), Contains("precision::f32"));
  CHECK(anycl::fft_error("clfftDestroyPlan", 4102, "").status_name() ==
        "CLFFT_INVALID_PLAN (4102)");
  const anycl::error& base = own;  // catchable as anycl::error
  CHECK_THAT(base.what(), Contains("CLFFT_NOTIMPLEMENTED"));
}
