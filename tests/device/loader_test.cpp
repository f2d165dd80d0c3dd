// SPDX-License-Identifier: Apache-2.0
// kernel_loader: search order, #include splicing and #line mapping, bad files, the disk cache
// (hits, invalidation, every corruption case), binary-only mode and concurrent loads.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "cache/key.hpp"
#include "support/device_fixture.hpp"
#include "support/files.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

using anycl::test::read_bytes;
using anycl::test::run_value;
using anycl::test::scoped_env;
using anycl::test::search_only;
using anycl::test::write_bytes;
using anycl::test::write_file;
/// A scratch folder named for these tests.
struct temp_dir : anycl::test::temp_folder {
  temp_dir() : temp_folder("loader") {}
};

namespace {

std::size_t count_text(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// The files in `d` other than build locks (`.lock`, see locks(), held while an entry is built).
std::vector<std::string> entries(const temp_dir& d) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(d.path()))
    if (e.path().extension() != ".lock") out.push_back(e.path().string());
  return out;
}

/// The build lock files in `d`.
std::size_t locks(const temp_dir& d) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(d.path())) n += e.path().extension() == ".lock";
  return n;
}

const std::string value_kernel =
    "#include \"value.h\"\n"
    "kernel void value(global int* out) { out[0] = VALUE; }\n";

}  // namespace

// --- search path ---
TEST_CASE("kernel_loader: folders in code, then ANYCL_KERNEL_PATH, then the embedded copy",
          "[loader]") {
  anycl::test::env e;
  temp_dir a, b;
  write_file(a / "order.cl", "// a\n");
  write_file(b / "order.cl", "// b\n");
  write_file(b / "only_b.cl", "// b\n");
  scoped_env env("ANYCL_KERNEL_PATH", "::" + b.str() + ":");

  anycl::loader_options o;
  o.search_path = {a.str()};
  anycl::kernel_loader loader(e.ctx, o);
  auto path = loader.search_path();
  REQUIRE(path.size() >= 2);
  CHECK(path[0] == a.str());
  CHECK(path[1] == b.str());  // empty ':' parts are skipped
  CHECK(loader.locate("order.cl") == a / "order.cl");
  CHECK(loader.locate("only_b.cl") == b / "only_b.cl");
  CHECK(loader.locate("anycl/demo.cl") == "embedded:anycl/demo.cl");

  o.search_path = {b.str(), a.str()};
  CHECK(anycl::kernel_loader(e.ctx, o).locate("order.cl") == b / "order.cl");
  o.search_path.clear();
  CHECK(anycl::kernel_loader(e.ctx, o).locate("order.cl") == b / "order.cl");
  o.use_environment = false;
  REQUIRE_THROWS_AS(anycl::kernel_loader(e.ctx, o).locate("order.cl"), anycl::source_error);

  // A file on the search path shadows the library's embedded copy.
  write_file(a / "anycl/demo.cl", "// mine\n");
  o.search_path = {a.str()};
  CHECK(anycl::kernel_loader(e.ctx, o).locate("anycl/demo.cl") == a / "anycl/demo.cl");
}

TEST_CASE("kernel_loader: a file found nowhere names every place looked in", "[loader]") {
  anycl::test::env e;
  temp_dir a;
  anycl::kernel_loader loader(e.ctx, search_only(a));
  REQUIRE_THROWS_WHAT(loader.load("nope.cl"), anycl::source_error,
                      Contains("'nope.cl' not found") && Contains(a.str()) &&
                          Contains("embedded cl_kernels/") && Contains("ANYCL_KERNEL_PATH"));
  REQUIRE_THROWS_AS(anycl::kernel_loader(anycl::context{}), std::invalid_argument);
}

