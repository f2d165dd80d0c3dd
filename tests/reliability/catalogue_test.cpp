// SPDX-License-Identifier: Apache-2.0
// The bad-input catalogue (README.md B-1..B-76): one test per row that AnyCL's API can reach,
// named after the row. Each asserts the exception type, the key words of what() (call, status
// name, context), and that the objects involved still work afterwards, checked against host
// values. Rows that need a process environment of their own carry hidden tags ([.env_*]) and run
// as separate CTest entries (tests/reliability/CMakeLists.txt).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "anycl/blas.hpp"
#include "anycl/fft.hpp"
#include "anycl/host_libraries.hpp"
#include "cache/key.hpp"
#include "fft/counters.hpp"
#include "process/child_process.hpp"
#include "support/device_fixture.hpp"
#include "support/files.hpp"
#include "support/quirks.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

using anycl::test::read_bytes;
using anycl::test::run_value;
using anycl::test::scoped_env;
using anycl::test::search_only;
using anycl::test::write_bytes;
using anycl::test::write_file;
/// A scratch folder named for these tests.
struct temp_dir : anycl::test::temp_folder {
  temp_dir() : temp_folder("catalogue") {}
};

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

std::vector<int> iota(std::size_t n, int start = 0) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

/// A test environment with tests/cl_kernels/basic.cl built on its context.
struct basic_env : anycl::test::env {
  anycl::program prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
};

/// Launches `add_one` (basic.cl) over n ints holding 0..n-1 on `q` and requires i + 1 back: the
/// queue, its context and the kernel still work.
void require_add_one_runs(const anycl::command_queue& q, const anycl::kernel& add_one,
                          std::size_t n = 64) {
  anycl::buffer b = anycl::buffer::from(q.context(), iota(n));
  q.launch(add_one, anycl::nd_range{n}, b);
  const std::vector<int> v = q.read(anycl::buffer_view<int>(b));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == static_cast<int>(i) + 1);
}

/// Launches `write_index` (basic.cl) over the whole int buffer and requires v[i] == i.
void require_write_index_runs(const anycl::command_queue& q, const anycl::kernel& k,
                              const anycl::buffer& buf) {
  const std::size_t n = buf.size() / sizeof(int);
  q.launch(k, anycl::nd_range{n}, buf);
  const std::vector<int> v = q.read(anycl::buffer_view<int>(buf));
  for (std::size_t i = 0; i < n; ++i) REQUIRE(v[i] == static_cast<int>(i));
}

/// Writes 0..n-1 to `buf` and requires the same back: the buffer and queue still work.
void require_round_trip(const anycl::command_queue& q, const anycl::buffer& buf) {
  anycl::buffer_view<int> v(buf);
  q.write(v, iota(v.size(), 5));
  REQUIRE(q.read(v) == iota(v.size(), 5));
}

/// Restores the default work-item cap when it ends.
struct work_item_cap {
  explicit work_item_cap(std::uint64_t limit) { anycl::set_max_work_items(limit); }
  ~work_item_cap() { anycl::set_max_work_items(0); }
  work_item_cap(const work_item_cap&) = delete;
  work_item_cap& operator=(const work_item_cap&) = delete;
};

const char* const value_kernel =
    "#include \"value.h\"\n"
    "kernel void value(global int* out) { out[0] = VALUE; }\n";

}  // namespace

// --- platforms and devices (B-1..B-8) ---

// B-1: run with OCL_ICD_VENDORS naming an empty or missing folder (reliability-B-01-*).
TEST_CASE("B-1 no OpenCL platform installed", "[.env_no_platform]") {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  REQUIRE(vendors != nullptr);
  REQUIRE(std::getenv("OCL_ICD_FILENAMES") == nullptr);
  // Twice: a failed first query leaves nothing half-initialised behind.
  for (int attempt = 0; attempt < 2; ++attempt)
    REQUIRE_THROWS_WHAT(anycl::platform::all(), anycl::no_platform_error,
                        Contains("clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001)") &&
                            Contains("pocl-opencl-icd") && Contains("anycl-info") &&
                            Contains(std::string("OCL_ICD_VENDORS=") + vendors) &&
                            Contains("(0 .icd files)"));
  try {
    anycl::select_device("cpu");
    FAIL("a device was selected without a platform");
  } catch (const anycl::no_platform_error& err) {
    CHECK(err.status() == -1001);
    CHECK(err.call() == "clGetPlatformIDs");
  }
  REQUIRE_THROWS_AS(anycl::select_device(), anycl::no_platform_error);
  REQUIRE_THROWS_AS(anycl::context::from_spec("0"), anycl::no_platform_error);
  REQUIRE_THROWS_AS(anycl::command_queue::from_spec("cpu"), anycl::no_platform_error);
  REQUIRE_THROWS_AS(anycl::describe_devices(), anycl::no_platform_error);
}

// B-2, B-3: a vendor folder whose .icd files name a missing library, libc, libm, nothing, or a
// bare newline (reliability-B-03-bad-icds).
TEST_CASE("B-2 B-3 .icd files naming a missing or non-OpenCL library", "[.env_bad_icds]") {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  REQUIRE(vendors != nullptr);
  const std::size_t icds = static_cast<std::size_t>(
      std::distance(fs::directory_iterator(vendors), fs::directory_iterator{}));
  REQUIRE(icds >= 4);
  REQUIRE_THROWS_WHAT(anycl::platform::all(), anycl::no_platform_error,
                      Contains("CL_PLATFORM_NOT_FOUND_KHR (-1001)") &&
                          Contains("(" + std::to_string(icds) + " .icd files)") &&
                          Contains("pocl-opencl-icd"));
  REQUIRE_THROWS_AS(anycl::select_device(), anycl::no_platform_error);
}

// B-2: the same bad .icd files next to the real ones (reliability-B-02-bad-icds-beside-good).
TEST_CASE("B-2 bad .icd files beside a good one are ignored", "[.env_bad_beside_good_icds]") {
  auto platforms = anycl::platform::all();
  REQUIRE_FALSE(platforms.empty());
  anycl::device dev = anycl::select_device("cpu");
  anycl::context ctx(dev);
  anycl::command_queue q(ctx, dev);
  auto prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
  require_add_one_runs(q, prog.kernel("add_one"));
}

// B-5: Oclgrind and POCL as two platforms (reliability-B-05-two-platforms).
TEST_CASE("B-5 several platforms are chosen by an explicit spec", "[.env_two_platforms]") {
  auto platforms = anycl::platform::all();
  REQUIRE(platforms.size() == 2);
  const std::string listing = anycl::describe_devices();
  CHECK_THAT(listing, Contains("platform 0:") && Contains("platform 1:") && Contains("Oclgrind") &&
                          Contains("Portable Computing Language"));
  anycl::device pocl = anycl::select_device("portable:0");
  anycl::device grind = anycl::select_device("oclgrind:0");
  CHECK_THAT(pocl.platform().name(), Contains("Portable Computing Language"));
  CHECK_THAT(grind.platform().name(), Contains("Oclgrind"));
  CHECK(pocl.platform() != grind.platform());
  // A spec naming neither lists both platforms, each device with the spec that selects it.
  REQUIRE_THROWS_WHAT(anycl::select_device("no-such-vendor:0"), anycl::device_not_found,
                      Contains("no OpenCL device matches spec 'no-such-vendor:0'") &&
                          Contains("Oclgrind") && Contains("Portable Computing Language") &&
                          Contains("0:0") && Contains("1:0"));
  // Both run kernels, each in its own context.
  for (const anycl::device& d : {pocl, grind}) {
    INFO("device " << d.name() << " on " << d.platform().name());
    anycl::context ctx(d);
    anycl::command_queue q(ctx, d);
    auto prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
    require_add_one_runs(q, prog.kernel("add_one"));
  }
  // Devices of two platforms never share a context.
  REQUIRE_THROWS_WHAT(anycl::context(std::vector<anycl::device>{pocl, grind}),
                      std::invalid_argument, Contains("platform"));
}

