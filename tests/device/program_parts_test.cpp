// SPDX-License-Identifier: Apache-2.0
// Programs in parts: compile with embedded headers, link compiled programs and libraries, and
// run what was linked against host values. Bad inputs are catalogue row B-72
// (tests/reliability/catalogue_test.cpp).
#include <string>
#include <vector>

#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

// A function in one part, using a header; a kernel in another part calling it.
const char* const twice_src = "#include \"scale.h\"\nfloat twice(float x) { return SCALE * x; }\n";
const char* const kernel_src =
    "float twice(float x);\n"
    "kernel void apply(global float* y) { size_t i = get_global_id(0); y[i] = twice(y[i]) + 1; }\n";

anycl::program compiled(const anycl::context& ctx, const char* src, const char* name,
                        const std::vector<anycl::embedded_header>& headers = {}) {
  anycl::program p(ctx, src, name);
  p.compile({}, headers);
  return p;
}

// Runs `apply` of `prog` over 0, 1, ..., n-1 and checks y = scale * i + 1.
void check_apply(const anycl::test::env& e, const anycl::program& prog, float scale) {
  const std::size_t n = 257;
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  auto buf = anycl::buffer::from(e.ctx, host);
  auto apply = prog.function<anycl::buffer_view<float>>("apply");
  apply(e.queue, anycl::nd_range{n}, buf).wait();
  const std::vector<float> got = e.queue.read(anycl::buffer_view<float>(buf));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(got[i] == scale * static_cast<float>(i) + 1.0f);
}

}  // namespace

TEST_CASE("program parts: compiled parts with an embedded header link into working kernels",
          "[program_parts]") {
  anycl::test::env e;
  anycl::program a = compiled(e.ctx, twice_src, "twice.cl", {{"scale.h", "#define SCALE 2.0f\n"}});
  anycl::program b = compiled(e.ctx, kernel_src, "apply.cl");
  anycl::program linked =
      anycl::program::link(e.ctx, {a, b}, {}, anycl::link_target::executable, "twice+apply");
  CHECK(linked.name() == "twice+apply");
  CHECK(linked.kernel_names() == std::vector<std::string>{"apply"});
  check_apply(e, linked, 2.0f);

  SECTION("the header's text decides, and compile options reach the compiler") {
    anycl::program a3(e.ctx, twice_src, "twice.cl");
    a3.compile(anycl::build_options{}.define("EXTRA", "3"),
               {{"scale.h", "#define SCALE (1.0f + EXTRA)\n"}});
    CHECK_THAT(a3.options(), Contains("-DEXTRA=3"));
    check_apply(e, anycl::program::link(e.ctx, {a3, b}), 4.0f);
  }
  SECTION("a library links again, and its binary rebuilds as any executable") {
    anycl::program lib = anycl::program::link(e.ctx, {a}, {}, anycl::link_target::library, "lib");
    CHECK_THAT(lib.options(), Contains("-create-library"));
    anycl::program again = anycl::program::link(e.ctx, {lib, b});
    check_apply(e, again, 2.0f);
    // What the disk cache keeps of a linked program: its binaries, built again.
    anycl::program reloaded =
        anycl::program::from_binaries(e.ctx, again.devices(), again.binaries(), "reloaded");
    reloaded.build();
    check_apply(e, reloaded, 2.0f);
  }
}

TEST_CASE("program parts: failed compiles and links carry the call, the status and the logs",
          "[program_parts]") {
  anycl::test::env e;
  anycl::program bad(e.ctx, "float f( { }", "bad.cl");
  try {
    bad.compile();
    FAIL("a broken source compiled");
  } catch (const anycl::build_error& err) {
    CHECK(err.call() == "clCompileProgram");
    CHECK(err.status() == CL_COMPILE_PROGRAM_FAILURE);
    CHECK(err.source_name() == "bad.cl");
    REQUIRE(err.logs().size() == 1);
    CHECK_THAT(err.logs()[0].log, Contains("error"));
    CHECK_THAT(err.what(), Contains("clCompileProgram failed: CL_COMPILE_PROGRAM_FAILURE"));
  }
  // A missing header is the compiler's error, with its name in the log.
  anycl::program no_header(e.ctx, twice_src, "twice.cl");
  REQUIRE_THROWS_WHAT(no_header.compile(), anycl::build_error, Contains("scale.h"));
  // The kernel's part alone leaves twice() undefined: the linker fails.
  anycl::program b = compiled(e.ctx, kernel_src, "apply.cl");
  try {
    anycl::program::link(e.ctx, {b}, {}, anycl::link_target::executable, "alone");
    FAIL("a link with an undefined function succeeded");
  } catch (const anycl::build_error& err) {
    CHECK(err.call() == "clLinkProgram");
    CHECK(err.status() == CL_LINK_PROGRAM_FAILURE);
    CHECK_THAT(err.what(), Contains("for 'alone'") && Contains("undefined or defined twice"));
  }
  // The parts are still good afterwards.
  anycl::program a = compiled(e.ctx, twice_src, "twice.cl", {{"scale.h", "#define SCALE 5.0f"}});
  check_apply(e, anycl::program::link(e.ctx, {b, a}), 5.0f);
}