// --- includes ---
TEST_CASE("kernel_loader: nested and relative #includes are spliced with #line markers",
          "[loader][include]") {
  anycl::test::env e;
  temp_dir d, extra;
  write_file(d / "main.cl",
             "// main\n#include \"inc/a.h\"\nkernel void value(global int* out) { out[0] = A + "
             "B + C; }\n");
  write_file(d / "inc/a.h", "#include \"b.h\"\n#define A 1\n");   // b.h next to a.h
  write_file(d / "inc/b.h", "#include \"c.h\"\n#define B 10\n");  // c.h from include_dir
  write_file(extra / "c.h", "#define C 100\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  auto options = anycl::build_options{}.include_dir(extra.str());
  auto src = loader.resolve("main.cl", options);
  CHECK(src.name == d / "main.cl");
  CHECK(src.files ==
        std::vector<std::string>{d / "main.cl", d / "inc/a.h", d / "inc/b.h", extra / "c.h"});
  CHECK_THAT(src.text, Contains("#line 1 \"" + d / "inc/b.h" + "\"\n#line 1 \"" + extra / "c.h" +
                                "\"\n#define C 100\n#line 2 \"" + d / "inc/b.h" + "\"\n"));
  CHECK_THAT(src.text, Contains("#line 3 \"" + d / "main.cl" + "\"\nkernel void value"));
  CHECK(run_value(e, loader.load("main.cl", options), "value") == 111);
}

TEST_CASE("kernel_loader: #pragma once and guarded cycles splice a file once",
          "[loader][include]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "once.h", "#pragma once\nconstant int once_value = 5;\n");
  write_file(d / "g1.h", "#ifndef G1\n#define G1\n#include \"g2.h\"\n#define V1 1\n#endif\n");
  write_file(d / "g2.h", "#ifndef G2\n#define G2\n#include \"g1.h\"\n#define V2 2\n#endif\n");
  write_file(d / "main.cl",
             "#include \"once.h\"\n#include \"once.h\"\n#include \"g1.h\"\n"
             "kernel void value(global int* out) { out[0] = once_value + V1 + V2; }\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  auto src = loader.resolve("main.cl");
  CHECK(count_text(src.text, "constant int once_value") == 1);
  CHECK(count_text(src.text, "#define V2 2") == 1);
  CHECK(run_value(e, loader.load("main.cl"), "value") == 8);
}

TEST_CASE("kernel_loader: an unguarded #include cycle names the files and lines",
          "[loader][include]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "main.cl", "#include \"a.h\"\n");
  write_file(d / "a.h", "// a\n#include \"b.h\"\n");
  write_file(d / "b.h", "#include \"a.h\"\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  try {
    loader.resolve("main.cl");
    FAIL("a cycle was accepted");
  } catch (const anycl::source_error& err) {
    CHECK(err.path() == d / "b.h");
    CHECK(err.line() == 1);
    CHECK_THAT(err.what(), Contains("include cycle") && Contains(d / "a.h" + ":2") &&
                               Contains("add an include guard or #pragma once"));
  }
}

TEST_CASE("kernel_loader: a missing #include names the including file and line",
          "[loader][include]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "main.cl", "// one\n// two\n#include \"nope.h\"\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  try {
    loader.load("main.cl");
    FAIL("a missing include was accepted");
  } catch (const anycl::source_error& err) {
    CHECK(err.path() == d / "main.cl");
    CHECK(err.line() == 3);
    CHECK_THAT(err.what(), Contains(d / "main.cl" + ":3: #include \"nope.h\": file not found"));
    CHECK(count_text(err.what(), d.str() + ",") == 1);  // its folder is on the search path too
  }
  // An <...> include that is not found is left to the compiler, unchanged.
  write_file(d / "angle.cl", "#include <not_ours.h>\n");
  CHECK_THAT(loader.resolve("angle.cl").text, Contains("#include <not_ours.h>\n"));
}

TEST_CASE("kernel_loader: includes nested past the limit are refused", "[loader][include]") {
  anycl::test::env e;
  temp_dir d;
  for (int i = 0; i < 70; ++i)
    write_file(d / ("n" + std::to_string(i) + ".h"),
               "#include \"n" + std::to_string(i + 1) + ".h\"\n");
  write_file(d / "n70.h", "\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  REQUIRE_THROWS_WHAT(loader.resolve("n0.h"), anycl::source_error,
                      Contains("nests deeper than 64 files"));
}

TEST_CASE("kernel_loader: the build log points at the original file and line",
          "[loader][include][build]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "err.h", "// line 1\n// line 2\nint broken_here = undeclared_name;\n");
  write_file(d / "main.cl", "// line 1\n#include \"err.h\"\nkernel void k() {}\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  try {
    loader.load("main.cl");
    FAIL("a source with an error built");
  } catch (const anycl::build_error& err) {
    REQUIRE(err.logs().size() == 1);
    CHECK_THAT(err.logs()[0].log, Contains(d / "err.h" + ":3:") && Contains("undeclared_name"));
    CHECK(err.source_name() == d / "main.cl");
  }
  write_file(d / "main2.cl", "// 1\n// 2\n// 3\nkernel void k() { int x = ; }\n");
  REQUIRE_THROWS_WHAT(loader.load("main2.cl"), anycl::build_error,
                      Contains(d / "main2.cl" + ":4:"));
}

// --- bad files ---
TEST_CASE("kernel_loader: missing, directory, FIFO, oversized and NUL files are refused by name",
          "[loader][env]") {
  anycl::test::env e;
  temp_dir d;
  anycl::kernel_loader loader(e.ctx, search_only(d));
  fs::create_directories(d / "dir.cl");
  REQUIRE_THROWS_WHAT(loader.load("dir.cl"), anycl::source_error,
                      Contains(d / "dir.cl") && Contains("is a directory"));
  REQUIRE(::mkfifo((d / "fifo.cl").c_str(), 0600) == 0);  // nobody writes: a read would block
  REQUIRE_THROWS_WHAT(loader.load("fifo.cl"), anycl::source_error,
                      Contains(d / "fifo.cl") && Contains("not a regular file"));
  {
    int fd = ::open((d / "huge.cl").c_str(), O_CREAT | O_WRONLY, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, 17 << 20) == 0);  // sparse: no disk used
    ::close(fd);
  }
  REQUIRE_THROWS_WHAT(loader.load("huge.cl"), anycl::source_error,
                      Contains(d / "huge.cl") && Contains("16 MiB limit"));
  write_file(d / "nul.cl", std::string("kernel void a() {}\n\0kernel void b() {}\n", 40));
  try {
    loader.load("nul.cl");
    FAIL("a NUL byte was accepted");
  } catch (const anycl::source_error& err) {
    CHECK(err.path() == d / "nul.cl");
    CHECK(err.line() == 2);
    CHECK_THAT(err.what(), Contains("NUL byte at offset 19"));
  }
  write_file(d / "plain", "x");  // a path through a file: cannot be opened, even by root
  REQUIRE_THROWS_WHAT(loader.load(d / "plain/x.cl"), anycl::source_error,
                      Contains(d / "plain/x.cl"));
  write_file(d / "inc_dir.cl", "#include \"dir.cl\"\n");
  REQUIRE_THROWS_WHAT(loader.load("inc_dir.cl"), anycl::source_error, Contains("is a directory"));
  REQUIRE_THROWS_WHAT(loader.load_source(std::string("a\0b", 3), "gen.cl"), anycl::source_error,
                      Contains("'gen.cl'") && Contains("NUL byte at offset 1"));
  // A byte-order mark is dropped rather than handed to the compiler.
  write_file(d / "bom.cl", "\xEF\xBB\xBFkernel void value(global int* out) { out[0] = 3; }\n");
  CHECK(run_value(e, loader.load("bom.cl"), "value") == 3);
}