// B-65 runs in the same two-platform process: the drivers return different codes for the same
// mistakes, AnyCL's exception type (and, where AnyCL checks first, its code) is the same on both.
TEST_CASE("B-65 error codes that differ by driver give the same exception type",
          "[.env_two_platforms]") {
  for (const char* spec : {"portable:0", "oclgrind:0"}) {
    anycl::device d = anycl::select_device(spec);
    INFO("device " << d.name() << " on " << d.platform().name());
    anycl::context ctx(d);
    anycl::command_queue q(ctx, d);
    // Kernel of an unbuilt program: -45 on POCL, -46 on Oclgrind; the message says why.
    anycl::program unbuilt(ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
    REQUIRE_THROWS_WHAT(unbuilt.kernel("add_one"), anycl::api_error,
                        Contains("clCreateKernel failed") && Contains("not been built"));
    // An unknown -cl-std: -43 on POCL, -11 on Oclgrind; build_error either way.
    REQUIRE_THROWS_WHAT(unbuilt.build(anycl::build_options{}.cl_std("CL9.9")), anycl::build_error,
                        Contains("clBuildProgram failed") && Contains("-cl-std=CL9.9"));
    // Above CL_DEVICE_MAX_MEM_ALLOC_SIZE: Oclgrind would accept it (0); AnyCL checks first, so
    // the code is the same everywhere.
    try {
      anycl::buffer b(ctx, static_cast<std::size_t>(d.max_alloc()) + 1);
      FAIL("an allocation above CL_DEVICE_MAX_MEM_ALLOC_SIZE was accepted");
    } catch (const anycl::api_error& err) {
      CHECK(err.status() == CL_INVALID_BUFFER_SIZE);
    }
    // A read past the end: Oclgrind returns 0 for some of these; AnyCL refuses first.
    anycl::buffer small(ctx, 64 * sizeof(int));
    std::vector<int> host(65);
    REQUIRE_THROWS_AS(q.read_bytes(small, 0, 65 * sizeof(int), host.data()), std::out_of_range);
    // The same program object builds afterwards and runs.
    unbuilt.build();
    require_add_one_runs(q, unbuilt.kernel("add_one"));
  }
}

// B-74's device without SVM, in the two-platform process: Oclgrind is an OpenCL 1.2 device, which
// has no CL_DEVICE_SVM_CAPABILITIES query at all.
TEST_CASE("B-74 an SVM allocation on a device without SVM names its capabilities",
          "[.env_two_platforms]") {
  anycl::device d = anycl::select_device("oclgrind:0");
  CHECK(d.svm_capabilities().to_string() == "none");
  anycl::context ctx(d);
  REQUIRE_THROWS_WHAT(anycl::svm_buffer<int>(ctx, 16), std::invalid_argument,
                      Contains("svm_memory: device '" + d.name() +
                               "' has no coarse-grained buffer SVM (CL_DEVICE_SVM_CAPABILITIES: "
                               "none); use buffers"));
  anycl::device pocl = anycl::select_device("portable:0");
  CHECK(pocl.svm_capabilities().coarse_grain_buffer);
}

TEST_CASE("B-6 a requested device type that is absent lists the devices present", "[catalogue]") {
  basic_env e;
  std::string absent;
  for (const char* type : {"gpu", "accelerator", "custom"}) {
    bool found = true;
    try {
      anycl::select_device(type);
    } catch (const anycl::device_not_found&) {
      found = false;
    }
    if (!found) {
      absent = type;
      break;
    }
  }
  if (absent.empty()) {
    WARN("every device type is present on this machine; B-6 has nothing to ask for");
    return;
  }
  INFO("absent type " << absent);
  REQUIRE_THROWS_WHAT(anycl::select_device(absent), anycl::device_not_found,
                      Contains("no OpenCL device matches spec '" + absent + "'") &&
                          Contains(e.dev.name()) && Contains("0:0") &&
                          Contains("Select with ANYCL_DEVICE"));
  REQUIRE_THROWS_AS(anycl::context::from_spec(absent), anycl::device_not_found);
  {
    scoped_env env("ANYCL_DEVICE", absent.c_str());
    REQUIRE_THROWS_WHAT(anycl::select_device(), anycl::device_not_found,
                        Contains("no OpenCL device matches ANYCL_DEVICE '" + absent + "'"));
  }
  // A malformed spec is an argument error naming the position.
  REQUIRE_THROWS_WHAT(anycl::select_device("a:b:c"), std::invalid_argument,
                      Contains("malformed device spec 'a:b:c'"));
  // Selection still works, and so does the context made before.
  CHECK(anycl::select_device(std::string(anycl::to_string(e.dev.type()))) == e.dev);
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

// B-8: POCL_CACHE_DIR below a regular file (reliability-B-08-pocl-cache-unusable).
TEST_CASE("B-8 an uncreatable POCL cache folder names POCL_CACHE_DIR",
          "[.env_pocl_cache_unusable]") {
  const char* dir = std::getenv("POCL_CACHE_DIR");
  REQUIRE(dir != nullptr);
  REQUIRE_FALSE(fs::is_directory(fs::path(dir).parent_path()));
  auto platforms = anycl::platform::all();
  REQUIRE_FALSE(platforms.empty());
  bool pocl_without_devices = false;
  for (const auto& p : platforms)
    if (p.name().find("Portable Computing Language") != std::string::npos)
      pocl_without_devices = p.devices().empty();
  REQUIRE(pocl_without_devices);  // POCL hides its device rather than failing (row B-8)
  for (int attempt = 0; attempt < 2; ++attempt)
    REQUIRE_THROWS_WHAT(
        anycl::select_device(), anycl::device_not_found,
        Contains("(no devices)") && Contains("POCL_CACHE_DIR") && Contains("anycl-info"));
}

// --- programs and sources (B-9..B-21) ---

TEST_CASE("B-9 a kernel source with a syntax error gives build_error with log and file name",
          "[catalogue]") {
  basic_env e;
  SECTION("program built from source text") {
    anycl::program prog(e.ctx, "kernel void k(global int* a) {\n  a[0] = undeclared + ;\n}\n",
                        "syntax.cl");
    try {
      prog.build(anycl::build_options{}.define("T", "int"));
      FAIL("a syntax error built");
    } catch (const anycl::build_error& err) {
      CHECK(err.status() == CL_BUILD_PROGRAM_FAILURE);
      CHECK(err.call() == "clBuildProgram");
      CHECK(err.source_name() == "syntax.cl");
      CHECK(err.options() == "-DT=int");
      REQUIRE(err.logs().size() == 1);
      CHECK(err.logs()[0].device == e.dev.name());
      CHECK_THAT(err.what(), Contains("clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)") &&
                                 Contains("'syntax.cl'") && Contains("-DT=int") &&
                                 Contains("undeclared") && Contains("--- build log, device '"));
    }
  }
  SECTION("file through the kernel loader: the log names our file and line") {
    temp_dir d;
    write_file(d / "syntax.cl",
               "// 1\n// 2\nkernel void k(global int* a) { a[0] = undeclared + ; }\n");
    anycl::kernel_loader loader(e.ctx, search_only(d));
    REQUIRE_THROWS_WHAT(loader.load("syntax.cl"), anycl::build_error,
                        Contains(d / "syntax.cl" + ":3:") && Contains("undeclared"));
  }
  // The context builds and runs other programs.
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-10 an invalid build option fails the build and the program rebuilds", "[catalogue]") {
  basic_env e;
  anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
  anycl::build_options bad;
  std::string shown;
  SECTION("-cl-std=CL9.9") {
    bad.cl_std("CL9.9");
    shown = "-cl-std=CL9.9";
  }
  SECTION("an option no compiler knows") {
    bad.flag("-no-such-option-anycl");
    shown = "-no-such-option-anycl";
  }
  try {
    prog.build(bad);
    FAIL(shown << " was accepted");
  } catch (const anycl::build_error& err) {
    // CL_INVALID_BUILD_OPTIONS on POCL, CL_BUILD_PROGRAM_FAILURE on Oclgrind (B-65).
    CHECK((err.status() == CL_INVALID_BUILD_OPTIONS || err.status() == CL_BUILD_PROGRAM_FAILURE));
    CHECK_THAT(err.what(),
               Contains("clBuildProgram failed") && Contains(shown) && Contains("'basic.cl'"));
  }
  // The same program object builds with good options and runs.
  prog.build(anycl::build_options{}.define("EXTRA", "3"));
  anycl::buffer out(e.ctx, 8 * sizeof(int));
  e.queue.launch(prog.kernel("affine"), anycl::nd_range{8}, out, 2);
  const auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 8; ++i) CHECK(v[i] == 2 * i + 3);
}

TEST_CASE("B-11 the non-portable option -g is accepted where the driver takes it", "[catalogue]") {
  basic_env e;
  anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
  if (!anycl::test::quirks::is_pocl(e.dev)) {
    // Oclgrind rejects -g; whatever a driver does, it is a build_error, never a crash.
    try {
      prog.build(anycl::build_options{}.flag("-g"));
    } catch (const anycl::build_error& err) {
      CHECK_THAT(err.what(), Contains("-g"));
      return;
    }
  } else {
    prog.build(anycl::build_options{}.flag("-g"));
  }
  CHECK(prog.options() == "-g");
  require_add_one_runs(e.queue, prog.kernel("add_one"));
}

TEST_CASE("B-12 an empty source builds with no kernels; a kernel lookup names none",
          "[catalogue]") {
  basic_env e;
  SECTION("program from an empty string") {
    anycl::program prog(e.ctx, "", "empty.cl");
    prog.build();
    CHECK(prog.kernel_names().empty());
    REQUIRE_THROWS_WHAT(prog.kernel("anything"), anycl::api_error,
                        Contains("clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46)") &&
                            Contains("no kernel 'anything' in program 'empty.cl'; kernels there: "
                                     "none"));
    CHECK(prog.kernel_names().empty());  // the program is still queryable
  }
  SECTION("an empty file through the kernel loader") {
    temp_dir d;
    write_file(d / "empty.cl", "");
    anycl::kernel_loader loader(e.ctx, search_only(d));
    auto prog = loader.load("empty.cl");
    CHECK(prog.kernel_names().empty());
    REQUIRE_THROWS_WHAT(prog.kernel("k"), anycl::api_error, Contains("kernels there: none"));
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-13 a source with an embedded NUL is refused before the driver", "[catalogue]") {
  basic_env e;
  // The driver would silently compile only the part before the NUL (the second kernel vanishes).
  std::string src = "kernel void first(global int* a) { a[0] = 1; }\n";
  const std::size_t at = src.size();
  src += '\0';
  src += "kernel void second(global int* a) { a[0] = 2; }\n";
  SECTION("program from source text") {
    REQUIRE_THROWS_WHAT(anycl::program(e.ctx, src, "nul.cl"), std::invalid_argument,
                        Contains("nul.cl") && Contains("NUL byte at offset " + std::to_string(at)));
  }
  SECTION("a file through the kernel loader") {
    temp_dir d;
    write_file(d / "nul.cl", src);
    try {
      anycl::kernel_loader(e.ctx, search_only(d)).load("nul.cl");
      FAIL("a NUL byte was accepted");
    } catch (const anycl::source_error& err) {
      CHECK(err.path() == d / "nul.cl");
      CHECK(err.line() == 2);
      CHECK_THAT(err.what(), Contains("NUL byte at offset " + std::to_string(at)));
    }
  }
  SECTION("generated source through load_source") {
    temp_dir d;
    REQUIRE_THROWS_WHAT(
        anycl::kernel_loader(e.ctx, search_only(d)).load_source(src, "gen.cl"), anycl::source_error,
        Contains("'gen.cl'") && Contains("NUL byte at offset " + std::to_string(at)));
  }
  // Without the NUL both kernels are there and run.
  src.erase(at, 1);
  anycl::program whole(e.ctx, src, "whole.cl");
  whole.build();
  CHECK(run_value(e, whole, "first") == 1);
  CHECK(run_value(e, whole, "second") == 2);
}

TEST_CASE("B-14 a byte-order mark, CRLF line ends and an 8 MiB source are accepted",
          "[catalogue]") {
  basic_env e;
  const std::string body = "kernel void value(global int* out) { out[0] = 14; }\n";
  SECTION("UTF-8 byte-order mark, program from text") {
    anycl::program prog(e.ctx, "\xEF\xBB\xBF" + body, "bom.cl");
    prog.build();
    CHECK(run_value(e, prog, "value") == 14);
  }
  SECTION("UTF-8 byte-order mark, file through the loader") {
    temp_dir d;
    write_file(d / "bom.cl", "\xEF\xBB\xBF" + body);
    CHECK(run_value(e, anycl::kernel_loader(e.ctx, search_only(d)).load("bom.cl"), "value") == 14);
  }
  SECTION("CRLF line ends") {
    temp_dir d;
    write_file(
        d / "crlf.cl",
        "#define V \\\r\n  14\r\nkernel void value(global int* out)\r\n{\r\n  out[0] = V;\r\n"
        "}\r\n");
    CHECK(run_value(e, anycl::kernel_loader(e.ctx, search_only(d)).load("crlf.cl"), "value") == 14);
  }
  SECTION("8 MiB of source") {
    std::string big;
    big.reserve((8u << 20) + 200);
    const std::string line = "// padding padding padding padding padding padding padding pad\n";
    while (big.size() < (8u << 20)) big += line;
    big += body;
    anycl::program prog(e.ctx, big, "big.cl");
    prog.build();
    CHECK(run_value(e, prog, "value") == 14);
  }
}

TEST_CASE("B-15 a missing #include names the including file and line", "[catalogue]") {
  basic_env e;
  temp_dir d;
  const std::string src = "// one\n#include \"nope_b15.h\"\nkernel void k(global int* a) {}\n";
  SECTION("through the kernel loader: source_error before any build") {
    write_file(d / "main.cl", src);
    try {
      anycl::kernel_loader(e.ctx, search_only(d)).load("main.cl");
      FAIL("a missing include was accepted");
    } catch (const anycl::source_error& err) {
      CHECK(err.path() == d / "main.cl");
      CHECK(err.line() == 2);
      CHECK_THAT(err.what(),
                 Contains(d / "main.cl" + ":2: #include \"nope_b15.h\": file not found"));
    }
  }
  SECTION("program from source text: the compiler's build_error with its log") {
    anycl::program prog(e.ctx, src, "inc.cl");
    try {
      prog.build();
      FAIL("a missing include built");
    } catch (const anycl::build_error& err) {
      CHECK(err.status() == CL_BUILD_PROGRAM_FAILURE);
      REQUIRE(err.logs().size() == 1);
      CHECK_THAT(err.logs()[0].log, Contains("nope_b15.h") && Contains("not found"));
    }
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-16 an unguarded #include cycle ends with an error", "[catalogue]") {
  basic_env e;
  temp_dir d;
  write_file(d / "a.h", "// a\n#include \"b.h\"\n");
  write_file(d / "b.h", "#include \"a.h\"\n");
  const std::string src = "#include \"a.h\"\nkernel void k(global int* a) {}\n";
  SECTION("the loader's own include scanner stops at the cycle") {
    write_file(d / "main.cl", src);
    try {
      anycl::kernel_loader(e.ctx, search_only(d)).resolve("main.cl");
      FAIL("a cycle was accepted");
    } catch (const anycl::source_error& err) {
      CHECK(err.path() == d / "b.h");
      CHECK(err.line() == 1);
      CHECK_THAT(err.what(), Contains("include cycle") && Contains(d / "a.h" + ":2") &&
                                 Contains("#pragma once"));
    }
  }
  SECTION("the compiler, given -I, stops too") {
    anycl::program prog(e.ctx, src, "cycle.cl");
    try {
      prog.build(anycl::build_options{}.include_dir(d.str()));
      FAIL("a cycle built");
    } catch (const anycl::build_error& err) {
      REQUIRE(err.logs().size() == 1);
      CHECK_THAT(err.logs()[0].log, Contains("nested too deeply"));
      CHECK_THAT(err.what(), Contains("-I"));
    }
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-17 an #include of a host file that is not OpenCL C fails with a mapped log",
          "[catalogue]") {
  basic_env e;
  temp_dir d;
  // Build logs can show an included file's content: never forward them to untrusted parties.
  write_file(d / "hostname", "vm-host-17\n");
  write_file(d / "main.cl", "#include \"" + d / "hostname" + "\"\nkernel void k() {}\n");
  try {
    anycl::kernel_loader(e.ctx, search_only(d)).load("main.cl");
    FAIL("a host file built as OpenCL C");
  } catch (const anycl::build_error& err) {
    REQUIRE(err.logs().size() == 1);
    CHECK_THAT(err.logs()[0].log, Contains(d / "hostname" + ":1:"));
    CHECK(err.source_name() == d / "main.cl");
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-18 missing, directory, FIFO, oversized and unreadable .cl files are refused by name",
          "[catalogue]") {
  basic_env e;
  temp_dir d;
  anycl::kernel_loader loader(e.ctx, search_only(d));
  SECTION("missing") {
    REQUIRE_THROWS_WHAT(
        loader.load("missing.cl"), anycl::source_error,
        Contains("'missing.cl' not found") && Contains(d.str()) && Contains("ANYCL_KERNEL_PATH"));
  }
  SECTION("a directory") {
    fs::create_directories(d / "dir.cl");
    REQUIRE_THROWS_WHAT(loader.load("dir.cl"), anycl::source_error,
                        Contains(d / "dir.cl") && Contains("is a directory"));
  }
  SECTION("a FIFO nobody writes (a read would block)") {
    REQUIRE(::mkfifo((d / "fifo.cl").c_str(), 0600) == 0);
    REQUIRE_THROWS_WHAT(loader.load("fifo.cl"), anycl::source_error,
                        Contains(d / "fifo.cl") && Contains("not a regular file"));
  }
  SECTION("larger than the 16 MiB cap") {
    const int fd = ::open((d / "huge.cl").c_str(), O_CREAT | O_WRONLY, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, 17 << 20) == 0);  // sparse: no disk used
    ::close(fd);
    REQUIRE_THROWS_WHAT(loader.load("huge.cl"), anycl::source_error,
                        Contains(d / "huge.cl") && Contains("16 MiB limit"));
  }
  SECTION("cannot be opened (a path through a regular file, refused even to root)") {
    write_file(d / "plain", "x");
    REQUIRE_THROWS_WHAT(loader.load(d / "plain/x.cl"), anycl::source_error,
                        Contains(d / "plain/x.cl"));
  }
  // The loader still loads good files.
  write_file(d / "good.cl", "kernel void value(global int* out) { out[0] = 18; }\n");
  CHECK(run_value(e, loader.load("good.cl"), "value") == 18);
}

TEST_CASE("B-19 a header changed after caching is a cache miss", "[catalogue]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 111\n");
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    CHECK(run_value(e, loader.load("v.cl"), "value") == 111);
    anycl::wait_for_cache_writes();
  }
  write_file(d / "value.h", "#define VALUE 222\n");  // same size, same name
  anycl::reset_cache_stats();
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    CHECK(run_value(e, loader.load("v.cl"), "value") == 222);
    CHECK(anycl::cache_stats().misses == 1);
    CHECK(anycl::cache_stats().hits == 0);
    anycl::wait_for_cache_writes();
  }
  // Back to the first header: its entry is still there and is hit.
  write_file(d / "value.h", "#define VALUE 111\n");
  anycl::reset_cache_stats();
  anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
  CHECK(run_value(e, loader.load("v.cl"), "value") == 111);
  CHECK(anycl::cache_stats().hits == 1);
  anycl::wait_for_cache_writes();
}

TEST_CASE("B-20 a wrong kernel name lists the kernels that exist", "[catalogue]") {
  basic_env e;
  SECTION("anycl::kernel") {
    REQUIRE_THROWS_WHAT(anycl::kernel(e.prog, "nope"), anycl::api_error,
                        Contains("clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46)") &&
                            Contains("no kernel 'nope' in program 'tests/cl_kernels/basic.cl'") &&
                            Contains("add_one") && Contains("saxpy"));
  }
  SECTION("program::function") {
    REQUIRE_THROWS_WHAT((e.prog.function<anycl::buffer_view<int>>("add_onee")), anycl::api_error,
                        Contains("CL_INVALID_KERNEL_NAME") && Contains("'add_onee'"));
  }
  SECTION("kernel_loader::function") {
    temp_dir d;
    write_file(d / "k.cl", "kernel void value(global int* out) { out[0] = 20; }\n");
    anycl::kernel_loader loader(e.ctx, search_only(d));
    REQUIRE_THROWS_WHAT(loader.function<anycl::buffer_view<int>>("k.cl", "valeu"), anycl::api_error,
                        Contains("'valeu'") && Contains("kernels there: value"));
    CHECK(run_value(e, loader.load("k.cl"), "value") == 20);
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-21 a kernel of an unbuilt or failed program says it is not built", "[catalogue]") {
  basic_env e;
  SECTION("never built") {
    anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/basic.cl"), "basic.cl");
    REQUIRE_THROWS_WHAT(prog.kernel("add_one"), anycl::api_error,
                        Contains("clCreateKernel failed") &&
                            Contains("program 'basic.cl' has not been built successfully") &&
                            Contains("call build() first"));
    REQUIRE_THROWS_AS(prog.kernel_names(), anycl::api_error);
    prog.build();  // the same object builds afterwards
    require_add_one_runs(e.queue, prog.kernel("add_one"));
  }
  SECTION("a failed build") {
    anycl::program prog(e.ctx, anycl::test::read_source("tests/cl_kernels/broken.cl"), "broken.cl");
    REQUIRE_THROWS_AS(prog.build(), anycl::build_error);
    REQUIRE_THROWS_WHAT(prog.kernel("broken"), anycl::api_error,
                        Contains("clCreateKernel") && Contains("'broken.cl' has not been built"));
    require_add_one_runs(e.queue, e.prog.kernel("add_one"));
  }
}

// --- kernel arguments and launch geometry (B-22..B-31) ---

TEST_CASE("B-22 kernel argument index out of range or wrong scalar size", "[catalogue]") {
  basic_env e;
  anycl::kernel affine = e.prog.kernel("affine");  // (global int* out, const int value)
  anycl::buffer out(e.ctx, 16 * sizeof(int));
  SECTION("one argument too many (index 2 of 2)") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(affine, anycl::nd_range{16}, out, 1, 2), std::invalid_argument,
        Contains("launch of kernel 'affine'") && Contains("3 arguments given, it takes 2"));
  }
  SECTION("a typed function listing the wrong number of arguments") {
    REQUIRE_THROWS_WHAT(
        (e.prog.function<anycl::buffer_view<int>, int, int>("affine")), std::invalid_argument,
        Contains("kernel 'affine'") && Contains("takes 2 arguments") && Contains("lists 3"));
  }
  SECTION("8 bytes for an int") {
    REQUIRE_THROWS_WHAT(e.queue.launch(affine, anycl::nd_range{16}, out, 2.0), anycl::api_error,
                        Contains("clSetKernelArg failed: CL_INVALID_ARG_SIZE (-51)") &&
                            Contains("argument 1 (8 bytes) of kernel 'affine'"));
  }
  SECTION("1 byte for an int") {
    REQUIRE_THROWS_WHAT(e.queue.launch(affine, anycl::nd_range{16}, out, char{2}), anycl::api_error,
                        Contains("CL_INVALID_ARG_SIZE") && Contains("argument 1 (1 bytes)"));
  }
  // The same kernel object launches correctly afterwards.
  e.queue.launch(affine, anycl::nd_range{16}, out, 22);
  const auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 16; ++i) REQUIRE(v[i] == 22 * i);
}

