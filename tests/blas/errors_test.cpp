// SPDX-License-Identifier: Apache-2.0
// BLAS argument errors (shapes, leading dimensions, increments, undersized views, size_t
// overflow, contexts, array layouts) caught before CLBlast with messages naming the routine and
// the shapes; nothing printed to stderr on those paths; blas_error's names; CLBlast's program
// cache released with the last buffer of a context.
#include <unistd.h>

#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "anycl/blas.hpp"
#include "blas/blas_reference.hpp"
#include "support/device_fixture.hpp"
#include "support/eventually.hpp"

namespace blas = anycl::blas;
using blas::layout;
using blas::transpose;
using Catch::Matchers::Contains;

namespace {

blas::matrix_view<float> mat(const anycl::buffer& b, std::size_t r, std::size_t c,
                             std::size_t ld = 0, layout l = layout::row_major) {
  return blas::matrix_view<float>(anycl::buffer_view<float>(b), r, c, ld, l);
}

// Everything written to fd 2 while `fn` runs.
template <class F>
std::string captured_stderr(F fn) {
  char path[] = "/tmp/anycl-blas-stderr-XXXXXX";
  const int tmp = mkstemp(path);
  REQUIRE(tmp >= 0);
  std::fflush(stderr);
  const int saved = dup(2);
  dup2(tmp, 2);
  fn();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(tmp);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::remove(path);
  return s.str();
}

}  // namespace

TEST_CASE("blas: gemm shape, ld, extent and overflow errors name the routine and shapes",
          "[errors]") {
  anycl::test::env e;
  auto buf = anycl::buffer(e.ctx, 64 * sizeof(float));
  auto small = anycl::buffer(e.ctx, 4 * sizeof(float));
  const auto none = transpose::none;
  // op(A) 4x3, op(B) 4x2: k disagrees.
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 4, 3), mat(buf, 4, 2), 0.0f, mat(buf, 4, 2)),
      std::invalid_argument,
      Contains("anycl::blas::gemm: op(A) is 4x3, op(B) 4x2 and C 4x2") &&
          Contains("A 4x3 row-major ld 3"));
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, 4, 3, 2), mat(buf, 3, 2), 0.0f,
                                 mat(buf, 4, 2)),
                      std::invalid_argument,
                      Contains("leading dimension of A (2) is below its 3 columns (row-major)"));
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, 4, 3, 2, layout::col_major),
                                 mat(buf, 3, 2), 0.0f, mat(buf, 4, 2)),
                      std::invalid_argument,
                      Contains("leading dimension of A (2) is below its 4 rows"));
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 2, 2), mat(buf, 2, 2), 0.0f, mat(small, 2, 3)),
      std::invalid_argument, Contains("op(A) is 2x2, op(B) 2x2 and C 2x3"));
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 3, 3), mat(buf, 3, 3), 0.0f, mat(small, 3, 3)),
      std::out_of_range, Contains("C needs 9 elements from its first, its view has 4"));
  // An offset near the end of the buffer: the view is short.
  blas::matrix_view<float> late(anycl::buffer_view<float>(buf, 60, 4), 2, 3);
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, late, mat(buf, 3, 3), 0.0f, mat(buf, 2, 3)),
      std::out_of_range, Contains("A needs 6 elements from its first, its view has 4"));
  // CLBlast reports success for m = 2^62 (its size arithmetic overflows); AnyCL refuses.
  const std::size_t huge = std::size_t{1} << 62;
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, huge, 2), mat(buf, 2, 2), 0.0f,
                                 mat(buf, huge, 2)),
                      std::out_of_range, Contains("A needs 9223372036854775808 elements"));
  const std::size_t huger = std::size_t{1} << 63;
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, huger, 2), mat(buf, 2, 2),
                                 0.0f, mat(buf, huger, 2)),
                      std::out_of_range, Contains("A's extent overflows size_t"));
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, 2, 2, huge), mat(buf, 2, 2),
                                 0.0f, mat(buf, 2, 2)),
                      std::out_of_range, Contains("A needs"));
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 2, 0), mat(buf, 0, 2), 0.0f, mat(buf, 2, 2)),
      std::invalid_argument, Contains("k is 0"));
  // m = 0: nothing to do, an event all the same.
  CHECK(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 0, 2), mat(buf, 2, 2), 0.0f, mat(buf, 0, 2)));
  REQUIRE_THROWS_WHAT(blas::gemm(anycl::command_queue(), none, none, 1.0f, mat(buf, 2, 2),
                                 mat(buf, 2, 2), 0.0f, mat(buf, 2, 2)),
                      std::invalid_argument, Contains("anycl::blas::gemm: the queue is empty"));
  // A^H of the other layout has no CLBlast form.
  auto cbuf = anycl::buffer(e.ctx, 16 * sizeof(std::complex<float>));
  using cf = std::complex<float>;
  blas::matrix_view<cf> ca(anycl::buffer_view<cf>(cbuf), 2, 2, 0, layout::col_major);
  blas::matrix_view<cf> cb(anycl::buffer_view<cf>(cbuf), 2, 2);
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, transpose::conj_trans, none, cf(1), ca, cb, cf(0), cb),
                      std::invalid_argument, Contains("no conjugate without transpose"));
}