// --- the disk cache ---
TEST_CASE("kernel_loader: the disk cache is written after the first launch and hit afterwards",
          "[loader][cache]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 41\n");
  anycl::reset_cache_stats();
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    auto prog = loader.load("v.cl");
    CHECK(anycl::cache_stats().misses == 1);
    CHECK(entries(cache).empty());  // not before the first launch
    CHECK(locks(cache) == 1);       // other processes wait for the entry meanwhile
    CHECK(run_value(e, prog, "value") == 41);
    anycl::wait_for_cache_writes();
    CHECK(anycl::cache_stats().writes == 1);
    CHECK(locks(cache) == 0);  // removed once the entry is written
    REQUIRE(entries(cache).size() == 1);
    CHECK_THAT(entries(cache)[0], EndsWith(".bin"));
    // The same loader hands out the same program without the cache.
    CHECK(loader.load("v.cl").get() == prog.get());
  }
  anycl::kernel_loader second(e.ctx, search_only(d, &cache));
  auto prog = second.load("v.cl");
  CHECK(anycl::cache_stats().hits == 1);
  CHECK(run_value(e, prog, "value") == 41);
  anycl::wait_for_cache_writes();
  CHECK(anycl::cache_stats().writes == 1);  // an entry that was read is not written again

  // A header edit of the same size, and other options, are misses with their own entries.
  write_file(d / "value.h", "#define VALUE 42\n");
  anycl::kernel_loader third(e.ctx, search_only(d, &cache));
  CHECK(run_value(e, third.load("v.cl"), "value") == 42);
  CHECK(anycl::cache_stats().misses == 2);
  CHECK(run_value(e, third.load("v.cl", anycl::build_options{}.define("EXTRA")), "value") == 42);
  CHECK(anycl::cache_stats().misses == 3);
  anycl::wait_for_cache_writes();
  CHECK(entries(cache).size() == 3);
  CHECK(anycl::cache_stats().rejects == 0);
}