// B-23: the type mistakes of equal size are compile errors of the typed API:
// tests/compile_fail/raw_pointer_arg.cpp (a host pointer for a cl_mem), unconvertible_arg.cpp (a
// buffer for a scalar) and nontrivial_arg.cpp, run as CTest compile-fail-* entries.
TEST_CASE("B-23 typed arguments convert to the declared type instead of passing raw bits",
          "[catalogue]") {
  basic_env e;
  // With kernel_function<..., int>, a float argument converts to int (2.9f -> 2): the kernel
  // never sees float bits as an int, which an untyped clSetKernelArg of 4 bytes would pass.
  auto affine = e.prog.function<anycl::buffer_view<int>, int>("affine");
  anycl::buffer out(e.ctx, 16 * sizeof(int));
  affine(e.queue, anycl::nd_range{16}, out, 2.9f);
  const auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 16; ++i) REQUIRE(v[i] == 2 * i);
  // The declared types, to check an untyped call against, with -cl-kernel-arg-info.
  auto info = anycl::test::build(e.ctx, "tests/cl_kernels/basic.cl",
                                 anycl::build_options{}.flag("-cl-kernel-arg-info"));
  auto arg = info.kernel("affine").arg_info(1);
  REQUIRE(arg);
  CHECK(arg->type_name == "int");
  CHECK(info.kernel("affine").arg_info(0)->space == anycl::address_space::global);
  REQUIRE_THROWS_WHAT(info.kernel("affine").arg_info(2), std::out_of_range,
                      Contains("argument 2 asked for, it has 2"));
}

TEST_CASE("B-24 a launch without every argument names what is missing", "[catalogue]") {
  basic_env e;
  anycl::kernel saxpy = e.prog.kernel("saxpy");
  anycl::buffer x(e.ctx, 8 * sizeof(float));
  SECTION("no arguments") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(saxpy, anycl::nd_range{8}), std::invalid_argument,
        Contains("launch of kernel 'saxpy'") && Contains("0 arguments given, it takes 4"));
  }
  SECTION("the last two missing") {
    REQUIRE_THROWS_WHAT(e.queue.launch(saxpy, anycl::nd_range{8}, cl_uint{8}, 1.0f),
                        std::invalid_argument, Contains("2 arguments given, it takes 4"));
  }
  // (A typed kernel_function call with too few arguments does not compile:
  // tests/compile_fail/missing_argument.cpp.)
  std::vector<float> hx{1, 2, 3, 4, 5, 6, 7, 8}, hy(8, 10.0f);
  e.queue.write(anycl::buffer_view<float>(x), hx);
  anycl::buffer y = anycl::buffer::from(e.ctx, hy);
  e.queue.launch(saxpy, anycl::nd_range{8}, cl_uint{8}, 2.0f, x, y);
  const auto v = e.queue.read(anycl::buffer_view<float>(y));
  for (int i = 0; i < 8; ++i) REQUIRE(v[i] == 2.0f * hx[i] + 10.0f);
}

TEST_CASE("B-25 a __local argument of size 0, or given a value", "[catalogue]") {
  basic_env e;
  auto group_sum = e.prog.kernel("group_sum");  // (global const int*, global int*, local int*)
  anycl::buffer in = anycl::buffer::from(e.ctx, iota(64)), out(e.ctx, 4 * sizeof(int));
  SECTION("size 0: refused before the driver") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(group_sum, anycl::nd_range{64, 16}, in, out, anycl::local_memory<int>(0)),
        std::invalid_argument,
        Contains("launch of kernel 'group_sum'") && Contains("__local argument 2 has size 0"));
  }
  SECTION("a buffer (a non-NULL value) for the __local argument") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(group_sum, anycl::nd_range{64, 16}, in, out, in), anycl::api_error,
        Contains("clSetKernelArg failed") && Contains("argument 2") && Contains("'group_sum'"));
  }
  // (local_memory<T> carries no value: a non-NULL value cannot be written with it.)
  e.queue.launch(group_sum, anycl::nd_range{64, 16}, in, out, anycl::local_memory<int>(16));
  const auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int g = 0; g < 4; ++g) REQUIRE(v[g] == 16 * 16 * g + 120);  // sum of 16g..16g+15
}

TEST_CASE("B-26 __local memory beyond the device's is refused before the driver", "[catalogue]") {
  anycl::test::env e;
  const cl_ulong local = e.dev.local_memory();
  REQUIRE(local >= 1024);
  // Static __local of half the device's memory plus a __local argument.
  const std::string words = std::to_string(local / sizeof(int) / 2);
  anycl::program prog(e.ctx,
                      "kernel void k(global int* out, local int* extra) {\n"
                      "  local int big[WORDS];\n"
                      "  const size_t l = get_local_id(0);\n"
                      "  big[l] = (int)get_global_id(0);\n"
                      "  extra[l] = 1;\n"
                      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  out[get_global_id(0)] = big[l] + extra[l];\n"
                      "}\n",
                      "local.cl");
  prog.build(anycl::build_options{}.define("WORDS", words));
  auto k = prog.function<anycl::buffer_view<int>, anycl::local_memory<int>>("k");
  anycl::buffer out(e.ctx, 64 * sizeof(int));
  SECTION("the argument alone exceeds the device") {
    const std::size_t too_many = static_cast<std::size_t>(local / sizeof(int)) + 1;
    REQUIRE_THROWS_WHAT(
        k(e.queue, anycl::nd_range{64, 16}, out, anycl::local_memory<int>(too_many)),
        std::invalid_argument,
        Contains("kernel 'k'") && Contains("__local memory") &&
            Contains("CL_DEVICE_LOCAL_MEM_SIZE"));
  }
  SECTION("the argument plus the kernel's static __local exceed it") {
    const std::size_t half = static_cast<std::size_t>(local / sizeof(int) / 2) + 16;
    REQUIRE_THROWS_WHAT(k(e.queue, anycl::nd_range{64, 16}, out, anycl::local_memory<int>(half)),
                        std::invalid_argument,
                        Contains("__local memory") && Contains("CL_DEVICE_LOCAL_MEM_SIZE"));
  }
  SECTION("a size that overflows 64 bits in bytes") {
    REQUIRE_THROWS_AS(
        k(e.queue, anycl::nd_range{64, 16}, out, anycl::local_memory<int>(size_max / 2)),
        std::invalid_argument);
  }
  // A small argument fits next to the static array and runs.
  k(e.queue, anycl::nd_range{64, 16}, out, anycl::local_memory<int>(16));
  const auto v = e.queue.read(anycl::buffer_view<int>(out));
  for (int i = 0; i < 64; ++i) REQUIRE(v[i] == i + 1);
}

TEST_CASE("B-27 a global size of 0 is a no-op that succeeds", "[catalogue]") {
  basic_env e;
  anycl::buffer buf = anycl::buffer::from(e.ctx, iota(16));
  auto add_one = e.prog.kernel("add_one");
  anycl::nd_range range{0};
  SECTION("1-D, 0") { range = anycl::nd_range{0}; }
  SECTION("2-D, 4 x 0") { range = anycl::nd_range{{4, 0}}; }
  SECTION("0 with a local size") { range = anycl::nd_range{0, 8}; }
  anycl::event ev = e.queue.launch(add_one, range, buf);
  ev.wait();
  CHECK(ev.status() == anycl::event_status::complete);
  CHECK(e.queue.read(anycl::buffer_view<int>(buf)) == iota(16));  // nothing ran
  require_add_one_runs(e.queue, add_one);
}

TEST_CASE("B-28 a global size not divisible by the local size says how to round up",
          "[catalogue]") {
  basic_env e;
  auto k = e.prog.kernel("write_index");
  anycl::buffer buf(e.ctx, 72 * sizeof(int));
  SECTION("65 / 8") {
    REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{65, 8}, buf), std::invalid_argument,
                        Contains("kernel 'write_index'") &&
                            Contains("global size 65 is not a multiple of local size 8") &&
                            Contains("round the global size up to 72"));
  }
  SECTION("2-D, dimension 1") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(e.prog.kernel("index_2d"), anycl::nd_range{{8, 9}, {8, 2}}, buf, cl_uint{8}),
        std::invalid_argument,
        Contains("global size 9 is not a multiple of local size 2 in dimension 1"));
  }
  e.queue.launch(k, anycl::nd_range{72, 8}, buf);
  const auto v = e.queue.read(anycl::buffer_view<int>(buf));
  for (int i = 0; i < 72; ++i) REQUIRE(v[i] == i);
}

TEST_CASE("B-29 a local size above the limits, or 0 or 4 dimensions, is refused", "[catalogue]") {
  basic_env e;
  auto k = e.prog.kernel("write_index");
  anycl::buffer buf(e.ctx, 1024 * sizeof(int));
  const auto items = e.dev.max_work_item_sizes();
  SECTION("above CL_DEVICE_MAX_WORK_ITEM_SIZES") {
    REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{items[0] * 2, items[0] * 2}, buf),
                        std::invalid_argument,
                        Contains("local size " + std::to_string(items[0] * 2)) &&
                            Contains("CL_DEVICE_MAX_WORK_ITEM_SIZES"));
  }
  SECTION("a work-group above the kernel's CL_KERNEL_WORK_GROUP_SIZE") {
    const std::size_t wg = e.prog.kernel("index_2d").work_group(e.dev).work_group_size;
    const std::size_t l0 = std::min(items[0], wg), l1 = wg / l0 + 1;
    REQUIRE(l1 <= items[1]);
    REQUIRE_THROWS_WHAT(e.queue.launch(e.prog.kernel("index_2d"),
                                       anycl::nd_range{{l0, l1}, {l0, l1}}, buf, cl_uint{1}),
                        std::invalid_argument, Contains("CL_KERNEL_WORK_GROUP_SIZE"));
  }
  SECTION("local size 0") {
    REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{64, 0}, buf), std::invalid_argument,
                        Contains("local size 0 in dimension 0"));
  }
  SECTION("work_dim 0") {
    REQUIRE_THROWS_WHAT(anycl::nd_range(anycl::range{}), std::invalid_argument,
                        Contains("the global size has 0 dimensions"));
  }
  SECTION("work_dim 4") {
    REQUIRE_THROWS_WHAT((anycl::range{1, 2, 3, 4}), std::invalid_argument,
                        Contains("4 sizes given; OpenCL launches have 1 to 3 dimensions"));
  }
  SECTION("local and global of different dimension counts") {
    REQUIRE_THROWS_WHAT(anycl::nd_range(anycl::range{64, 2}, anycl::range{8}),
                        std::invalid_argument, Contains("the local size has 1 dimensions"));
  }
  require_write_index_runs(e.queue, k, buf);
}

TEST_CASE("B-30 an absurd global size is refused, never launched", "[catalogue]") {
  basic_env e;
  auto k = e.prog.kernel("write_index");
  anycl::buffer buf(e.ctx, 1000 * sizeof(int));
  SECTION("SIZE_MAX work-items") {
    REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{size_max}, buf), std::invalid_argument,
                        Contains("kernel 'write_index'") && Contains("work-items per launch") &&
                            Contains("ANYCL_MAX_WORK_ITEMS"));
  }
  SECTION("a 3-D product above 2^64") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(
            k, anycl::nd_range{{std::size_t{1} << 22, std::size_t{1} << 22, std::size_t{1} << 22}},
            buf),
        std::invalid_argument, Contains("exceeds the limit"));
  }
  SECTION("above a cap set by the program") {
    work_item_cap cap(999);
    REQUIRE_THROWS_WHAT(e.queue.launch(k, anycl::nd_range{1000}, buf), std::invalid_argument,
                        Contains("global size 1000 exceeds the limit of 999"));
  }
  require_write_index_runs(e.queue, k, buf);
}

TEST_CASE("B-31 an offset plus global size that overflows size_t is refused", "[catalogue]") {
  basic_env e;
  auto k = e.prog.kernel("write_index");
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  SECTION("1-D") {
    REQUIRE_THROWS_WHAT(
        e.queue.launch(k, anycl::nd_range{{16}, {}, {size_max - 4}}, buf), std::out_of_range,
        Contains("kernel 'write_index'") && Contains("overflows size_t in dimension 0"));
  }
  SECTION("2-D, dimension 1") {
    REQUIRE_THROWS_WHAT(e.queue.launch(e.prog.kernel("index_2d"),
                                       anycl::nd_range{{4, 4}, {}, {0, size_max}}, buf, cl_uint{4}),
                        std::out_of_range, Contains("overflows size_t in dimension 1"));
  }
  // An offset that fits shifts the ids as it should.
  e.queue.fill(anycl::buffer_view<int>(buf), -1);
  e.queue.launch(k, anycl::nd_range{{16}, {}, {32}}, buf);
  const auto v = e.queue.read(anycl::buffer_view<int>(buf));
  for (int i = 0; i < 64; ++i) REQUIRE(v[i] == (i >= 32 && i < 48 ? i : -1));
}

