// SPDX-License-Identifier: Apache-2.0
// Programs and kernels: builds, logs, binaries, kernel lookup and argument info.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

TEST_CASE("program: builds from source and lists its kernels", "[program]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  auto names = prog.kernel_names();
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"add_one", "affine", "empty", "group_sum", "index_2d",
                                          "index_3d", "saxpy", "write_index"});
  CHECK(prog.name() == "tests/cl_kernels/basic.cl");
  CHECK(prog.context() == e.ctx);
  CHECK(prog.devices() == std::vector<anycl::device>{e.dev});
}

TEST_CASE("program: a failed build carries the log, options and file name", "[program][build]") {
  anycl::test::env e;
  anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/broken.cl"), "broken.cl");
  try {
    prog.build(anycl::build_options{}.define("T", "float"));
    FAIL("a source with an error built");
  } catch (const anycl::build_error& err) {
    CHECK(err.status() == CL_BUILD_PROGRAM_FAILURE);
    CHECK(err.source_name() == "broken.cl");
    CHECK_THAT(err.options(), Contains("-DT=float"));
    REQUIRE(err.logs().size() == 1);
    CHECK(err.logs()[0].device == e.dev.name());
    CHECK_THAT(err.logs()[0].log, Contains("undeclared_identifier"));
    CHECK_THAT(err.what(), Contains("clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)") &&
                               Contains("'broken.cl'") && Contains("--- build log, device '") &&
                               Contains("undeclared_identifier"));
  }
  // The failed program yields no kernels, with a clear message.
  REQUIRE_THROWS_WHAT(prog.kernel("broken"), anycl::api_error,
                      Contains("clCreateKernel") && Contains("not been built"));
}

TEST_CASE("program: invalid build options fail the build with the options named",
          "[program][build]") {
  anycl::test::env e;
  anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
  try {
    prog.build(anycl::build_options{}.cl_std("CL9.9"));
    FAIL("-cl-std=CL9.9 was accepted");
  } catch (const anycl::build_error& err) {
    // Drivers disagree: CL_INVALID_BUILD_OPTIONS (POCL) or CL_BUILD_PROGRAM_FAILURE (Oclgrind).
    CHECK((err.status() == CL_INVALID_BUILD_OPTIONS || err.status() == CL_BUILD_PROGRAM_FAILURE));
    CHECK_THAT(err.what(), Contains("-cl-std=CL9.9"));
  }
}

TEST_CASE("program: a source with a NUL byte is refused with its offset", "[program]") {
  anycl::test::env e;
  std::string src = "__kernel void a(void) {}\n";
  src += '\0';
  src += "__kernel void b(void) {}\n";
  REQUIRE_THROWS_WHAT(anycl::program(e.ctx, src, "nul.cl"), std::invalid_argument,
                      Contains("nul.cl") && Contains("NUL byte at offset 25"));
}

TEST_CASE("program: an empty source builds with no kernels", "[program]") {
  anycl::test::env e;
  anycl::program prog(e.ctx, "", "empty.cl");
  prog.build();
  CHECK(prog.kernel_names().empty());
  REQUIRE_THROWS_WHAT(prog.kernel("anything"), anycl::api_error,
                      Contains("no kernel 'anything' in program 'empty.cl'; kernels there: none"));
}

TEST_CASE("program: ANYCL_BUILD_OPTIONS is appended to every build", "[program][env]") {
  anycl::test::env e;
  setenv("ANYCL_BUILD_OPTIONS", "-DEXTRA=7", 1);
  anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
  prog.build(anycl::build_options{}.define("UNUSED"));
  unsetenv("ANYCL_BUILD_OPTIONS");
  CHECK(prog.options() == "-DUNUSED -DEXTRA=7");
  anycl::buffer out(e.ctx, 8 * sizeof(int));
  e.queue.launch(prog.kernel("affine"), anycl::nd_range{8}, out, 3);
  auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 8; ++i) CHECK(v[i] == 3 * i + 7);
}

TEST_CASE("program: binaries round-trip to a program that runs", "[program][binary]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  auto bins = prog.binaries();
  REQUIRE(bins.size() == 1);
  REQUIRE_FALSE(bins[0].empty());
  auto again = anycl::program::from_binaries(e.ctx, {e.dev}, bins, "basic.bin");
  again.build();
  anycl::buffer out(e.ctx, 16 * sizeof(int));
  e.queue.launch(again.kernel("affine"), anycl::nd_range{16}, out, -2);
  auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 16; ++i) CHECK(v[i] == -2 * i);
}