TEST_CASE("kernel_loader: a first launch that fails through its wait list does not block writes",
          "[loader][cache]") {
  // POCL 3.1 never runs the CL_COMPLETE callbacks of a command whose wait list failed, so the save
  // waiting for that first launch is abandoned (wait_for_cache_writes waited forever before, and
  // the save held the program and the event; found by the fault-injection sweep).
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 7\n");
  anycl::reset_cache_stats();
  anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
  auto prog = loader.load("v.cl");
  anycl::buffer out(e.ctx, sizeof(int));
  auto f = prog.function<anycl::buffer_view<int>>("value");
  anycl::user_event gate(e.ctx);
  anycl::event ev = f(e.queue, anycl::nd_range{1}, gate, out);
  gate.set_error(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  REQUIRE_THROWS_AS(ev.wait(), anycl::api_error);
  anycl::wait_for_cache_writes();
  CHECK(anycl::cache_stats().writes == 0);
  CHECK(entries(cache).empty());
  CHECK(locks(cache) == 0);  // the abandoned save released the build lock
  // The queue and the program stay usable.
  CHECK(run_value(e, prog, "value") == 7);
}

TEST_CASE(
    "kernel_loader: a second context of this process building the same entry does not wait "
    "for its own lock",
    "[loader][cache][env]") {
  // flock locks belong to open file descriptions: without the process's own bookkeeping, the
  // second loader would wait for the first one's lock until ANYCL_CACHE_WAIT ran out.
  scoped_env wait("ANYCL_CACHE_WAIT", "600");
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 23\n");
  anycl::reset_cache_stats();
  anycl::kernel_loader first(e.ctx, search_only(d, &cache));
  auto p1 = first.load("v.cl");  // holds the lock until its first launch
  REQUIRE(locks(cache) == 1);
  anycl::context other(e.dev);  // another context: its own program, built again
  anycl::kernel_loader second(other, search_only(d, &cache));
  const auto t0 = std::chrono::steady_clock::now();
  auto p2 = second.load("v.cl");
  const auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(waited < std::chrono::seconds(300));  // not until the 600 s wait ran out
  CHECK(anycl::cache_stats().misses == 2);
  CHECK(anycl::cache_stats().waits == 0);
  CHECK(locks(cache) == 1);  // the first loader's lock is untouched
  anycl::command_queue q2(other, e.dev);
  anycl::buffer out(other, sizeof(int));
  p2.function<anycl::buffer_view<int>>("value")(q2, anycl::nd_range{1}, out).wait();
  CHECK(q2.read(anycl::buffer_view<int>(out)).at(0) == 23);
  CHECK(run_value(e, p1, "value") == 23);
  anycl::wait_for_cache_writes();
  CHECK(locks(cache) == 0);
  CHECK(entries(cache).size() == 1);  // the same entry, written twice
  CHECK(anycl::cache_stats().rejects == 0);
}

TEST_CASE("kernel_loader: ANYCL_CACHE_WAIT must be a number of seconds", "[loader][cache][env]") {
  anycl::test::env e;
  temp_dir d, cache;
  for (const char* good : {"0", "0.5", "120", "86400"}) {
    scoped_env wait("ANYCL_CACHE_WAIT", good);
    CHECK_NOTHROW(static_cast<void>(anycl::kernel_loader(e.ctx, search_only(d, &cache))));
  }
  {
    scoped_env wait("ANYCL_CACHE_WAIT", "");  // empty: the default
    CHECK_NOTHROW(static_cast<void>(anycl::kernel_loader(e.ctx, search_only(d, &cache))));
  }
  for (const char* bad : {"abc", "-1", "inf", "nan", "1e3", "0x10", "5s", " 5", "86401", "."}) {
    INFO("ANYCL_CACHE_WAIT=" << bad);
    scoped_env wait("ANYCL_CACHE_WAIT", bad);
    REQUIRE_THROWS_AS(static_cast<void>(anycl::kernel_loader(e.ctx, search_only(d, &cache))),
                      std::invalid_argument);
    try {
      anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    } catch (const std::invalid_argument& err) {
      CHECK_THAT(err.what(), Contains(std::string("ANYCL_CACHE_WAIT='") + bad + "'"));
      CHECK_THAT(err.what(), Contains("number of seconds"));
    }
    // Without the disk cache it is never read.
    CHECK_NOTHROW(static_cast<void>(anycl::kernel_loader(e.ctx, search_only(d))));
  }
}

TEST_CASE("kernel_loader: ANYCL_BUILD_OPTIONS is part of the cache key", "[loader][cache][env]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#ifdef FROM_ENV\n#define VALUE 2\n#else\n#define VALUE 1\n#endif\n");
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    CHECK(run_value(e, loader.load("v.cl"), "value") == 1);
    anycl::wait_for_cache_writes();
  }
  scoped_env env("ANYCL_BUILD_OPTIONS", "-DFROM_ENV");
  anycl::reset_cache_stats();
  anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
  CHECK(run_value(e, loader.load("v.cl"), "value") == 2);
  CHECK(anycl::cache_stats().hits == 0);
}