// --- buffers and transfers (B-32..B-41) ---

TEST_CASE("B-32 a buffer or array of size 0 is valid and every operation on it a no-op",
          "[catalogue]") {
  anycl::test::env e;
  SECTION("buffer") {
    anycl::buffer empty(e.ctx, 0);
    CHECK(empty.get() == nullptr);
    CHECK(empty.empty());
    anycl::buffer_view<int> v(empty);
    CHECK(e.queue.read(v).empty());
    e.queue.write(v, std::vector<int>{});
    e.queue.fill(v, 3).wait();
    CHECK(e.queue.enqueue_read(v).get().empty());
    CHECK(e.queue.map(v).size() == 0);
    anycl::event copied = e.queue.copy(v, v);  // a marker: it may still be queued here
    copied.wait();
    CHECK(copied.status() == anycl::event_status::complete);
    CHECK(anycl::buffer(e.ctx, nullptr, 0).empty());
    CHECK(anycl::buffer::from(e.ctx, std::vector<int>{}).empty());
  }
  SECTION("array") {
    auto a = anycl::array<float>(e.queue, anycl::shape(0));
    CHECK(a.size() == 0);
    CHECK(a.to_host().empty());
    auto z = anycl::array<float>::zeros(e.queue, anycl::shape(0));
    anycl::array<float> sum = 2.0f * z + a;
    CHECK(sum.size() == 0);
    CHECK(anycl::sum(a) == 0.0f);
  }
  anycl::buffer real(e.ctx, 16 * sizeof(int));
  require_round_trip(e.queue, real);
}