TEST_CASE("blas: vector, level 2 and level 3 argument errors", "[errors]") {
  anycl::test::env e;
  auto buf = anycl::buffer(e.ctx, 64 * sizeof(float));
  const anycl::buffer_view<float> all(buf);
  REQUIRE_THROWS_WHAT(
      blas::axpy(e.queue, 1.0f, blas::vector_view<float>(all, 5), blas::vector_view<float>(all, 6)),
      std::invalid_argument,
      Contains("anycl::blas::axpy: x has 5 elements, y 6") && Contains("x n 5"));
  REQUIRE_THROWS_WHAT(blas::scal(e.queue, 1.0f, blas::vector_view<float>(all, 5, 0)),
                      std::invalid_argument, Contains("increment of x is 0"));
  REQUIRE_THROWS_WHAT(blas::scal(e.queue, 1.0f, blas::vector_view<float>(all, 33, 2)),
                      std::out_of_range,
                      Contains("anycl::blas::scal: x needs 65 elements from its first, its view "
                               "has 64"));
  REQUIRE_THROWS_WHAT(blas::nrm2(e.queue, all, anycl::buffer_view<float>(buf, 64, 0)),
                      std::out_of_range, Contains("the result view is empty"));
  REQUIRE_THROWS_WHAT(
      blas::gemv(e.queue, transpose::trans, 1.0f, mat(buf, 4, 3), blas::vector_view<float>(all, 3),
                 0.0f, blas::vector_view<float>(all, 3)),
      std::invalid_argument,
      Contains("anycl::blas::gemv: op(A) is 3x4 but x has 3 and y 3 elements"));
  REQUIRE_THROWS_WHAT(blas::ger(e.queue, 1.0f, blas::vector_view<float>(all, 2),
                                blas::vector_view<float>(all, 3), mat(buf, 3, 2)),
                      std::invalid_argument, Contains("anycl::blas::ger: A is 3x2"));
  REQUIRE_THROWS_WHAT(blas::trsv(e.queue, blas::triangle::upper, transpose::none,
                                 blas::diagonal::unit, mat(buf, 3, 4), all),
                      std::invalid_argument, Contains("anycl::blas::trsv: A must be square"));
  REQUIRE_THROWS_WHAT(blas::symm(e.queue, blas::side::left, blas::triangle::upper, 1.0f,
                                 mat(buf, 3, 3), mat(buf, 2, 3), 0.0f, mat(buf, 2, 3)),
                      std::invalid_argument, Contains("and A m x m (side left)"));
  REQUIRE_THROWS_WHAT(blas::syrk(e.queue, blas::triangle::upper, transpose::none, 1.0f,
                                 mat(buf, 3, 2), 0.0f, mat(buf, 2, 2)),
                      std::invalid_argument, Contains("anycl::blas::syrk: op(A) is 3x2 and C 2x2"));
  REQUIRE_THROWS_WHAT(blas::trsm(e.queue, blas::side::right, blas::triangle::lower, transpose::none,
                                 blas::diagonal::unit, 1.0f, mat(buf, 3, 3), mat(buf, 3, 2)),
                      std::invalid_argument, Contains("need A n x n (side right)"));
  REQUIRE_THROWS_WHAT(
      blas::gemm_batched(e.queue, transpose::none, transpose::none, 1.0f, mat(buf, 2, 2), 4,
                         mat(buf, 2, 2), 4, 0.0f, mat(buf, 2, 2), 2, 3),
      std::invalid_argument, Contains("stride_c 2 makes the C matrices overlap"));
  REQUIRE_THROWS_WHAT(
      blas::gemm_batched(e.queue, transpose::none, transpose::none, 1.0f, mat(buf, 2, 2), 31,
                         mat(buf, 2, 2), 4, 0.0f, mat(buf, 2, 2), 4, 3),
      std::out_of_range, Contains("A needs 66 elements from its first, its view has 64"));
}