TEST_CASE("kernel_loader: every corrupt cache entry is deleted and rebuilt, never used",
          "[loader][cache]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 7\n");
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    REQUIRE(run_value(e, loader.load("v.cl"), "value") == 7);
    anycl::wait_for_cache_writes();
  }
  REQUIRE(entries(cache).size() == 1);
  const std::string entry = entries(cache)[0];
  const std::vector<unsigned char> good = read_bytes(entry);
  const auto key =
      anycl::detail::cache_key(anycl::kernel_loader(e.ctx, search_only(d)).resolve("v.cl").text, "",
                               anycl::detail::identify(e.dev));
  REQUIRE(anycl::detail::check_entry(good.data(), good.size(), key).empty());

  const unsigned seed = std::random_device{}();
  INFO("seed " << seed);
  std::mt19937 rng(seed);
  auto truncated = [&](std::size_t n) {
    return std::vector<unsigned char>(good.begin(), good.begin() + static_cast<long>(n));
  };
  auto flipped = [&](std::size_t at) {
    auto b = good;
    b[at] ^= 0x20;
    return b;
  };
  std::vector<unsigned char> noise(good.size());
  for (auto& b : noise) b = static_cast<unsigned char>(rng());
  // A sound header over bytes the driver cannot load: our checks pass, the driver refuses it.
  std::vector<unsigned char> refused(4096);
  for (auto& b : refused) b = static_cast<unsigned char>(rng());
  {
    auto h = anycl::detail::entry_header(key, refused.data(), refused.size());
    refused.insert(refused.begin(), h.begin(), h.end());
  }
  // This program's binary, labelled for another device of the same driver.
  std::vector<unsigned char> other_device;
  {
    auto id = anycl::detail::identify(e.dev);
    id.device_name += " (another one)";
    std::vector<unsigned char> payload(good.begin() + anycl::detail::entry_header_size, good.end());
    auto h = anycl::detail::entry_header(
        anycl::detail::cache_key(anycl::kernel_loader(e.ctx, search_only(d)).resolve("v.cl").text,
                                 "", id),
        payload.data(), payload.size());
    other_device.assign(h.begin(), h.end());
    other_device.insert(other_device.end(), payload.begin(), payload.end());
  }
  const std::pair<const char*, std::vector<unsigned char>> cases[] = {
      {"a binary for another device", other_device},
      {"empty", {}},
      {"1 byte", truncated(1)},
      {"16 bytes", truncated(16)},
      {"half", truncated(good.size() / 2)},
      {"all but the last byte", truncated(good.size() - 1)},
      {"flipped payload byte (middle)", flipped(good.size() / 2)},
      {"flipped payload byte (last)", flipped(good.size() - 1)},
      {"flipped header byte", flipped(20)},
      {"random bytes", noise},
      {"zeroed", std::vector<unsigned char>(good.size(), 0)},
      {"refused by the driver", refused},
  };
  for (const auto& [name, bytes] : cases) {
    INFO("case: " << name);
    write_bytes(entry, bytes);
    anycl::reset_cache_stats();
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    auto prog = loader.load("v.cl");
    CHECK(anycl::cache_stats().rejects == 1);
    CHECK(anycl::cache_stats().hits == 0);
    CHECK(run_value(e, prog, "value") == 7);
    anycl::wait_for_cache_writes();
    CHECK(anycl::cache_stats().writes == 1);
    auto now = read_bytes(entry);
    CHECK(anycl::detail::check_entry(now.data(), now.size(), key).empty());
  }
  // An entry of another program under this program's name: its key does not match.
  write_file(d / "value.h", "#define VALUE 8\n");
  {
    anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
    REQUIRE(run_value(e, loader.load("v.cl"), "value") == 8);
    anycl::wait_for_cache_writes();
  }
  std::string other;
  for (const auto& p : entries(cache))
    if (p != entry) other = p;
  REQUIRE_FALSE(other.empty());
  write_bytes(entry, read_bytes(other));
  write_file(d / "value.h", "#define VALUE 7\n");
  anycl::reset_cache_stats();
  anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
  CHECK(run_value(e, loader.load("v.cl"), "value") == 7);
  CHECK(anycl::cache_stats().rejects == 1);
}