TEST_CASE("B-33 a buffer above CL_DEVICE_MAX_MEM_ALLOC_SIZE or of SIZE_MAX is refused",
          "[catalogue]") {
  anycl::test::env e;
  const cl_ulong limit = e.dev.max_alloc();
  SECTION("max alloc + 1") {
    try {
      anycl::buffer b(e.ctx, static_cast<std::size_t>(limit) + 1);
      FAIL("an allocation above the limit was accepted");
    } catch (const anycl::api_error& err) {
      CHECK(err.status() == CL_INVALID_BUFFER_SIZE);
      CHECK(err.call() == "clCreateBuffer");
      CHECK_THAT(err.what(), Contains("CL_INVALID_BUFFER_SIZE (-61)") &&
                                 Contains(std::to_string(limit)) &&
                                 Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
    }
  }
  SECTION("SIZE_MAX") {
    REQUIRE_THROWS_WHAT(anycl::buffer(e.ctx, size_max), anycl::api_error,
                        Contains("CL_INVALID_BUFFER_SIZE") && Contains(std::to_string(limit)));
  }
  SECTION("an array whose byte count overflows size_t") {
    REQUIRE_THROWS_WHAT(anycl::array<double>(e.queue, anycl::shape(size_max / 4)),
                        std::overflow_error, Contains("array:") && Contains("double"));
  }
  SECTION("an array above the limit") {
    REQUIRE_THROWS_WHAT(
        anycl::array<float>(e.queue, anycl::shape(static_cast<std::size_t>(limit / 4) + 1)),
        anycl::api_error, Contains("CL_INVALID_BUFFER_SIZE"));
  }
  anycl::buffer ok(e.ctx, 1024);
  require_round_trip(e.queue, ok);
}

TEST_CASE("B-34 buffers that together exceed the device's global memory are refused",
          "[catalogue]") {
  // Drivers allocate lazily: POCL creates any number of buffers and the process is killed when
  // they are used. AnyCL counts the bytes of a context's live buffers. These buffers are never
  // used, so nothing is really allocated.
  anycl::test::env e;
  const std::uint64_t global = e.dev.global_memory();
  const std::uint64_t chunk = e.dev.max_alloc();
  std::vector<anycl::buffer> held;
  std::uint64_t total = 0;
  while (global - total >= chunk) {
    held.emplace_back(e.ctx, static_cast<std::size_t>(chunk));
    total += chunk;
  }
  if (global > total) held.emplace_back(e.ctx, static_cast<std::size_t>(global - total));
  INFO("global memory " << global << " bytes in " << held.size() << " buffers");
  try {
    anycl::buffer one_more(e.ctx, 1);
    FAIL("a buffer past the device's global memory was accepted");
  } catch (const anycl::api_error& err) {
    CHECK(err.status() == CL_MEM_OBJECT_ALLOCATION_FAILURE);
    CHECK(err.call() == "clCreateBuffer");
    CHECK_THAT(err.what(), Contains("checked before the call") &&
                               Contains("CL_DEVICE_GLOBAL_MEM_SIZE") &&
                               Contains(std::to_string(global)));
  }
  // An array is a buffer too.
  REQUIRE_THROWS_WHAT(anycl::array<int>(e.queue, anycl::shape(4)), anycl::api_error,
                      Contains("CL_DEVICE_GLOBAL_MEM_SIZE"));
  // Another context has its own account.
  anycl::context other(e.dev);
  anycl::command_queue other_queue(other, e.dev);
  anycl::buffer elsewhere(other, 1024);
  require_round_trip(other_queue, elsewhere);
  // Releasing a buffer gives its bytes back, and the context works on.
  held.pop_back();
  anycl::buffer ok(e.ctx, 1024);
  require_round_trip(e.queue, ok);
}

TEST_CASE("B-35 reads and writes past the end, or whose offset + size overflows, are refused",
          "[catalogue]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  std::vector<int> host(65);
  const std::size_t huge = size_max - 4;
  SECTION("read 65 ints of 64") {
    REQUIRE_THROWS_WHAT(e.queue.read_bytes(buf, 0, 65 * sizeof(int), host.data()),
                        std::out_of_range, Contains("read") && Contains("256"));
  }
  SECTION("write with size SIZE_MAX - 4") {
    REQUIRE_THROWS_WHAT(e.queue.write_bytes(buf, 8, huge, host.data()), std::out_of_range,
                        Contains("write"));
  }
  SECTION("read with offset SIZE_MAX - 4") {
    REQUIRE_THROWS_AS(e.queue.read_bytes(buf, huge, 8, host.data()), std::out_of_range);
  }
  SECTION("async read past the end") {
    REQUIRE_THROWS_AS(e.queue.enqueue_read_bytes(buf, 200, 100, host.data(), {}, nullptr),
                      std::out_of_range);
  }
  SECTION("async write past the end") {
    REQUIRE_THROWS_AS(e.queue.enqueue_write_bytes(buf, 0, 260, host.data(), {}, nullptr),
                      std::out_of_range);
  }
  SECTION("copy past the end of the destination") {
    REQUIRE_THROWS_WHAT(e.queue.copy_bytes(buf, 0, buf, 200, 100), std::out_of_range,
                        Contains("copy"));
  }
  SECTION("fill past the end") {
    int pattern = 0;
    REQUIRE_THROWS_AS(e.queue.fill_bytes(buf, 252, 8, &pattern, 4), std::out_of_range);
  }
  SECTION("map past the end") {
    REQUIRE_THROWS_AS(e.queue.map_bytes(buf, 0, 257, anycl::map_access::read), std::out_of_range);
  }
  SECTION("a view past the end") {
    REQUIRE_THROWS_WHAT(anycl::buffer_view<int>(buf, 60, 5), std::out_of_range,
                        Contains("buffer_view") && Contains("exceeds the size 64"));
  }
  SECTION("a subview whose offset + count overflows") {
    REQUIRE_THROWS_AS(anycl::buffer_view<int>(buf).subview(size_max, 2), std::out_of_range);
  }
  SECTION("host data of the wrong size") {
    REQUIRE_THROWS_WHAT(e.queue.write(anycl::buffer_view<int>(buf), std::vector<int>(65)),
                        std::invalid_argument, Contains("65 elements"));
  }
  require_round_trip(e.queue, buf);
}

TEST_CASE("B-36 zero-size reads, writes, copies, fills and maps are all no-ops", "[catalogue]") {
  anycl::test::env e;
  anycl::buffer a = anycl::buffer::from(e.ctx, iota(16)), b(e.ctx, 16 * sizeof(int));
  int host = 0;
  e.queue.read_bytes(a, 8, 0, &host);
  e.queue.write_bytes(a, 8, 0, &host);
  e.queue.read_bytes(a, 64, 0, nullptr);  // at the end, and no host memory needed
  // OpenCL accepts a zero-size read but refuses a zero-size copy; AnyCL makes both no-ops.
  anycl::event c = e.queue.copy_bytes(a, 0, b, 8, 0);
  c.wait();
  CHECK(c.status() == anycl::event_status::complete);
  anycl::event f = e.queue.fill_bytes(a, 4, 0, &host, 4);
  f.wait();
  CHECK(f.status() == anycl::event_status::complete);
  CHECK_FALSE(e.queue.map_bytes(a, 0, 0, anycl::map_access::read).get());
  // A zero-size transfer still waits for its wait list.
  anycl::user_event gate(e.ctx);
  anycl::event after = e.queue.copy_bytes(a, 0, b, 0, 0, {gate});
  gate.set_complete();
  after.wait();
  CHECK(e.queue.read(anycl::buffer_view<int>(a)) == iota(16));
  require_round_trip(e.queue, b);
}

// B-37: RO|WO flags and USE_HOST_PTR cannot be written with anycl::memory_access
// (tests/compile_fail/memory_access_flags.cpp); a NULL host pointer is refused at run time.
TEST_CASE("B-37 a NULL host pointer is refused; conflicting flags cannot be written",
          "[catalogue]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 16 * sizeof(int));
  SECTION("read into NULL") {
    REQUIRE_THROWS_WHAT(e.queue.read_bytes(buf, 0, 4, nullptr), std::invalid_argument,
                        Contains("read: null host pointer"));
  }
  SECTION("write from NULL") {
    REQUIRE_THROWS_WHAT(e.queue.write_bytes(buf, 0, 4, nullptr), std::invalid_argument,
                        Contains("write: null host pointer"));
  }
  SECTION("a buffer copied from NULL host data") {
    REQUIRE_THROWS_WHAT(anycl::buffer(e.ctx, nullptr, 8), std::invalid_argument,
                        Contains("null host data"));
  }
  SECTION("fill with a NULL pattern") {
    REQUIRE_THROWS_WHAT(e.queue.fill_bytes(buf, 0, 16, nullptr, 4), std::invalid_argument,
                        Contains("fill: null pattern"));
  }
  require_round_trip(e.queue, buf);
}

TEST_CASE("B-38 overlapping copies, bad fill patterns, bad sub-buffers and maps are refused",
          "[catalogue]") {
  anycl::test::env e;
  anycl::buffer a = anycl::buffer::from(e.ctx, iota(64));
  const std::size_t align = e.dev.info<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  SECTION("an overlapping copy within one buffer") {
    REQUIRE_THROWS_WHAT(
        e.queue.copy(anycl::buffer_view<int>(a, 0, 32), anycl::buffer_view<int>(a, 16, 32)),
        std::invalid_argument, Contains("overlap"));
  }
  SECTION("a fill pattern of 3 bytes") {
    int pattern = 0;
    REQUIRE_THROWS_WHAT(e.queue.fill_bytes(a, 0, 12, &pattern, 3), std::invalid_argument,
                        Contains("power of two"));
  }
  SECTION("a fill range that is not a multiple of the pattern") {
    int pattern = 0;
    REQUIRE_THROWS_WHAT(e.queue.fill_bytes(a, 2, 8, &pattern, 4), std::invalid_argument,
                        Contains("multiples of the pattern size"));
  }
  SECTION("a misaligned sub-buffer") {
    if (align > 1)
      REQUIRE_THROWS_WHAT(a.sub_buffer(4, 4), std::invalid_argument,
                          Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  }
  SECTION("a sub-buffer past the end") {
    REQUIRE_THROWS_AS(a.sub_buffer(0, a.size() + 1), std::out_of_range);
  }
  SECTION("a map past the end") {
    REQUIRE_THROWS_AS(e.queue.map_bytes(a, 128, 256, anycl::map_access::write), std::out_of_range);
  }
  SECTION("copies of different sizes") {
    anycl::buffer b(e.ctx, 64 * sizeof(int));
    REQUIRE_THROWS_WHAT(
        e.queue.copy(anycl::buffer_view<int>(a, 0, 8), anycl::buffer_view<int>(b, 0, 9)),
        std::invalid_argument, Contains("8 elements") && Contains("9"));
  }
  // (A wait list's count and events cannot disagree: anycl::wait_list holds the events.)
  CHECK(e.queue.read(anycl::buffer_view<int>(a)) == iota(64));
  // Non-overlapping halves copy fine afterwards.
  e.queue.copy(anycl::buffer_view<int>(a, 0, 32), anycl::buffer_view<int>(a, 32, 32)).wait();
  const auto v = e.queue.read(anycl::buffer_view<int>(a));
  for (int i = 0; i < 64; ++i) REQUIRE(v[i] == i % 32);
}

TEST_CASE("B-39 a buffer outlives the context object it was made in", "[catalogue]") {
  anycl::device dev = anycl::select_device();
  anycl::buffer buf;
  {
    anycl::context ctx(dev);
    buf = anycl::buffer::from(ctx, iota(64, 39));
  }  // the last context object is gone; the buffer holds the context alive
  anycl::command_queue q(buf.context(), dev);
  CHECK(q.read(anycl::buffer_view<int>(buf)) == iota(64, 39));
  anycl::kernel add_one =
      anycl::test::build(buf.context(), "tests/cl_kernels/basic.cl").kernel("add_one");
  q.launch(add_one, anycl::nd_range{64}, buf);
  CHECK(q.read(anycl::buffer_view<int>(buf)) == iota(64, 40));
}

TEST_CASE("B-40 a buffer released while a kernel using it is pending", "[catalogue]") {
  basic_env e;
  const std::vector<float> hx{1, 2, 3, 4, 5, 6, 7, 8};
  anycl::buffer y = anycl::buffer::from(e.ctx, std::vector<float>(8, 1.0f));
  anycl::user_event gate(e.ctx);
  anycl::event run;
  {
    anycl::buffer x = anycl::buffer::from(e.ctx, hx);
    run = e.queue.launch_after({gate}, e.prog.kernel("saxpy"), anycl::nd_range{8}, cl_uint{8}, 3.0f,
                               x, y);
  }  // x's last handle is gone before the kernel could start
  CHECK(run.status() != anycl::event_status::complete);
  gate.set_complete();
  run.wait();
  const auto v = e.queue.read(anycl::buffer_view<float>(y));
  for (int i = 0; i < 8; ++i) REQUIRE(v[i] == 3.0f * hx[i] + 1.0f);
}

TEST_CASE("B-41 host memory of a pending transfer is kept alive by the queue", "[catalogue]") {
  anycl::test::env e;
  anycl::buffer buf(e.ctx, 4096 * sizeof(int));
  anycl::buffer_view<int> v(buf);
  anycl::user_event gate(e.ctx);
  anycl::event w;
  {
    std::vector<int> data = iota(v.size(), 41);
    w = e.queue.enqueue_write(v, std::move(data), {gate});
  }  // the caller's vector is gone before the write could start
  auto pending = e.queue.enqueue_read(v, {w});  // the read owns its destination
  CHECK(w.status() != anycl::event_status::complete);
  gate.set_complete();
  CHECK(pending.get() == iota(v.size(), 41));
  require_round_trip(e.queue, buf);
}

// --- events and callbacks (B-42..B-45) ---

TEST_CASE("B-42 a failed dependency surfaces at wait() and the queue stays usable", "[catalogue]") {
  basic_env e;
  anycl::buffer buf(e.ctx, 64 * sizeof(int));
  e.queue.fill(anycl::buffer_view<int>(buf), 7).wait();
  anycl::user_event gate(e.ctx);
  anycl::event run =
      e.queue.launch_after({gate}, e.prog.kernel("add_one"), anycl::nd_range{64}, buf);
  gate.set_error(-5);
  REQUIRE_THROWS_WHAT(gate.wait(), anycl::api_error,
                      Contains("clWaitForEvents failed") && Contains("(-5)"));
  try {
    run.wait();
    FAIL("a command whose dependency failed completed");
  } catch (const anycl::api_error& err) {
    CHECK(err.status() < 0);
    CHECK(err.call() == "clWaitForEvents");
    CHECK_THAT(err.what(), Contains("the queue stays usable"));
  }
  e.queue.launch(e.prog.kernel("add_one"), anycl::nd_range{64}, buf).wait();
  for (int x : e.queue.read(anycl::buffer_view<int>(buf)))
    REQUIRE(x == 8);  // the gated one did not run
}

TEST_CASE("B-43 an exception thrown by an event callback is rethrown from wait()", "[catalogue]") {
  basic_env e;
  SECTION("a user event: the callback runs on the thread completing it") {
    anycl::user_event gate(e.ctx);
    gate.on_complete([](cl_int) { throw std::runtime_error("B-43 user callback"); });
    gate.set_complete();  // does not throw through the driver
    REQUIRE_THROWS_WHAT(gate.wait(), std::runtime_error, Contains("B-43 user callback"));
  }
  SECTION("a command event: the callback runs on a driver thread") {
    anycl::event m = e.queue.marker();
    m.on_complete([](cl_int) { throw std::logic_error("B-43 driver-thread callback"); });
    REQUIRE_THROWS_WHAT(m.wait(), std::logic_error, Contains("B-43 driver-thread callback"));
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

TEST_CASE("B-45 a blocking call inside an event callback is refused", "[catalogue]") {
  basic_env e;
  anycl::buffer buf = anycl::buffer::from(e.ctx, iota(16));
  SECTION("waiting for the callback's own event (which would never return)") {
    anycl::event m = e.queue.marker();
    m.on_complete([m](cl_int) { m.wait(); });
    REQUIRE_THROWS_WHAT(m.wait(), std::logic_error,
                        Contains("event::wait inside an event callback") && Contains("wait lists"));
  }
  SECTION("finishing a queue from a user event's callback") {
    anycl::user_event gate(e.ctx);
    const anycl::command_queue& q = e.queue;
    gate.on_complete([&q](cl_int) { q.finish(); });
    gate.set_complete();
    REQUIRE_THROWS_WHAT(gate.wait(), std::logic_error,
                        Contains("command_queue::finish inside an event callback"));
  }
  SECTION("a blocking read from a command's callback") {
    anycl::event m = e.queue.marker();
    const anycl::command_queue& q = e.queue;
    m.on_complete([&q, &buf](cl_int) { q.read(anycl::buffer_view<int>(buf)); });
    REQUIRE_THROWS_WHAT(m.wait(), std::logic_error,
                        Contains("command_queue::read (blocking) inside an event callback"));
  }
  SECTION("a non-blocking enqueue from a callback is allowed") {
    anycl::event m = e.queue.marker();
    anycl::command_queue q = e.queue;
    std::atomic<bool> enqueued{false};
    m.on_complete([&, q](cl_int) {
      q.fill(anycl::buffer_view<int>(buf), 45);
      enqueued = true;
    });
    m.wait();
    CHECK(enqueued);
    e.queue.finish();
    for (int x : e.queue.read(anycl::buffer_view<int>(buf))) REQUIRE(x == 45);
  }
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

// --- threads (B-46..B-48); the [threads] part of this suite runs them at scale ---

TEST_CASE("B-46 one kernel object launched from 8 threads gives correct results", "[catalogue]") {
  basic_env e;
  auto affine = e.prog.function<anycl::buffer_view<int>, int>("affine");  // one shared kernel
  constexpr int threads = 8, iterations = 40, n = 32;
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      anycl::buffer out(e.ctx, n * sizeof(int));
      for (int it = 0; it < iterations; ++it) {
        const int value = t * 1000 + it;
        affine(e.queue, anycl::nd_range{n}, out, value);
        const auto v = e.queue.read(anycl::buffer_view<int>(out));
        for (int i = 0; i < n; ++i) wrong[t] += v[i] != value * i;
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(wrong[t] == 0);
}

TEST_CASE("B-47 8 host threads on one context, shared queue and queue per thread", "[catalogue]") {
  basic_env e;
  constexpr int threads = 8, iterations = 40, n = 64;
  std::vector<int> wrong(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      anycl::command_queue own(e.ctx, e.dev);
      const anycl::command_queue& q = t % 2 == 0 ? own : e.queue;
      anycl::kernel add_one = e.prog.kernel("add_one");  // a kernel per thread
      anycl::buffer buf(e.ctx, n * sizeof(int));
      for (int it = 0; it < iterations; ++it) {
        q.fill(anycl::buffer_view<int>(buf), t + it);
        q.launch(add_one, anycl::nd_range{n}, buf);
        for (int x : q.read(anycl::buffer_view<int>(buf))) wrong[t] += x != t + it + 1;
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) CHECK(wrong[t] == 0);
}

TEST_CASE("B-48 concurrent builds from threads", "[catalogue]") {
  anycl::test::env e;
  constexpr int threads = 4, programs = 2;
  std::vector<int> wrong(threads, 0);
  std::vector<std::string> failures(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        for (int p = 0; p < programs; ++p) {
          const int value = 48 + 10 * t + p;  // distinct programs: one per thread and index
          anycl::program prog(e.ctx, "kernel void value(global int* out) { out[0] = VALUE; }\n",
                              "b48.cl");
          prog.build(anycl::build_options{}.define("VALUE", std::to_string(value)));
          wrong[t] += run_value(e, prog, "value") != value;
        }
      } catch (const std::exception& ex) {
        failures[t] = ex.what();
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    CHECK(failures[t].empty());
    CHECK(wrong[t] == 0);
  }
}

// --- binaries and the disk cache (B-49..B-54, B-57) ---

TEST_CASE("B-49 a good binary round-trips to a program that runs", "[catalogue]") {
  basic_env e;
  auto bins = e.prog.binaries();
  REQUIRE(bins.size() == 1);
  REQUIRE_FALSE(bins[0].empty());
  auto again = anycl::program::from_binaries(e.ctx, {e.dev}, bins, "basic.bin");
  again.build();
  require_add_one_runs(e.queue, again.kernel("add_one"));
  SECTION("no binary, or an empty one, is refused before the driver") {
    REQUIRE_THROWS_WHAT(anycl::program::from_binaries(e.ctx, {e.dev}, {}, "x.bin"),
                        std::invalid_argument, Contains("0 binaries for 1 devices"));
    REQUIRE_THROWS_WHAT(anycl::program::from_binaries(e.ctx, {e.dev}, {{}}, "x.bin"),
                        std::invalid_argument, Contains("binary 0 is empty"));
  }
}

namespace {
/// A loader cache holding one sound entry for v.cl (VALUE 7), and the key it must carry.
struct cache_fixture {
  anycl::test::env e;
  temp_dir src, cache;
  std::string entry;
  std::vector<unsigned char> good;
  anycl::detail::digest key{};

  cache_fixture() {
    write_file(src / "v.cl", value_kernel);
    write_file(src / "value.h", "#define VALUE 7\n");
    {
      anycl::kernel_loader loader(e.ctx, search_only(src, &cache));
      REQUIRE(run_value(e, loader.load("v.cl"), "value") == 7);
      anycl::wait_for_cache_writes();
    }
    for (const auto& f : fs::directory_iterator(cache.str())) entry = f.path().string();
    REQUIRE_FALSE(entry.empty());
    good = read_bytes(entry);
    key =
        anycl::detail::cache_key(anycl::kernel_loader(e.ctx, search_only(src)).resolve("v.cl").text,
                                 "", anycl::detail::identify(e.dev));
    REQUIRE(anycl::detail::check_entry(good.data(), good.size(), key).empty());
  }

  /// Replaces the entry with `bytes`, loads again, and requires: the entry rejected (never handed
  /// to the driver as a binary), the program rebuilt from source and correct, the entry rewritten
  /// sound.
  void require_rejected_and_rebuilt(const std::vector<unsigned char>& bytes) {
    write_bytes(entry, bytes);
    anycl::reset_cache_stats();
    {
      anycl::kernel_loader loader(e.ctx, search_only(src, &cache));
      auto prog = loader.load("v.cl");
      CHECK(anycl::cache_stats().rejects == 1);
      CHECK(anycl::cache_stats().hits == 0);
      CHECK(run_value(e, prog, "value") == 7);
      anycl::wait_for_cache_writes();
    }
    CHECK(anycl::cache_stats().writes == 1);
    const auto now = read_bytes(entry);
    CHECK(anycl::detail::check_entry(now.data(), now.size(), key).empty());
  }

  std::vector<unsigned char> truncated(std::size_t n) const {
    return std::vector<unsigned char>(good.begin(), good.begin() + static_cast<long>(n));
  }
  std::vector<unsigned char> flipped(std::size_t at) const {
    auto b = good;
    b[at] ^= 0x20;
    return b;
  }
};
}  // namespace

TEST_CASE("B-50 a cache entry truncated to half is rejected and rebuilt", "[catalogue]") {
  cache_fixture f;
  f.require_rejected_and_rebuilt(f.truncated(f.good.size() / 2));
}

TEST_CASE("B-51 cache entries and prebuilt binaries truncated to 16 bytes or 1 byte",
          "[catalogue]") {
  cache_fixture f;
  SECTION("cache entry, 16 bytes") { f.require_rejected_and_rebuilt(f.truncated(16)); }
  SECTION("cache entry, 1 byte") { f.require_rejected_and_rebuilt(f.truncated(1)); }
  SECTION("cache entry, all but the last byte") {
    f.require_rejected_and_rebuilt(f.truncated(f.good.size() - 1));
  }
  SECTION("prebuilt binary in binary-only mode: refused before the driver") {
    temp_dir d;
    write_file(d / "k.cl", "kernel void value(global int* out) { out[0] = 51; }\n");
    const std::string bin = d / anycl::prebuilt_file_name("k.cl", f.e.dev);
    anycl::write_prebuilt(anycl::kernel_loader(f.e.ctx, search_only(d)).load("k.cl"), f.e.dev, bin);
    auto bytes = read_bytes(bin);
    anycl::loader_options o = search_only(d);
    o.binary_only = true;
    for (std::size_t n : {std::size_t{16}, std::size_t{1}}) {
      write_bytes(bin, std::vector<unsigned char>(bytes.begin(), bytes.begin() + long(n)));
      REQUIRE_THROWS_WHAT(anycl::kernel_loader(f.e.ctx, o).load("k.cl"), anycl::binary_not_found,
                          Contains(bin) && Contains("is unusable") && Contains("anycl-build"));
    }
    write_bytes(bin, bytes);
    CHECK(run_value(f.e, anycl::kernel_loader(f.e.ctx, o).load("k.cl"), "value") == 51);
  }
}

TEST_CASE("B-52 random bytes and a flipped header are rejected", "[catalogue]") {
  cache_fixture f;
  const unsigned seed = std::random_device{}();
  INFO("random seed " << seed);
  std::mt19937 rng(seed);
  SECTION("cache entry of random bytes, same length") {
    std::vector<unsigned char> noise(f.good.size());
    for (auto& b : noise) b = static_cast<unsigned char>(rng());
    f.require_rejected_and_rebuilt(noise);
  }
  SECTION("cache entry with a flipped header byte") {
    f.require_rejected_and_rebuilt(f.flipped(20));
  }
  SECTION("cache entry zeroed") {
    f.require_rejected_and_rebuilt(std::vector<unsigned char>(f.good.size(), 0));
  }
  SECTION("random bytes handed to program::from_binaries: the driver's clean refusal") {
    std::vector<unsigned char> junk(4096);
    for (auto& b : junk) b = static_cast<unsigned char>(rng());
    bool refused = false;
    try {
      auto p = anycl::program::from_binaries(f.e.ctx, {f.e.dev}, {junk}, "junk.bin");
      p.build();
    } catch (const anycl::api_error& err) {
      refused = true;
      CHECK_THAT(err.what(), Contains("junk.bin"));
    }
    CHECK(refused);
  }
}

TEST_CASE("B-53 a flipped payload byte is caught by the checksum", "[catalogue]") {
  cache_fixture f;
  SECTION("middle") { f.require_rejected_and_rebuilt(f.flipped(f.good.size() / 2)); }
  SECTION("last byte") { f.require_rejected_and_rebuilt(f.flipped(f.good.size() - 1)); }
  SECTION("first payload byte") {
    f.require_rejected_and_rebuilt(f.flipped(anycl::detail::entry_header_size));
  }
}

TEST_CASE("B-54 a binary from another device or driver is not used", "[catalogue]") {
  cache_fixture f;
  const std::vector<unsigned char> payload(f.good.begin() + anycl::detail::entry_header_size,
                                           f.good.end());
  const std::string text = anycl::kernel_loader(f.e.ctx, search_only(f.src)).resolve("v.cl").text;
  auto relabelled = [&](anycl::detail::device_identity id) {
    auto h = anycl::detail::entry_header(anycl::detail::cache_key(text, "", id), payload.data(),
                                         payload.size());
    std::vector<unsigned char> out(h.begin(), h.end());
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
  };
  auto id = anycl::detail::identify(f.e.dev);
  SECTION("another device") {
    id.device_name += " (another one)";
    f.require_rejected_and_rebuilt(relabelled(id));
  }
  SECTION("another driver version") {
    id.driver_version += ".1";
    f.require_rejected_and_rebuilt(relabelled(id));
  }
  SECTION("another platform") {
    id.platform_name = "Oclgrind";
    f.require_rejected_and_rebuilt(relabelled(id));
  }
}

TEST_CASE("B-57 an unusable cache folder and stale temporary files never fail a load",
          "[catalogue]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 57\n");
  SECTION("a cache folder below a regular file (cannot be created, even by root)") {
    write_file(cache / "file", "x");
    anycl::loader_options o = search_only(d);
    o.disk_cache = true;
    o.cache_dir = cache / "file/cache";
    anycl::reset_cache_stats();
    anycl::kernel_loader loader(e.ctx, o);
    CHECK(run_value(e, loader.load("v.cl"), "value") == 57);
    anycl::wait_for_cache_writes();
    CHECK(anycl::cache_stats().write_failures == 1);
    CHECK(anycl::cache_stats().writes == 0);
  }
  SECTION("an old temporary file of a killed writer is removed") {
    write_file(cache / ".x.bin.123.0.tmp", "left by a writer killed an hour ago");
    fs::last_write_time(cache / ".x.bin.123.0.tmp",
                        fs::file_time_type::clock::now() - std::chrono::hours(1));
    anycl::reset_cache_stats();
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    CHECK(run_value(e, loader.load("v.cl"), "value") == 57);
    anycl::wait_for_cache_writes();
    CHECK(anycl::cache_stats().writes == 1);
    CHECK_FALSE(fs::exists(cache / ".x.bin.123.0.tmp"));
  }
}

// B-56: POCL's cache is not safe for processes building at once (pocl#1480); each process gets
// its own POCL_CACHE_DIR. The parent runs 8 children of this executable with private folders,
// all building the same new program at once (reliability-B-56-private-pocl-caches).
TEST_CASE("B-56 child: builds a new program in its own POCL cache", "[.env_b56_child]") {
  anycl::test::env e;
  const char* salt = std::getenv("ANYCL_B56_SALT");
  const std::string s = salt != nullptr ? salt : "0";
  anycl::program prog(e.ctx, "// " + s + "\nkernel void value(global int* out) { out[0] = 56; }\n",
                      "b56.cl");
  prog.build();
  REQUIRE(run_value(e, prog, "value") == 56);
}

TEST_CASE("B-56 processes with private POCL caches build the same new program at once",
          "[.env_b56]") {
  constexpr int children = 8;
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  anycl::test::temp_dir base(fs::temp_directory_path(), "anycl-b56");
  const std::string salt = std::to_string(std::random_device{}());
  std::vector<anycl::test::running_child> running;
  for (int c = 0; c < children; ++c) {
    const fs::path pocl = base.path() / ("pocl-" + std::to_string(c));
    running.push_back(anycl::test::spawn(
        self, {"[.env_b56_child]"},
        {{"POCL_CACHE_DIR", pocl.string()}, {"ANYCL_CACHE", "off"}, {"ANYCL_B56_SALT", salt}},
        base.path() / ("child-" + std::to_string(c))));
  }
  int failures = 0;
  for (auto& child : running) {
    anycl::test::child_result r = child.wait();
    INFO(r.describe());
    CHECK(r.exit_code() == 0);
    failures += r.exit_code() != 0;
  }
  CHECK(failures == 0);
}

// B-58: its own process (reliability-B-58-fork), so that nothing else runs while it forks.
TEST_CASE("B-58 OpenCL use in a child forked after initialisation throws used_after_fork",
          "[.env_fork]") {
  basic_env e;
  anycl::buffer buf = anycl::buffer::from(e.ctx, iota(16));
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::alarm(20);  // a hang becomes a failure, not a stuck run
    int code = 0;
    auto expect_refusal = [&code](int id, auto&& fn) {
      try {
        fn();
        code = code == 0 ? id : code;
      } catch (const anycl::used_after_fork& ex) {
        const std::string what = ex.what();
        if (what.find("fork") == std::string::npos || what.find("posix_spawn") == std::string::npos)
          code = code == 0 ? 50 + id : code;
      } catch (...) {
        code = code == 0 ? 100 + id : code;
      }
    };
    expect_refusal(1, [] { anycl::platform::all(); });
    expect_refusal(2, [&] { e.queue.finish(); });
    expect_refusal(3, [&] { e.queue.read(anycl::buffer_view<int>(buf)); });
    expect_refusal(4, [&] { anycl::context c(e.dev); });
    expect_refusal(5, [&] { e.prog.kernel("add_one"); });
    ::_exit(code);  // the child's handles are not released: that would hang too
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  // The parent is unaffected.
  CHECK(e.queue.read(anycl::buffer_view<int>(buf)) == iota(16));
  require_add_one_runs(e.queue, e.prog.kernel("add_one"));
}

// --- CLBlast and clFFT (B-63, B-64) ---

TEST_CASE("B-63 CLBlast bad arguments are refused by name before CLBlast", "[catalogue]") {
  namespace blas = anycl::blas;
  anycl::test::env e;
  const auto none = blas::transpose::none;
  anycl::buffer buf(e.ctx, 64 * sizeof(float)), small(e.ctx, 4 * sizeof(float));
  auto mat = [](const anycl::buffer& b, std::size_t r, std::size_t c, std::size_t ld = 0) {
    return blas::matrix_view<float>(anycl::buffer_view<float>(b), r, c, ld);
  };
  // Undersized C (CLBlast: -1011 after printing to stderr).
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 3, 3), mat(buf, 3, 3), 0.0f, mat(small, 3, 3)),
      std::out_of_range,
      Contains("anycl::blas::gemm") &&
          Contains("C needs 9 elements from its first, its view has 4"));
  // lda below the row length (CLBlast: -1016).
  REQUIRE_THROWS_WHAT(blas::gemm(e.queue, none, none, 1.0f, mat(buf, 4, 3, 2), mat(buf, 3, 2), 0.0f,
                                 mat(buf, 4, 2)),
                      std::invalid_argument,
                      Contains("leading dimension of A (2) is below its 3 columns"));
  // An offset past the end (CLBlast: -1017/-1011).
  blas::matrix_view<float> late(anycl::buffer_view<float>(buf, 60, 4), 2, 3);
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, late, mat(buf, 3, 3), 0.0f, mat(buf, 2, 3)),
      std::out_of_range, Contains("A needs 6 elements from its first, its view has 4"));
  // Shapes that disagree.
  REQUIRE_THROWS_WHAT(
      blas::gemm(e.queue, none, none, 1.0f, mat(buf, 4, 3), mat(buf, 4, 2), 0.0f, mat(buf, 4, 2)),
      std::invalid_argument, Contains("op(A) is 4x3, op(B) 4x2 and C 4x2"));
  // m = 0: nothing to do, an event all the same, C untouched.
  const std::vector<float> a{1, 2, 3, 4}, b{5, 6, 7, 8};
  anycl::buffer ab = anycl::buffer::from(e.ctx, a), bb = anycl::buffer::from(e.ctx, b);
  anycl::buffer cb = anycl::buffer::from(e.ctx, std::vector<float>(4, -1.0f));
  blas::gemm(e.queue, none, none, 1.0f, mat(ab, 0, 2), mat(bb, 2, 2), 0.0f, mat(cb, 0, 2)).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(cb)) == std::vector<float>(4, -1.0f));
  // The queue and buffers work with CLBlast afterwards: C = A B for 2x2, against the host.
  blas::gemm(e.queue, none, none, 1.0f, mat(ab, 2, 2), mat(bb, 2, 2), 0.0f, mat(cb, 2, 2)).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(cb)) == std::vector<float>{19, 22, 43, 50});
}