TEST_CASE("program: bad binaries are refused", "[program][binary]") {
  anycl::test::env e;
  REQUIRE_THROWS_WHAT(anycl::program::from_binaries(e.ctx, {e.dev}, {}, "x.bin"),
                      std::invalid_argument, Contains("0 binaries for 1 devices"));
  REQUIRE_THROWS_WHAT(anycl::program::from_binaries(e.ctx, {e.dev}, {{}}, "x.bin"),
                      std::invalid_argument, Contains("binary 0 is empty"));
  // Random bytes of a plausible length: the driver rejects them cleanly (the header is wrong).
  std::mt19937 rng(12345);
  std::vector<unsigned char> junk(4096);
  for (auto& b : junk) b = static_cast<unsigned char>(rng());
  INFO("random seed 12345");
  bool refused = false;
  try {
    auto p = anycl::program::from_binaries(e.ctx, {e.dev}, {junk}, "junk.bin");
    p.build();
  } catch (const anycl::api_error& err) {
    refused = true;
    CHECK_THAT(err.what(), Contains("junk.bin"));
  }
  CHECK(refused);
}

TEST_CASE("kernel: an unknown name lists the kernels that exist", "[kernel]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  REQUIRE_THROWS_WHAT(anycl::kernel(prog, "saxpyy"), anycl::api_error,
                      Contains("CL_INVALID_KERNEL_NAME") &&
                          Contains("no kernel 'saxpyy' in program 'tests/cl_kernels/basic.cl'") &&
                          Contains("saxpy") && Contains("add_one"));
  anycl::kernel k(prog, "saxpy");
  CHECK(k.name() == "saxpy");
  CHECK(k.num_args() == 4);
  CHECK(k.program_name() == "tests/cl_kernels/basic.cl");
  CHECK(k.context() == e.ctx);
  auto copy = anycl::kernel::retain(k.get());
  CHECK(copy.name() == "saxpy");
}

TEST_CASE("kernel: argument info with -cl-kernel-arg-info", "[kernel]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl",
                                 anycl::build_options{}.flag("-cl-kernel-arg-info"));
  anycl::kernel k(prog, "saxpy");
  auto a0 = k.arg_info(0);
  REQUIRE(a0);
  CHECK(a0->name == "n");
  CHECK(a0->type_name == "uint");
  CHECK(a0->space == anycl::address_space::private_);
  auto a3 = k.arg_info(3);
  REQUIRE(a3);
  CHECK(a3->name == "y");
  CHECK(a3->type_name == "float*");
  CHECK(a3->space == anycl::address_space::global);
  CHECK(a3->access == anycl::access_qualifier::none);
  auto g = anycl::kernel(prog, "group_sum").arg_info(2);
  REQUIRE(g);
  CHECK(g->space == anycl::address_space::local);
  REQUIRE_THROWS_WHAT(k.arg_info(4), std::out_of_range, Contains("argument 4"));
}

TEST_CASE("kernel: work-group info is consistent with the device", "[kernel]") {
  anycl::test::env e;
  auto prog = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl");
  auto w = anycl::kernel(prog, "group_sum").work_group(e.dev);
  CHECK(w.work_group_size > 0);
  CHECK(w.work_group_size <= e.dev.max_work_group_size());
  CHECK(w.preferred_multiple > 0);
  auto big = anycl::test::build(e.ctx, "tests/cl_kernels/big_local.cl",
                                anycl::build_options{}.define("WORDS", "64"));
  CHECK(anycl::kernel(big, "big_local").work_group(e.dev).local_memory >= 64 * sizeof(int));
}

TEST_CASE("kernel: empty kernels and programs give clear errors", "[kernel]") {
  anycl::kernel k;
  CHECK_FALSE(k);
  CHECK(k.name().empty());
  REQUIRE_THROWS_WHAT(k.arg_info(0), std::invalid_argument, Contains("kernel is empty"));
  REQUIRE_THROWS_WHAT(anycl::kernel(anycl::program(), "x"), std::invalid_argument,
                      Contains("program is empty"));
}

namespace {
/// Runs `fn` with stderr redirected to a temporary file and returns what was written there.
template <class Fn>
std::string capture_stderr(Fn fn) {
  std::fflush(stderr);
  FILE* tmp = std::tmpfile();
  REQUIRE(tmp != nullptr);
  const int saved = dup(fileno(stderr));
  dup2(fileno(tmp), fileno(stderr));
  fn();
  std::fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  std::rewind(tmp);
  std::string out;
  for (int c; (c = std::fgetc(tmp)) != EOF;) out += static_cast<char>(c);
  std::fclose(tmp);
  return out;
}
}  // namespace

TEST_CASE("program: ANYCL_COMPILER_OUTPUT=1 prints a successful build's log", "[program][env]") {
  anycl::test::env e;
  const std::string src =
      "#warning \"anycl-test-warning\"\n__kernel void w(__global int* a) { a[0] = 1; }\n";
  std::string quiet = capture_stderr([&] { anycl::program(e.ctx, src, "warn.cl").build(); });
  CHECK_THAT(quiet, !Contains("anycl-test-warning"));
  setenv("ANYCL_COMPILER_OUTPUT", "1", 1);
  anycl::program prog(e.ctx, src, "warn.cl");
  std::string loud = capture_stderr([&] { prog.build(); });
  unsetenv("ANYCL_COMPILER_OUTPUT");
  CHECK_THAT(loud, Contains("build log of 'warn.cl'") && Contains("anycl-test-warning"));
  CHECK_THAT(prog.build_log(e.dev), Contains("anycl-test-warning"));
}