// --- binary-only (the FPGA flow) ---
TEST_CASE("kernel_loader: binary-only mode loads prebuilt binaries and says how to make one",
          "[loader][binary]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "k.cl", "kernel void value(global int* out) { out[0] = 99; }\n");
  anycl::loader_options bin = search_only(d);
  bin.binary_only = true;
  const std::string expected = d / anycl::prebuilt_file_name("k.cl", e.dev);
  {
    anycl::kernel_loader loader(e.ctx, bin);
    auto candidates = loader.prebuilt_candidates("k.cl", e.dev);
    REQUIRE(candidates.size() == 3);
    CHECK(candidates[0] == expected);
    CHECK(candidates[1] == d / "k.aocx");
    CHECK(candidates[2] == d / "k.xclbin");
    try {
      loader.load("k.cl");
      FAIL("binary-only mode built from source");
    } catch (const anycl::binary_not_found& err) {
      CHECK(err.candidates() == candidates);
      CHECK_THAT(err.what(),
                 Contains("binary-only mode") && Contains(expected) && Contains(d / "k.aocx") &&
                     Contains("make one with: anycl-build " + d / "k.cl" + " --device '" +
                              e.dev.name() + "'"));  // no -o: the default name
      CHECK_THAT(err.what(), !Contains(" -o "));
    }
  }
  {
    anycl::kernel_loader source(e.ctx, search_only(d));
    anycl::write_prebuilt(source.load("k.cl"), e.dev, expected);
  }
  fs::remove(d / "k.cl");  // the source is not needed any more
  {
    anycl::kernel_loader loader(e.ctx, bin);
    CHECK(run_value(e, loader.load("k.cl"), "value") == 99);
  }
  // A truncated prebuilt binary is refused before the driver sees it.
  auto bytes = read_bytes(expected);
  write_bytes(expected, std::vector<unsigned char>(bytes.begin(), bytes.begin() + 100));
  REQUIRE_THROWS_WHAT(anycl::kernel_loader(e.ctx, bin).load("k.cl"), anycl::binary_not_found,
                      Contains(expected) && Contains("is unusable") && Contains("anycl-build"));
  // A vendor binary (.aocx/.xclbin) is passed to the driver as it is.
  fs::remove(expected);
  bytes.erase(bytes.begin(), bytes.begin() + anycl::detail::entry_header_size);
  write_bytes(d / "k.aocx", bytes);
  CHECK(run_value(e, anycl::kernel_loader(e.ctx, bin).load("k.cl"), "value") == 99);
}