TEST_CASE("B-64 clFFT misuse is refused before clFFT", "[catalogue]") {
  using cf = std::complex<float>;
  using anycl::fft::plan_desc;
  anycl::test::env e;
  const auto calls = [] { return anycl::detail::fft_library_counters().calls; };
  // No plan alive: clFFT is not set up, and a plan sets it up itself (no "plan before setup").
  REQUIRE(anycl::detail::fft_library_counters().guards == 0);
  std::size_t before = calls();
  REQUIRE_THROWS_WHAT(anycl::fft::plan(e.queue, plan_desc::c2c({17})), std::invalid_argument,
                      Contains("length 17 (axis 0) is not supported by clFFT") &&
                          Contains("nearest supported lengths: 16 and 18"));
  CHECK(calls() == before);
  anycl::fft::plan p(e.queue, plan_desc::c2c({8}));
  anycl::buffer in(e.ctx, 8 * sizeof(cf)), out(e.ctx, 8 * sizeof(cf)), small(e.ctx, 4 * sizeof(cf));
  // An undersized buffer (clFFT would corrupt the heap).
  before = calls();
  REQUIRE_THROWS_WHAT(p.execute(e.queue, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(small)),
                      std::out_of_range,
                      Contains("the output view holds 4") && Contains("needs 8"));
  REQUIRE_THROWS_WHAT(
      p.execute(e.queue, anycl::buffer_view<cf>(small), anycl::buffer_view<cf>(out)),
      std::out_of_range, Contains("the input view holds 4") && Contains("needs 8"));
  CHECK(calls() == before);
  // A bogus (moved-from) plan.
  {
    anycl::fft::plan moved = std::move(p);
    REQUIRE_THROWS_WHAT(
        p.execute(e.queue, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(out)),  // NOLINT
        std::invalid_argument, Contains("the plan is empty"));
    CHECK(calls() == before);
    p = std::move(moved);
  }
  // The plan works: the transform of a unit impulse is all ones.
  std::vector<cf> impulse(8, cf(0, 0));
  impulse[0] = cf(1, 0);
  e.queue.write(anycl::buffer_view<cf>(in), impulse);
  p.execute(e.queue, anycl::buffer_view<cf>(in), anycl::buffer_view<cf>(out)).wait();
  for (const cf& x : e.queue.read(anycl::buffer_view<cf>(out)))
    CHECK(std::abs(x - cf(1, 0)) < 1e-6);
}

TEST_CASE("B-64 clFFT setup and teardown pair up: no double teardown", "[catalogue]") {
  using anycl::fft::plan_desc;
  anycl::test::env e;
  const auto start = anycl::detail::fft_library_counters();
  REQUIRE(start.guards == 0);
  REQUIRE(start.setups == start.teardowns);
  for (int round = 0; round < 2; ++round) {
    // Two owners of the setup released in either order, and a moved-from plan: one teardown.
    auto guard = std::make_unique<anycl::fft::library_guard>();
    anycl::fft::plan a(e.queue, plan_desc::c2c({16}));
    anycl::fft::plan b = std::move(a);  // the moved-from plan tears nothing down
    if (round == 0) guard.reset();      // the guard first, then the plan
    CHECK(anycl::detail::fft_library_counters().teardowns == start.teardowns + round);
  }
  const auto end = anycl::detail::fft_library_counters();
  CHECK(end.guards == 0);
  CHECK(end.setups == end.teardowns);
  CHECK(end.setups == start.setups + 2);
  CHECK(end.teardowns == start.teardowns + 2);
}

TEST_CASE(
    "B-70 rectangular transfers with bad pitches, boxes, pointers or overlaps are refused before "
    "the driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 returns CL_INVALID_VALUE for each (CL_MEM_COPY_OVERLAP for the overlap); AnyCL's
  // messages name the box, the pitches and the buffer's size.
  std::vector<std::uint8_t> start(1000);
  for (std::size_t i = 0; i < start.size(); ++i) start[i] = static_cast<std::uint8_t>(i * 7);
  anycl::buffer buf = anycl::buffer::from(e.ctx, start), other(e.ctx, 1000);
  std::vector<std::uint8_t> host(1000);
  // A row pitch below the width, a slice pitch below rows x pitch or not a multiple of it.
  REQUIRE_THROWS_WHAT(
      e.queue.read_rect(buf, anycl::rect_side{{0, 0, 0}, 8, 0}, host.data(), {}, {10, 2, 1}),
      std::invalid_argument,
      Contains("read_rect: the buffer pitches do not hold the region (origin "
               "{0, 0, 0}, region {10, 2, 1}, row pitch 8, slice pitch 16"));
  REQUIRE_THROWS_WHAT(
      e.queue.write_rect(buf, {}, host.data(), anycl::rect_side{{0, 0, 0}, 10, 15}, {10, 2, 2}),
      std::invalid_argument, Contains("write_rect: the host pitches"));
  REQUIRE_THROWS_WHAT(
      e.queue.read_rect(buf, anycl::rect_side{{0, 0, 0}, 10, 25}, host.data(), {}, {10, 2, 2}),
      std::invalid_argument, Contains("a multiple of the row pitch"));
  // A box that ends past the buffer, by its origin or by its region.
  REQUIRE_THROWS_WHAT(
      e.queue.read_rect(buf, anycl::rect_side{{1, 0, 3}, 100, 300}, host.data(), {}, {100, 1, 1}),
      std::out_of_range,
      Contains("read_rect: the buffer box (origin {1, 0, 3}, region {100, 1, 1}, "
               "row pitch 100, slice pitch 300) ends past the 1000-byte buffer"));
  REQUIRE_THROWS_WHAT(
      e.queue.copy_rect(buf, {}, other, anycl::rect_side{{1, 0, 0}, 0, 0}, {1000, 1, 1}),
      std::out_of_range, Contains("copy_rect: the destination box"));
  const std::size_t huge = ~std::size_t{0};
  REQUIRE_THROWS_AS(
      e.queue.read_rect(buf, anycl::rect_side{{0, huge, 0}, 4, 0}, host.data(), {}, {4, 1, 1}),
      std::out_of_range);
  // Null host memory, a copy within one buffer with other pitches or overlapping boxes.
  REQUIRE_THROWS_WHAT(e.queue.read_rect(buf, {}, nullptr, {}, {4, 1, 1}), std::invalid_argument,
                      Contains("read_rect: null host pointer"));
  REQUIRE_THROWS_WHAT(e.queue.write_rect(buf, {}, nullptr, {}, {4, 1, 1}), std::invalid_argument,
                      Contains("write_rect: null host pointer"));
  REQUIRE_THROWS_WHAT(e.queue.copy_rect(buf, anycl::rect_side{{0, 0, 0}, 10, 0}, buf,
                                        anycl::rect_side{{0, 0, 5}, 20, 0}, {10, 2, 1}),
                      std::invalid_argument,
                      Contains("copy_rect: within one buffer the pitches must be equal"));
  REQUIRE_THROWS_WHAT(e.queue.copy_rect(buf, anycl::rect_side{{0, 0, 0}, 16, 0}, buf,
                                        anycl::rect_side{{4, 1, 0}, 16, 0}, {8, 2, 1}),
                      std::invalid_argument, Contains("overlap in the same buffer"));
  // Boxes that wrap past their rows are compared as byte ranges.
  REQUIRE_THROWS_WHAT(e.queue.copy_rect(buf, anycl::rect_side{{0, 0, 0}, 16, 0}, buf,
                                        anycl::rect_side{{12, 0, 0}, 16, 0}, {10, 2, 1}),
                      std::invalid_argument, Contains("overlap"));
  REQUIRE_THROWS_WHAT(anycl::command_queue().read_rect(buf, {}, host.data(), {}, {1, 1, 1}),
                      std::invalid_argument, Contains("command_queue: the queue is empty"));
  // The buffer is unchanged and still reads: a 2-D box of 3 rows of 5 bytes from pitch 10.
  CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(buf)) == start);
  std::vector<std::uint8_t> box(15), want;
  e.queue.read_rect(buf, anycl::rect_side{{2, 1, 0}, 10, 0}, box.data(), {}, {5, 3, 1});
  for (std::size_t y = 1; y < 4; ++y)
    for (std::size_t x = 2; x < 7; ++x) want.push_back(start[y * 10 + x]);
  CHECK(box == want);
}

