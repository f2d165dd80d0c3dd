// SPDX-License-Identifier: Apache-2.0
// kernel_loader::link: files compiled on their own and linked, through the disk cache (written
// after the first launch, hit by the next loader, missed after an edit of any part), with
// failures that name the part or the linker.
#include <filesystem>
#include <string>
#include <vector>

#include "support/files.hpp"

using anycl::test::search_only;
using anycl::test::write_file;
using Catch::Matchers::Contains;

namespace {

struct temp_dir : anycl::test::temp_folder {
  temp_dir() : temp_folder("loader-link") {}
};

std::size_t entries(const temp_dir& d) {
  std::size_t n = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(d.path()))
    n += f.path().extension() == ".bin" ? 1 : 0;
  return n;
}

// value.cl defines value() from a header; main.cl's kernel writes value() + 1.
void write_parts(const temp_dir& d, int value) {
  write_file(d / "lib/value.cl", "#include \"value.h\"\nint value(void) { return VALUE; }\n");
  write_file(d / "lib/value.h", "#define VALUE " + std::to_string(value) + "\n");
  write_file(d / "main.cl",
             "int value(void);\nkernel void main_value(global int* out) { out[0] = value() + 1; "
             "}\n");
}

}  // namespace

TEST_CASE("kernel_loader::link: parts compiled apart, linked, cached and rebuilt on an edit",
          "[loader][cache]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_parts(d, 40);
  anycl::reset_cache_stats();
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    anycl::program prog = loader.link({"lib/value.cl", "main.cl"});
    CHECK(prog.name() == "lib/value.cl+main.cl");
    CHECK(anycl::cache_stats().misses == 1);
    CHECK(anycl::test::run_value(e, prog, "main_value") == 41);
    anycl::wait_for_cache_writes();
    CHECK(anycl::cache_stats().writes == 1);
    CHECK(entries(cache) == 1);
    // The same loader hands out the same program; the parts in another order are another one.
    CHECK(loader.link({"lib/value.cl", "main.cl"}).get() == prog.get());
    CHECK(anycl::test::run_value(e, loader.link({"main.cl", "lib/value.cl"}), "main_value") == 41);
    CHECK(anycl::cache_stats().misses == 2);
  }
  anycl::kernel_loader second(e.ctx, search_only(d, &cache));
  CHECK(anycl::test::run_value(e, second.link({"lib/value.cl", "main.cl"}), "main_value") == 41);
  CHECK(anycl::cache_stats().hits == 1);
  // An edit of a part's header (same size) misses and makes its own entry.
  write_parts(d, 50);
  anycl::kernel_loader third(e.ctx, search_only(d, &cache));
  CHECK(anycl::test::run_value(e, third.link({"lib/value.cl", "main.cl"}), "main_value") == 51);
  CHECK(anycl::cache_stats().misses == 3);
  anycl::wait_for_cache_writes();
  CHECK(entries(cache) == 3);
  CHECK(anycl::cache_stats().rejects == 0);
}

TEST_CASE("kernel_loader::link: failures name the part, the linker or the missing file",
          "[loader]") {
  anycl::test::env e;
  temp_dir d;
  write_parts(d, 1);
  write_file(d / "broken.cl", "int value(void) { return }\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  try {
    loader.link({"broken.cl", "main.cl"});
    FAIL("a broken part compiled");
  } catch (const anycl::build_error& err) {
    CHECK(err.call() == "clCompileProgram");
    CHECK_THAT(err.source_name(), Contains("broken.cl"));
    REQUIRE(err.logs().size() == 1);
    CHECK_THAT(err.logs()[0].log, Contains("broken.cl:1"));  // the original file and line
  }
  REQUIRE_THROWS_WHAT(
      loader.link({"main.cl"}), anycl::build_error,
      Contains("clLinkProgram failed: CL_LINK_PROGRAM_FAILURE") && Contains("for 'main.cl'"));
  REQUIRE_THROWS_WHAT(loader.link({}), std::invalid_argument,
                      Contains("kernel_loader::link: no files to link"));
  REQUIRE_THROWS_AS(loader.link({"main.cl", "missing.cl"}), anycl::source_error);
  anycl::loader_options binary_only = search_only(d);
  binary_only.binary_only = true;
  REQUIRE_THROWS_WHAT(anycl::kernel_loader(e.ctx, binary_only).link({"lib/value.cl", "main.cl"}),
                      anycl::binary_not_found, Contains("link the parts offline"));
  // A fixed part links at the next call: failures are not kept.
  write_file(d / "broken.cl", "int value(void) { return 7; }\n");
  CHECK(anycl::test::run_value(e, loader.link({"broken.cl", "main.cl"}), "main_value") == 8);
}