TEST_CASE("write_prebuilt: a device the program was not built for is refused", "[loader][binary]") {
  anycl::test::env e;
  anycl::program prog(e.ctx, "kernel void k() {}", "k.cl");
  temp_dir d;
  REQUIRE_THROWS_AS(anycl::write_prebuilt(prog, e.dev, d / "k.bin"), anycl::api_error);
  CHECK_FALSE(fs::exists(d / "k.bin"));
  prog.build();
  REQUIRE_THROWS_AS(anycl::write_prebuilt(prog, e.dev, d / "no/such/dir/k.bin"), std::system_error);
}

// --- concurrency ---
TEST_CASE("kernel_loader: 8 threads asking at once build once", "[loader][threads]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "t.cl", "kernel void value(global int* out) { out[0] = 5; }\n");
  write_file(d / "bad.cl", "kernel void value(global int* out) { out[0] = ; }\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  std::vector<cl_program> got(8);
  std::atomic<int> build_errors{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      got[static_cast<std::size_t>(i)] = loader.load("t.cl").get();
      try {
        loader.load("bad.cl");
      } catch (const anycl::build_error&) {
        ++build_errors;
      }
    });
  for (auto& t : threads) t.join();
  for (cl_program p : got) CHECK(p == got[0]);
  CHECK(build_errors == 8);
  CHECK(run_value(e, loader.load("t.cl"), "value") == 5);
  // A failed build is not remembered: after a fix it builds.
  write_file(d / "bad.cl", "kernel void value(global int* out) { out[0] = 6; }\n");
  CHECK(run_value(e, loader.load("bad.cl"), "value") == 6);
}

TEST_CASE("kernel_loader: load_source resolves includes on the search path", "[loader]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "value.h", "#define VALUE 12\n");
  anycl::kernel_loader loader(e.ctx, search_only(d));
  auto prog = loader.load_source(value_kernel, "generated.cl");
  CHECK(prog.name() == "generated.cl");
  CHECK(run_value(e, prog, "value") == 12);
  CHECK(loader.load_source(value_kernel, "generated.cl").get() == prog.get());
}

TEST_CASE("kernel_loader: a cache write removes old temporary files of killed writers only",
          "[loader][cache]") {
  anycl::test::env e;
  temp_dir d, cache;
  write_file(d / "v.cl", value_kernel);
  write_file(d / "value.h", "#define VALUE 41\n");
  write_file(cache / ".x.bin.123.0.tmp", "left by a writer killed an hour ago");
  fs::last_write_time(cache / ".x.bin.123.0.tmp",
                      fs::file_time_type::clock::now() - std::chrono::hours(1));
  write_file(cache / ".y.bin.456.0.tmp", "another process writing now");
  write_file(cache / "notes.tmp", "not ours");
  fs::last_write_time(cache / "notes.tmp",
                      fs::file_time_type::clock::now() - std::chrono::hours(1));
  anycl::reset_cache_stats();
  anycl::kernel_loader loader(e.ctx, search_only(d, &cache));
  CHECK(run_value(e, loader.load("v.cl"), "value") == 41);
  anycl::wait_for_cache_writes();
  CHECK(anycl::cache_stats().writes == 1);
  CHECK_FALSE(fs::exists(cache / ".x.bin.123.0.tmp"));
  CHECK(fs::exists(cache / ".y.bin.456.0.tmp"));
  CHECK(fs::exists(cache / "notes.tmp"));
}

TEST_CASE("kernel_loader: loaders of one context share programs, other contexts do not",
          "[loader][threads]") {
  anycl::test::env e;
  temp_dir d;
  write_file(d / "s.cl", "kernel void value(global int* out) { out[0] = 4; }\n");
  anycl::kernel_loader first(e.ctx, search_only(d));
  anycl::kernel_loader second(e.ctx, search_only(d));
  auto prog = first.load("s.cl");
  CHECK(second.load("s.cl").get() == prog.get());
  anycl::context other(e.dev);
  anycl::kernel_loader third(other, search_only(d));
  auto elsewhere = third.load("s.cl");
  CHECK(elsewhere.get() != prog.get());
  CHECK(elsewhere.context() == other);
  // Different options are a different program.
  CHECK(second.load("s.cl", anycl::build_options{}.define("X")).get() != prog.get());
}