TEST_CASE(
    "B-71 buffers over host memory that is null, misaligned or too large are refused before the "
    "driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 takes misaligned memory (and works in it); Oclgrind takes a 1 TiB buffer over 256
  // bytes of host memory, and both give CL_INVALID_HOST_PTR for null memory. AnyCL names the
  // alignment, the device and the limit.
  const std::size_t align = anycl::buffer::host_alignment(e.ctx);
  const std::unique_ptr<int, void (*)(void*)> mem(
      static_cast<int*>(std::aligned_alloc(align, 4 * align)), std::free);
  REQUIRE(mem != nullptr);
  std::fill(mem.get(), mem.get() + align, 5);
  REQUIRE_THROWS_WHAT(anycl::buffer::use_host(e.ctx, nullptr, 64, anycl::borrowed),
                      std::invalid_argument,
                      Contains("buffer::use_host: null host memory for 64 bytes"));
  if (align > 1)
    REQUIRE_THROWS_WHAT(
        anycl::buffer::use_host(e.ctx, reinterpret_cast<char*>(mem.get()) + 1, 64, anycl::borrowed),
        std::invalid_argument,
        Contains("is not aligned to " + std::to_string(align) + " bytes") &&
            Contains("CL_DEVICE_MEM_BASE_ADDR_ALIGN of '" + e.dev.name() + "'") &&
            Contains("std::aligned_alloc"));
  const std::uint64_t limit = e.dev.max_alloc();
  const auto too_big = static_cast<std::size_t>(limit) + 1;
  REQUIRE_THROWS_WHAT(anycl::buffer::use_host(e.ctx, mem.get(), too_big, anycl::borrowed),
                      anycl::api_error,
                      Contains("clCreateBuffer failed: CL_INVALID_BUFFER_SIZE") &&
                          Contains("CL_DEVICE_MAX_MEM_ALLOC_SIZE of " + std::to_string(limit)));
  REQUIRE_THROWS_WHAT(anycl::buffer::alloc_host(e.ctx, too_big), anycl::api_error,
                      Contains("CL_INVALID_BUFFER_SIZE") && Contains("checked before the call"));
  REQUIRE_THROWS_WHAT(anycl::buffer::use_host(anycl::context(), mem.get(), 64, anycl::borrowed),
                      std::invalid_argument, Contains("buffer::use_host: the context is empty"));
  REQUIRE_THROWS_WHAT(anycl::buffer::alloc_host(anycl::context(), 64), std::invalid_argument,
                      Contains("buffer::alloc_host: the context is empty"));
  REQUIRE_THROWS_WHAT(anycl::buffer::host_alignment(anycl::context()), std::invalid_argument,
                      Contains("the context is empty"));
  // The memory is untouched and still makes a working buffer.
  anycl::buffer b = anycl::buffer::use_host(e.ctx, mem.get(), align, anycl::borrowed);
  e.queue.fill(anycl::buffer_view<int>(b), 9).wait();
  std::vector<int> back(align / sizeof(int));
  e.queue.read(anycl::buffer_view<int>(b), back.data());
  CHECK(back == std::vector<int>(align / sizeof(int), 9));
}

TEST_CASE(
    "B-72 compiles, links and IL programs with bad parts, headers or bytes are refused before "
    "the driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 crashes (SIGSEGV) in clCompileProgram on a null header program or null header names,
  // fails a link of another context's part or of an undefined function with
  // CL_LINK_PROGRAM_FAILURE and no program to read a log from, and answers clCreateProgramWithIL
  // with CL_INVALID_VALUE: AnyCL builds the header programs itself and checks the rest first.
  const char* const fn = "float twice(float x) { return 2.0f * x; }";
  anycl::program part(e.ctx, fn, "twice.cl");
  part.compile();
  anycl::program source_only(e.ctx, fn, "source.cl");
  anycl::program built(e.ctx, fn, "built.cl");
  built.build();
  anycl::test::env other(anycl::test::fresh_context);
  anycl::program theirs(other.ctx, fn, "theirs.cl");
  theirs.compile();
  using anycl::program;
  REQUIRE_THROWS_WHAT(program::link(e.ctx, {}), std::invalid_argument,
                      Contains("program::link: no programs to link"));
  REQUIRE_THROWS_WHAT(program::link(e.ctx, {part, program()}), std::invalid_argument,
                      Contains("part 1 is empty (default-constructed)"));
  REQUIRE_THROWS_WHAT(program::link(e.ctx, {part, source_only}), std::invalid_argument,
                      Contains("part 1 ('source.cl') is neither compiled nor built on '" +
                               e.dev.name() + "'; link takes compiled programs"));
  REQUIRE_THROWS_WHAT(program::link(e.ctx, {built}), std::invalid_argument,
                      Contains("part 0 ('built.cl') is an executable (built)"));
  REQUIRE_THROWS_WHAT(program::link(e.ctx, {part, theirs}), std::invalid_argument,
                      Contains("part 1 ('theirs.cl') belongs to another context"));
  REQUIRE_THROWS_WHAT(program::link(anycl::context(), {part}), std::invalid_argument,
                      Contains("program::link: the context is empty"));
  // Headers: empty or repeated names, a NUL byte; an empty program.
  anycl::program user(e.ctx, "#include \"h.h\"\nfloat g(float x) { return H * x; }", "user.cl");
  REQUIRE_THROWS_WHAT(user.compile({}, {{"", "#define H 1"}}), std::invalid_argument,
                      Contains("an embedded header has an empty name"));
  REQUIRE_THROWS_WHAT(user.compile({}, {{"h.h", "#define H 1"}, {"h.h", "#define H 2"}}),
                      std::invalid_argument, Contains("the embedded header 'h.h' is given twice"));
  REQUIRE_THROWS_WHAT(user.compile({}, {{"h.h", std::string("#define H 1\0x", 13)}}),
                      std::invalid_argument, Contains("NUL byte"));
  REQUIRE_THROWS_WHAT(program().compile(), std::invalid_argument, Contains("is empty"));
  // Options the compiler or the linker refuse: the driver's status, in a build_error.
  REQUIRE_THROWS_WHAT(
      user.compile(anycl::build_options{}.flag("-no-such-option"), {{"h.h", "#define H 1"}}),
      anycl::build_error, Contains("clCompileProgram failed: CL_INVALID_COMPILER_OPTIONS"));
  REQUIRE_THROWS_WHAT(
      program::link(e.ctx, {part}, anycl::build_options{}.flag("-no-such-option")),
      anycl::build_error,
      Contains("clLinkProgram failed: CL_INVALID_LINKER_OPTIONS") && Contains("-create-library"));
  // IL: a device that reports none (POCL 3.1, Oclgrind), no bytes, an empty context.
  const std::vector<unsigned char> spirv_magic{0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0};
  if (e.dev.info<std::string>(CL_DEVICE_IL_VERSION).find_first_not_of(' ') == std::string::npos)
    REQUIRE_THROWS_WHAT(program::from_il(e.ctx, spirv_magic, "k.spv"), std::invalid_argument,
                        Contains("device '" + e.dev.name() +
                                 "' reports no intermediate language in CL_DEVICE_IL_VERSION") &&
                            Contains("'k.spv'"));
  REQUIRE_THROWS_WHAT(program::from_il(e.ctx, {}, "none.spv"), std::invalid_argument,
                      Contains("'none.spv' holds no bytes"));
  REQUIRE_THROWS_WHAT(program::from_il(anycl::context(), spirv_magic), std::invalid_argument,
                      Contains("the context is empty"));
  // The parts still link and run after all of that.
  user.compile({}, {{"h.h", "#define H 3.0f"}});
  anycl::program k(e.ctx,
                   "float twice(float x); float g(float x);\n"
                   "kernel void k(global float* y) { size_t i = get_global_id(0); "
                   "y[i] = twice(g(y[i])); }",
                   "k.cl");
  k.compile();
  anycl::program linked = program::link(e.ctx, {part, user, k});
  std::vector<float> host{1, 2, 3, 4};
  auto buf = anycl::buffer::from(e.ctx, host);
  linked.function<anycl::buffer_view<float>>("k")(e.queue, anycl::nd_range{4}, buf).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(buf)) == std::vector<float>{6, 12, 18, 24});
}

TEST_CASE(
    "B-73 command buffers with bad commands, indices or modes are refused when recorded, before "
    "the driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 (cl_khr_command_buffer 0.9.0) crashes (SIGSEGV) recording a kernel whose arguments
  // are not all set, or a command waiting on an unknown sync point; it reads a kernel's arguments
  // at each replay, not when recorded. AnyCL records every argument (kernel_function's arity),
  // makes the sync points itself and records a private copy of each kernel.
  anycl::program prog(e.ctx, "kernel void add(global int* a, int v) { a[get_global_id(0)] += v; }",
                      "b73.cl");
  prog.build();
  auto add = prog.function<anycl::buffer_view<int>, int>("add");
  anycl::program other_prog(e.ctx, "kernel void add(global int* a, int v) { a[0] = v; }", "o.cl");
  other_prog.build();
  auto other = other_prog.function<anycl::buffer_view<int>, int>("add");
  anycl::buffer a = anycl::buffer::from(e.ctx, std::vector<int>(64, 1));
  anycl::command_buffer cb(e.queue);
  const std::size_t fill = cb.fill(anycl::buffer_view<int>(a), 5);
  const std::size_t launch = cb.launch(add, anycl::nd_range{64}, a, 2);
  REQUIRE_THROWS_WHAT(cb.copy_bytes(a, 0, a, 128, 200), std::out_of_range,
                      Contains("copy destination: range [128, 128 + 200) exceeds the size 256"));
  REQUIRE_THROWS_WHAT(cb.copy_bytes(a, 0, a, 64, 128), std::invalid_argument,
                      Contains("overlap in the same buffer"));
  REQUIRE_THROWS_WHAT(cb.copy(anycl::buffer_view<int>(a, 0, 4), anycl::buffer_view<int>(a, 8, 5)),
                      std::invalid_argument, Contains("source of 4 elements, destination of 5"));
  REQUIRE_THROWS_WHAT(cb.fill_bytes(a, 0, 12, "abc", 3), std::invalid_argument,
                      Contains("pattern size 3 is not a power of two"));
  REQUIRE_THROWS_WHAT(cb.fill_bytes(a, 2, 8, "abcd", 4), std::invalid_argument,
                      Contains("must be multiples of the pattern size 4"));
  // A range the device refuses: a local size that does not divide the global one.
  REQUIRE_THROWS_AS(cb.launch(add, anycl::nd_range{{64}, {7}}, a, 2), std::invalid_argument);
  REQUIRE_THROWS_WHAT(cb.update(fill, add, a, 3), std::out_of_range,
                      Contains("command 0 of 2 is not a launch"));
  REQUIRE_THROWS_WHAT(cb.update(9, add, a, 3), std::out_of_range, Contains("command 9 of 2"));
  REQUIRE_THROWS_WHAT(cb.update(launch, other, a, 3), std::invalid_argument,
                      Contains("launches another kernel than the one given"));
  REQUIRE_THROWS_WHAT(anycl::command_buffer().enqueue(), std::invalid_argument,
                      Contains("command_buffer: empty (default-constructed)"));
  REQUIRE_THROWS_WHAT(anycl::command_buffer(anycl::command_queue()), std::invalid_argument,
                      Contains("the queue is empty"));
  {
    anycl::test::scoped_env bad("ANYCL_COMMAND_BUFFER", "sometimes");
    REQUIRE_THROWS_WHAT(anycl::command_buffer(e.queue), std::invalid_argument,
                        Contains("ANYCL_COMMAND_BUFFER is 'sometimes', expected auto, native or "
                                 "emulated"));
  }
  // The recording is intact: 5, then + 2, at each replay; recording ends there.
  cb.enqueue().wait();
  CHECK(e.queue.read(anycl::buffer_view<int>(a)) == std::vector<int>(64, 7));
  REQUIRE_THROWS_WHAT(cb.fill(anycl::buffer_view<int>(a), 1), std::logic_error,
                      Contains("command_buffer::fill: the commands are fixed after the first "
                               "enqueue()"));
  cb.update(launch, add, a, 4);
  cb.enqueue().wait();
  CHECK(e.queue.read(anycl::buffer_view<int>(a)) == std::vector<int>(64, 9));
}