TEST_CASE("blas: buffers of another context and arrays of the wrong layout are refused",
          "[errors]") {
  anycl::test::env e, other{anycl::test::fresh_context};
  auto mine = anycl::buffer(e.ctx, 16 * sizeof(float));
  auto theirs = anycl::buffer(other.ctx, 16 * sizeof(float));
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, mat(mine, 2, 2),
                                 mat(theirs, 2, 2), 0.0f, mat(mine, 2, 2)),
                      std::invalid_argument,
                      Contains("anycl::blas::gemm: the buffers and the queue belong to different "
                               "contexts"));
  auto a = anycl::array<float>::zeros(e.queue, {4, 4});
  auto b = anycl::array<float>::zeros(other.queue, {4, 4});
  REQUIRE_THROWS_WHAT(blas::gemm(transpose::none, transpose::none, 1.0f, a, b, 0.0f, a),
                      std::invalid_argument,
                      Contains("anycl::blas::gemm: the arrays belong to different contexts"));
  REQUIRE_THROWS_WHAT(
      blas::gemm(transpose::none, transpose::none, 1.0f, a.slice(1, 0, 4, 2), a, 0.0f, a),
      std::invalid_argument,
      Contains("anycl::blas::gemm: A (4, 2) is strided in both axes") && Contains("copy() it"));
  auto v = anycl::array<float>::zeros(e.queue, 4);
  REQUIRE_THROWS_WHAT(
      blas::gemm(transpose::none, transpose::none, 1.0f, anycl::broadcast_to(v, {4, 4}), a, 0.0f,
                 a),
      std::invalid_argument,
      Contains("anycl::blas::gemm: A (4, 4) is a broadcast view (stride 0 along an axis)"));
  REQUIRE_THROWS_WHAT(
      blas::axpy(1.0f, v, anycl::broadcast_to(anycl::array<float>::zeros(e.queue, 1), {4})),
      std::invalid_argument, Contains("anycl::blas::axpy: y (4) is a broadcast view"));
  REQUIRE_THROWS_WHAT(blas::gemm(transpose::none, transpose::none, 1.0f, v, a, 0.0f, a),
                      std::invalid_argument, Contains("A must be a 2-D array, not (4)"));
  REQUIRE_THROWS_WHAT(blas::axpy(1.0f, a, v), std::invalid_argument,
                      Contains("anycl::blas::axpy: x must be a 1-D array, not (4, 4)"));
  REQUIRE_THROWS_WHAT(
      blas::gemm(transpose::none, transpose::none, 1.0f, anycl::array<float>(), a, 0.0f, a),
      std::invalid_argument, Contains("anycl::blas::gemm: A is empty (default-constructed)"));
}

TEST_CASE("blas: zero inner dimensions, symm's B layout and syrk's transpose are refused",
          "[errors]") {
  anycl::test::env e;
  auto buf = anycl::buffer(e.ctx, 64 * sizeof(float));
  const anycl::buffer_view<float> all(buf);
  REQUIRE_THROWS_WHAT(
      blas::gemv(e.queue, transpose::none, 1.0f, mat(buf, 3, 0), blas::vector_view<float>(all, 0),
                 0.0f, blas::vector_view<float>(all, 3)),
      std::invalid_argument,
      Contains("anycl::blas::gemv: op(A) has 0 columns") && Contains("A 3x0"));
  REQUIRE_THROWS_WHAT(blas::syrk(e.queue, blas::triangle::upper, transpose::none, 1.0f,
                                 mat(buf, 2, 0), 0.0f, mat(buf, 2, 2)),
                      std::invalid_argument, Contains("anycl::blas::syrk: k is 0"));
  REQUIRE_THROWS_WHAT(
      blas::symm(e.queue, blas::side::left, blas::triangle::upper, 1.0f, mat(buf, 2, 2),
                 mat(buf, 2, 3, 0, layout::col_major), 0.0f, mat(buf, 2, 3)),
      std::invalid_argument, Contains("anycl::blas::symm: B must have C's layout"));
  using cf = std::complex<float>;
  auto cbuf = anycl::buffer(e.ctx, 16 * sizeof(cf));
  const blas::matrix_view<cf> c2(anycl::buffer_view<cf>(cbuf), 2, 2);
  REQUIRE_THROWS_WHAT(
      blas::syrk(e.queue, blas::triangle::upper, transpose::conj_trans, cf(1), c2, cf(0), c2),
      std::invalid_argument, Contains("anycl::blas::syrk: syrk takes transpose none or trans"));
}

TEST_CASE("blas: blas_error carries the routine and CLBlast's status name", "[errors]") {
  const anycl::blas_error err("anycl::blas::gemm", -1016, "(A 3x4)");
  CHECK(err.routine() == "anycl::blas::gemm");
  CHECK(err.status() == -1016);
  CHECK(err.status_name() == "kInvalidLeadDimA");
  CHECK_THAT(err.what(),
             Contains("anycl::blas::gemm failed: kInvalidLeadDimA (-1016): (A 3x4). Hint:"));
  CHECK(blas::status_name(-2044) == "kNoDoublePrecision");
  CHECK(blas::status_name(12345) == "unknown CLBlast status");
  const anycl::error& base = err;
  CHECK_THAT(base.what(), Contains("leading dimension"));
}

TEST_CASE("blas: bad arguments print nothing to stderr", "[errors]") {
  anycl::test::env e;
  auto buf = anycl::buffer(e.ctx, 16 * sizeof(float));
  auto small = anycl::buffer(e.ctx, 2 * sizeof(float));
  // One good call first, so CLBlast is initialised and compiled.
  blas::scal(e.queue, 2.0f, anycl::buffer_view<float>(buf)).wait();
  const std::string out = captured_stderr([&] {
    int thrown = 0;
    auto attempt = [&](auto fn) {
      try {
        fn();
      } catch (const std::exception&) {
        ++thrown;
      }
    };
    attempt([&] { blas::scal(anycl::command_queue(), 2.0f, anycl::buffer_view<float>(buf)); });
    attempt([&] {
      blas::scal(e.queue, 2.0f, blas::vector_view<float>(anycl::buffer_view<float>(small), 5));
    });
    attempt([&] {
      blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, mat(buf, 4, 4, 2), mat(buf, 4, 4),
                 0.0f, mat(buf, 4, 4));
    });
    attempt([&] {
      blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, mat(buf, 2, 2), mat(buf, 2, 2),
                 0.0f, mat(small, 2, 2));
    });
    attempt([&] {
      blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, mat(buf, std::size_t{1} << 62, 2),
                 mat(buf, 2, 2), 0.0f, mat(buf, std::size_t{1} << 62, 2));
    });
    CHECK(thrown == 5);
  });
  CHECK(out.empty());
}

TEST_CASE("blas: CLBlast's programs and the context are released with the last BLAS buffer",
          "[errors]") {
  anycl::test::blas_ref::host_libraries_as clblast(anycl::host_libraries::off);
  cl_context raw = nullptr;
  cl_uint with_programs = 0, without_programs = 0;
  {
    anycl::test::env e{anycl::test::fresh_context};
    raw = e.ctx.get();
    REQUIRE(clRetainContext(raw) == CL_SUCCESS);
    auto a = anycl::buffer::from(e.ctx, std::vector<float>(16, 1.0f));
    auto c = anycl::buffer(e.ctx, 16 * sizeof(float));
    auto count = [&] {
      cl_uint n = 0;
      REQUIRE(clGetContextInfo(raw, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, nullptr) ==
              CL_SUCCESS);
      return n;
    };
    without_programs = count();
    blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, mat(a, 4, 4), mat(a, 4, 4), 0.0f,
               mat(c, 4, 4))
        .wait();
    with_programs = count();
    CHECK(e.queue.read(anycl::buffer_view<float>(c)) == std::vector<float>(16, 4.0f));
  }
  // Our own reference is the only one left: CLBlast's cached programs released theirs. POCL
  // drops a finished command's references on its worker thread, so give it up to 2 s (a cold,
  // loaded run saw 2 references just after the scope).
  cl_uint left = 0;
  anycl::test::eventually(
      [&] {
        REQUIRE(clGetContextInfo(raw, CL_CONTEXT_REFERENCE_COUNT, sizeof left, &left, nullptr) ==
                CL_SUCCESS);
        return left == 1;
      },
      200, std::chrono::milliseconds(10));
  INFO("references: " << without_programs << " before gemm, " << with_programs << " after");
  CHECK(with_programs > without_programs);
  CHECK(left == 1);
  clReleaseContext(raw);
}