TEST_CASE(
    "B-74 SVM allocations, transfers and arguments outside their memory or context are refused "
    "before the driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 crashes (SIGSEGV) on a null fill pattern, copies and fills past an allocation's end
  // without a word, takes host memory, freed memory and pointers past the end as SVM arguments,
  // and returns a null pointer without a reason from clSVMAlloc. AnyCL checks each end against its
  // allocation and context, and names the limit or capability.
  anycl::program prog(e.ctx, "kernel void k(global int* a) { a[0] = 1; }", "b74.cl");
  prog.build();
  auto k = prog.function<anycl::svm_ptr<int>>("k");
  anycl::svm_buffer<int> a(e.ctx, 64), b(e.ctx, 64);
  int host[4] = {1, 2, 3, 4};
  REQUIRE_THROWS_WHAT(e.queue.svm_fill_bytes(a.memory(), a.data(), 8, nullptr, 4),
                      std::invalid_argument, Contains("svm_fill: null pattern"));
  REQUIRE_THROWS_WHAT(e.queue.svm_fill(a.ptr(60), 1, 8), std::out_of_range,
                      Contains("svm_fill: 32 bytes at"));
  REQUIRE_THROWS_WHAT(e.queue.svm_copy(b.ptr(62), a, 4), std::out_of_range,
                      Contains("svm copy destination: 16 bytes"));
  REQUIRE_THROWS_WHAT(e.queue.svm_read(host, a.ptr(62), 4), std::out_of_range,
                      Contains("do not lie within the SVM allocation of 256 bytes"));
  REQUIRE_THROWS_WHAT(e.queue.svm_fill_bytes(a.memory(), a.data(), 12, "abc", 3),
                      std::invalid_argument, Contains("pattern size 3 is not a power of two"));
  REQUIRE_THROWS_WHAT(
      e.queue.svm_fill_bytes(a.memory(), reinterpret_cast<char*>(a.data()) + 1, 8, "abcd", 4),
      std::invalid_argument, Contains("offset 1 and size 8 must be multiples of the pattern"));
  REQUIRE_THROWS_WHAT(e.queue.svm_copy(a.ptr(1), a, 8), std::invalid_argument,
                      Contains("of 32 bytes overlap"));
  REQUIRE_THROWS_WHAT(e.queue.svm_read(static_cast<int*>(nullptr), a, 4), std::invalid_argument,
                      Contains("svm_read: null host pointer"));
  REQUIRE_THROWS_WHAT(e.queue.svm_write(a, static_cast<const int*>(nullptr), 4),
                      std::invalid_argument, Contains("svm_write: null host pointer"));
  REQUIRE_THROWS_WHAT(e.queue.svm_map(a.ptr(32), 33), std::out_of_range,
                      Contains("svm_map: 132 bytes"));
  REQUIRE_THROWS_WHAT(a.ptr(65), std::out_of_range, Contains("svm_ptr +: 260 bytes"));
  REQUIRE_THROWS_WHAT(anycl::svm_ptr<int>(a.memory(), host), std::out_of_range,
                      Contains("svm_ptr: 0 bytes at"));
  // Another context's allocation, as an argument, a transfer's end and an indirect allocation.
  anycl::test::env other(anycl::test::fresh_context);
  anycl::svm_buffer<int> foreign(other.ctx, 64);
  REQUIRE_THROWS_WHAT(k(e.queue, anycl::nd_range{1}, foreign), std::invalid_argument,
                      Contains("SVM argument 0: the SVM allocation belongs to another context"));
  REQUIRE_THROWS_WHAT(e.queue.svm_copy(a, foreign, 4), std::invalid_argument,
                      Contains("svm copy source: the SVM allocation belongs to another context"));
  REQUIRE_THROWS_WHAT(k.kernel().use_svm({foreign.memory()}), std::invalid_argument,
                      Contains("kernel::use_svm of kernel 'k': the SVM allocation belongs"));
  REQUIRE_THROWS_WHAT(k.kernel().use_svm({anycl::svm_memory()}), std::invalid_argument,
                      Contains("an empty SVM allocation"));
  // Sizes: past the device's allocation limit, past size_t, in an empty context.
  const cl_ulong limit = e.dev.max_alloc();
  REQUIRE_THROWS_WHAT(anycl::svm_memory(e.ctx, static_cast<std::size_t>(limit) + 1),
                      anycl::api_error,
                      Contains("clSVMAlloc failed: CL_INVALID_BUFFER_SIZE (-61)") &&
                          Contains("exceed CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
  REQUIRE_THROWS_WHAT(anycl::svm_buffer<double>(e.ctx, static_cast<std::size_t>(-1) / 4),
                      std::length_error, Contains("overflow size_t"));
  REQUIRE_THROWS_WHAT(anycl::svm_memory(anycl::context(), 64), std::invalid_argument,
                      Contains("svm_memory: the context is empty"));
  // A device without the kind asked for: the capabilities named, and what to use instead.
  anycl::svm_support coarse_only;
  coarse_only.coarse_grain_buffer = true;
  REQUIRE_THROWS_WHAT(coarse_only.require(anycl::svm_kind::fine_grain, "dev", "svm_memory"),
                      std::invalid_argument,
                      Contains("svm_memory: device 'dev' has no fine-grained buffer SVM "
                               "(CL_DEVICE_SVM_CAPABILITIES: coarse-grained buffer); allocate "
                               "svm_kind::coarse_grain and map it"));
  REQUIRE_THROWS_WHAT(anycl::svm_support{}.require(anycl::svm_kind::coarse_grain, "old", "x"),
                      std::invalid_argument,
                      Contains("(CL_DEVICE_SVM_CAPABILITIES: none); use buffers"));
  // The allocations are intact: a launch and a read still work.
  k(e.queue, anycl::nd_range{1}, a).wait();
  CHECK(e.queue.svm_read(a, 1)[0] == 1);
}

TEST_CASE(
    "B-75 images and samplers with bad formats, sizes, boxes, pitches or modes are refused before "
    "the driver",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1 reads into host rows narrower than the box's (a heap overflow), takes any value as
  // a sampler's addressing mode, refuses a sampler without a property list (CL_INVALID_VALUE),
  // crashes (SIGSEGV) launching a kernel given a buffer for an image or an image for a sampler,
  // and aborts recording a sampler argument into a command buffer. AnyCL checks formats, extents,
  // boxes, pitches and modes first, names every image and sampler argument's type in
  // kernel_function, and emulates command buffers that take samplers.
  using anycl::image_type;
  const anycl::image_format r_float{CL_R, CL_FLOAT};
  anycl::image img(e.ctx, image_type::image2d, r_float, {16, 8, 1, 1});
  std::vector<float> host(16 * 8 * 2);
  REQUIRE_THROWS_WHAT(e.queue.read_image(img, {0, 0, 0}, {16, 8, 1}, host.data(), 8),
                      std::invalid_argument,
                      Contains("read_image: row pitch 8 is below a row of 16 pixels (64 bytes)"));
  REQUIRE_THROWS_WHAT(
      e.queue.read_image(img, {1, 0, 0}, {16, 8, 1}, host.data()), std::out_of_range,
      Contains("box at (1, 0, 0) of (16, 8, 1) exceeds the 2-D image of (16, 8, 1)"));
  REQUIRE_THROWS_AS(e.queue.read_image(img, {0, 0, 1}, {16, 8, 1}, host.data()), std::out_of_range);
  REQUIRE_THROWS_WHAT(e.queue.read_image(img, {0, 0, 0}, {16, 8, 1}, nullptr),
                      std::invalid_argument, Contains("read_image: null host pointer"));
  REQUIRE_THROWS_WHAT(e.queue.write_image(img, {0, 0, 0}, {16, 8, 1}, host.data(), 0, 1024),
                      std::invalid_argument, Contains("a slice pitch for a 2-D image"));
  REQUIRE_THROWS_WHAT(e.queue.read_image(anycl::image(), {0, 0, 0}, {1, 1, 1}, host.data()),
                      std::invalid_argument, Contains("read_image: the image is empty"));
  // Formats and extents.
  REQUIRE_THROWS_WHAT(
      anycl::image(e.ctx, image_type::image2d, {CL_RGBA, CL_UNORM_SHORT_565}, {4, 4, 1, 1}),
      std::invalid_argument,
      Contains("format CL_RGBA/CL_UNORM_SHORT_565 is not supported for a 2-D image "
               "here; supported: ") &&
          Contains("CL_R/CL_FLOAT"));
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image2d, {0x1234, CL_FLOAT}, {4, 4, 1, 1}),
                      std::invalid_argument,
                      Contains("channel order 4660 is not one OpenCL defines"));
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image2d, r_float, {0, 4, 1, 1}),
                      std::invalid_argument, Contains("image: width 0 (at least 1)"));
  const std::size_t max_w = e.dev.info<std::size_t>(CL_DEVICE_IMAGE2D_MAX_WIDTH);
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image2d, r_float, {max_w + 1, 4, 1, 1}),
                      std::invalid_argument,
                      Contains("width " + std::to_string(max_w + 1) + " exceeds"));
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image1d, r_float, {4, 4, 1, 1}),
                      std::invalid_argument,
                      Contains("a 1-D image has no height (4 given; leave it 1)"));
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image2d_array, r_float, {4, 4, 1, 0}),
                      std::invalid_argument, Contains("image: layer count 0"));
  REQUIRE_THROWS_WHAT(anycl::image(e.ctx, image_type::image2d, r_float, {4, 4, 1, 1}, nullptr, 64),
                      std::invalid_argument, Contains("pitches given without host data"));
  REQUIRE_THROWS_WHAT(anycl::image(anycl::context(), image_type::image2d, r_float, {4, 4, 1, 1}),
                      std::invalid_argument, Contains("image: the context is empty"));
  // Copies, fills, maps.
  anycl::image other(e.ctx, image_type::image2d, {CL_RGBA, CL_UNORM_INT8}, {16, 8, 1, 1});
  REQUIRE_THROWS_WHAT(e.queue.copy_image(img, {0, 0, 0}, other, {0, 0, 0}, {4, 4, 1}),
                      std::invalid_argument,
                      Contains("formats differ (CL_R/CL_FLOAT to CL_RGBA/CL_UNORM_INT8)"));
  REQUIRE_THROWS_WHAT(e.queue.copy_image(img, {0, 0, 0}, img, {2, 2, 0}, {4, 4, 1}),
                      std::invalid_argument, Contains("the boxes overlap in the same image"));
  REQUIRE_THROWS_WHAT(
      e.queue.fill_image(img, cl_uint4{{1, 2, 3, 4}}, {0, 0, 0}, {4, 4, 1}), std::invalid_argument,
      Contains("a cl_uint4 color for a CL_R/CL_FLOAT image, which takes a cl_float4"));
  REQUIRE_THROWS_AS(e.queue.fill_image(img, cl_float4{{1, 0, 0, 0}}, {0, 0, 0}, {17, 8, 1}),
                    std::out_of_range);
  REQUIRE_THROWS_AS(e.queue.map_image(img, {8, 0, 0}, {9, 8, 1}), std::out_of_range);
  // Samplers, and sampler arguments.
  REQUIRE_THROWS_WHAT(
      anycl::sampler(e.ctx, false, anycl::addressing_mode::repeat, anycl::filter_mode::nearest),
      std::invalid_argument, Contains("need normalized coordinates"));
  REQUIRE_THROWS_WHAT(anycl::sampler(anycl::context(), true, anycl::addressing_mode::clamp,
                                     anycl::filter_mode::linear),
                      std::invalid_argument, Contains("sampler: the context is empty"));
  anycl::program prog(e.ctx,
                      "kernel void k(read_only image2d_t i, sampler_t s, global float* o) {\n"
                      "  o[0] = read_imagef(i, s, (float2)(0.5f, 0.5f)).x; }",
                      "b75.cl");
  prog.build(anycl::build_options{}.flag("-cl-kernel-arg-info"));  // the parameters' types kept
  auto k = prog.function<anycl::image, anycl::sampler, anycl::buffer_view<float>>("k");
  anycl::buffer out(e.ctx, sizeof(float));
  // Typed parameters that are not the kernel's images and samplers (POCL crashes launching them),
  // found where the driver keeps argument info.
  REQUIRE_THROWS_WHAT(
      (prog.function<anycl::buffer_view<float>, anycl::sampler, anycl::buffer_view<float>>("k")),
      std::invalid_argument,
      Contains("parameter 0 is an image, and the kernel_function type gives neither an image nor "
               "a sampler there"));
  REQUIRE_THROWS_WHAT((prog.function<anycl::image, anycl::image, anycl::buffer_view<float>>("k")),
                      std::invalid_argument,
                      Contains("parameter 1 is a sampler, and the kernel_function type "
                               "gives an image there"));
  REQUIRE_THROWS_WHAT(k(e.queue, anycl::nd_range{1}, img, anycl::sampler(), out),
                      std::invalid_argument, Contains("argument 1 is an empty sampler"));
  anycl::sampler s(e.ctx, false, anycl::addressing_mode::clamp, anycl::filter_mode::nearest);
  try {
    anycl::command_buffer native(e.queue, anycl::command_buffer_mode::native);
    REQUIRE_THROWS_WHAT(
        native.launch(k, anycl::nd_range{1}, img, s, out), std::invalid_argument,
        Contains("a launch with a sampler argument, which drivers crash recording"));
  } catch (const std::invalid_argument&) {
    // no native command buffers on this device: nothing to refuse
  }
  // The image and sampler still work.
  e.queue.fill_image(img, cl_float4{{2.5f, 0, 0, 0}}, {0, 0, 0}, img.region());
  k(e.queue, anycl::nd_range{1}, img, s, out).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(out))[0] == 2.5f);
}

TEST_CASE(
    "B-76 host-library calls see each buffer's own memory: fresh, shared by two operands, or a "
    "sub-buffer",
    "[catalogue]") {
  anycl::test::env e;
  // POCL 3.1's clEnqueueNativeKernel takes the addresses of its memory list when the command is
  // enqueued: a buffer whose first use is still pending has none yet (a gemv wrote into another
  // array), a buffer listed twice gets a wrong one, and a sub-buffer at an offset is refused
  // (CL_INVALID_MEM_OBJECT). AnyCL's host tasks map each distinct buffer after the wait list.
  namespace blas = anycl::blas;
  if (!blas::uses_host_library(e.dev)) {
    WARN("the device under test has no host-library path; B-76 has nothing to run");
    return;
  }
  const std::vector<float> hx{1, 2, 3, 4, 5, 6, 7, 8};
  auto x = anycl::buffer::from(e.ctx, hx);
  // y's first command is a fill that waits on a gate: y has no memory when axpy is enqueued.
  anycl::buffer y(e.ctx, 8 * sizeof(float));
  anycl::user_event gate(e.ctx);
  e.queue.fill(anycl::buffer_view<float>(y), 10.0f, gate);
  const auto done =
      blas::axpy(e.queue, 2.0f, blas::vector_view<float>(anycl::buffer_view<float>(x)),
                 blas::vector_view<float>(anycl::buffer_view<float>(y)));
  gate.set_complete();
  done.wait();
  std::vector<float> want(8);
  for (std::size_t i = 0; i < 8; ++i) want[i] = 10.0f + 2.0f * hx[i];
  CHECK(e.queue.read(anycl::buffer_view<float>(y)) == want);
  // Two operands in one buffer: copy its first half onto its second.
  blas::copy(e.queue, blas::vector_view<float>(anycl::buffer_view<float>(y, 0, 4)),
             blas::vector_view<float>(anycl::buffer_view<float>(y, 4, 4)))
      .wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(y, 4, 4)) ==
        std::vector<float>(want.begin(), want.begin() + 4));
  // A sub-buffer at an aligned offset as x.
  const std::size_t align = std::max<std::size_t>(e.dev.base_address_alignment(), 4);
  std::vector<float> big(align / 4 + 8, 0.0f);
  for (std::size_t i = 0; i < 8; ++i) big[align / 4 + i] = hx[i];
  auto parent = anycl::buffer::from(e.ctx, big);
  auto sub = parent.sub_buffer(align, 8 * sizeof(float));
  auto z = anycl::buffer::from(e.ctx, std::vector<float>(8, 0.0f));
  blas::axpy(e.queue, 1.0f, blas::vector_view<float>(anycl::buffer_view<float>(sub)),
             blas::vector_view<float>(anycl::buffer_view<float>(z)))
      .wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(z)) == hx);
}
