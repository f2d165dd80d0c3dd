// SPDX-License-Identifier: Apache-2.0
// The disk cache across processes (catalogue row B-57): a second process hits, many processes
// write one entry at once, a writer killed mid-write leaves nothing that is read later, and a
// folder that cannot be written (read-only, full) costs one warning and never a failure. Every
// child runs saxpy through a kernel_loader, checks it against the host and prints its cache
// statistics; this process never touches OpenCL itself.
//
// Each child has a POCL cache of its own (processes sharing one get spurious build failures,
// B-56). Children that are not about building from scratch get a copy of a POCL cache in which the
// test programs were compiled once, so that they build from source in ~0.1 s instead of ~1.5 s;
// AnyCL's disk cache, what these tests are about, is not affected by it.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cache/digest.hpp"
#include "child_process.hpp"
#include "support/setup.hpp"

namespace {

using anycl::test::child_result;
using anycl::test::child_stats;
using anycl::test::env_list;
using anycl::test::files_ending_with;
using anycl::test::running_child;
using anycl::test::temp_dir;
namespace fs = std::filesystem;

const char* const child_program = ANYCL_CACHE_CHILD;
const char* const write_warning = "cannot write to the kernel cache";

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The POCL cache a child starts with.
enum class pocl { empty, warm };

/// A POCL cache in which the test programs (cache_child.cl plain and with variants 1 and 2) have
/// been compiled, and the cache entry of the plain program that a normal run wrote. Made once.
struct warm_state {
  std::unique_ptr<temp_dir> dir;
  fs::path pocl_cache;
  fs::path entry;
  std::uintmax_t entry_size = 0;
};

std::optional<warm_state>& warm_storage() {
  static std::optional<warm_state> w;
  return w;
}

const warm_state& warm();

/// One test case's folders (cache folders, the children's POCL caches and logs) and its children.
class cache_test {
 public:
  cache_test()
      : root_(anycl::test::base_dir_from_env("ANYCL_CACHE_DIR"), "case"),
        pocl_root_(anycl::test::base_dir_from_env("POCL_CACHE_DIR"), "case") {}

  /// A path for a cache folder of this test case; not created.
  fs::path folder(const std::string& name) const { return root_.path() / name; }

  /// Starts anycl-cache-child with `args`, ANYCL_CACHE_DIR=`cache_dir` (unset when empty), a
  /// POCL cache of its own, and `env`.
  running_child start(const std::vector<std::string>& args, const fs::path& cache_dir,
                      pocl kind = pocl::warm, env_list env = {}) {
    const std::string n = std::to_string(++children_);
    fs::path pocl_cache = pocl_root_.path() / ("child-" + n);
    if (kind == pocl::warm) {
      fs::copy(warm().pocl_cache, pocl_cache, fs::copy_options::recursive);
    } else {
      fs::create_directory(pocl_cache);
    }
    env.emplace_back("POCL_CACHE_DIR", pocl_cache.string());
    if (!cache_dir.empty()) env.emplace_back("ANYCL_CACHE_DIR", cache_dir.string());
    return anycl::test::spawn(child_program, args, env, root_.path() / ("child-" + n));
  }

  /// What the child started last printed on stdout so far.
  std::string last_output() const {
    return read_bytes(root_.path() / ("child-" + std::to_string(children_) + ".out"));
  }

  child_result run(const std::vector<std::string>& args, const fs::path& cache_dir,
                   pocl kind = pocl::warm, env_list env = {}) {
    return start(args, cache_dir, kind, std::move(env)).wait();
  }

 private:
  temp_dir root_;
  temp_dir pocl_root_;
  unsigned children_ = 0;
};

/// The statistics of a child that must have succeeded.
child_stats succeeded(const child_result& r) {
  INFO(r.describe());
  REQUIRE(r.exit_code() == 0);
  auto s = r.stats();
  REQUIRE(s.has_value());
  return *s;
}

const warm_state& warm() {
  auto& w = warm_storage();
  if (w) return *w;
  warm_state state;
  state.dir = std::make_unique<temp_dir>(anycl::test::base_dir_from_env("POCL_CACHE_DIR"), "warm");
  state.pocl_cache = state.dir->path() / "pocl";
  fs::create_directory(state.pocl_cache);
  const fs::path entries = state.dir->path() / "entries";
  auto run = [&](const std::vector<std::string>& args, env_list env, const std::string& log) {
    env.emplace_back("POCL_CACHE_DIR", state.pocl_cache.string());
    return anycl::test::spawn(child_program, args, env, state.dir->path() / log).wait();
  };
  // A normal run: builds the plain program and writes its entry.
  child_result plain = run({}, {{"ANYCL_CACHE_DIR", entries.string()}}, "plain");
  child_stats s = succeeded(plain);
  CHECK(s.misses == 1);
  REQUIRE(s.writes == 1);
  auto bins = files_ending_with(entries, ".bin");
  REQUIRE(bins.size() == 1);
  state.entry = entries / bins.front();
  state.entry_size = fs::file_size(state.entry);
  REQUIRE(state.entry_size > anycl::detail::entry_header_size);
  // The variants, into the same POCL cache (one process after the other).
  succeeded(run({"--variant", "1", "--variant", "2"}, {{"ANYCL_CACHE", "off"}}, "variants"));
  w = std::move(state);
  return *w;
}

}  // namespace

TEST_CASE("disk cache: a second process uses the entry the first one wrote", "[cache]") {
  cache_test t;
  const fs::path dir = t.folder("cache");

  child_result first = t.run({}, dir);
  INFO(first.describe());
  child_stats s1 = succeeded(first);
  CHECK(s1.hits == 0);
  CHECK(s1.misses == 1);
  CHECK(s1.rejects == 0);
  CHECK(s1.writes == 1);
  CHECK(s1.write_failures == 0);
  CHECK(first.lines_with("anycl: warning") == 0);
  auto bins = files_ending_with(dir, ".bin");
  REQUIRE(bins.size() == 1);

  // An empty POCL cache: the compiled kernel can only come from AnyCL's entry.
  child_result second = t.run({}, dir, pocl::empty);
  INFO(second.describe());
  child_stats s2 = succeeded(second);
  CHECK(s2.hits == 1);
  CHECK(s2.misses == 0);
  CHECK(s2.rejects == 0);
  CHECK(s2.writes == 0);
  CHECK(second.lines_with("anycl: warning") == 0);
  CHECK(files_ending_with(dir, ".bin") == bins);
  CHECK(files_ending_with(dir, ".tmp").empty());
}

TEST_CASE("disk cache: a process that exits without waiting for the write still saves its entry",
          "[cache]") {
  cache_test t;
  const fs::path dir = t.folder("cache");
  // wait_for_cache_writes() is not called: the library waits at exit.
  child_result first = t.run({"--no-wait"}, dir);
  INFO(first.describe());
  succeeded(first);
  CHECK(first.lines_with("anycl: warning") == 0);
  CHECK(files_ending_with(dir, ".bin").size() == 1);
  CHECK(files_ending_with(dir, ".tmp").empty());

  child_result second = t.run({}, dir, pocl::empty);
  INFO(second.describe());
  child_stats s = succeeded(second);
  CHECK(s.hits == 1);
  CHECK(s.misses == 0);
  CHECK(s.rejects == 0);
}

TEST_CASE("disk cache: 8 processes build and save one program at once into an empty folder",
          "[cache]") {
  cache_test t;
  const fs::path dir = t.folder("shared");
  constexpr int processes = 8;

  // Each with an empty POCL cache, so that all of them build from scratch at the same time.
  std::vector<running_child> running;
  for (int i = 0; i < processes; ++i) running.push_back(t.start({}, dir, pocl::empty));
  std::vector<child_result> results;
  for (auto& c : running) results.push_back(c.wait());

  std::uint64_t misses = 0;
  for (const auto& r : results) {
    INFO(r.describe());
    child_stats s = succeeded(r);  // the child checked its result against the host
    CHECK(s.hits + s.misses + s.waits == 1);
    CHECK(s.rejects == 0);  // never a partly written entry
    CHECK(s.writes == s.misses);
    CHECK(s.write_failures == 0);
    CHECK(r.lines_with("anycl: warning") == 0);
    misses += s.misses;
  }
  CAPTURE(misses);
  CHECK(misses == 1);  // one built it, the others waited for its entry (or came after it)
  CHECK(files_ending_with(dir, ".bin").size() == 1);
  CHECK(files_ending_with(dir, ".tmp").empty());
  CHECK(files_ending_with(dir, ".lock").empty());  // the builder removed its lock

  child_result ninth = t.run({}, dir, pocl::empty);
  INFO(ninth.describe());
  child_stats s = succeeded(ninth);
  CHECK(s.hits == 1);
  CHECK(s.misses == 0);
  CHECK(s.rejects == 0);
  CHECK(files_ending_with(dir, ".bin").size() == 1);
}

TEST_CASE("disk cache: a writer killed mid-write leaves no entry and the next process rebuilds",
          "[cache]") {
  cache_test t;
  const std::uintmax_t size = warm().entry_size;
  std::vector<std::uintmax_t> points = {0,        1,       16, anycl::detail::entry_header_size,
                                        size / 2, size - 1};

  const unsigned seed =
      Catch::rngSeed() != 0 ? Catch::rngSeed() : static_cast<unsigned>(std::random_device{}());
  std::printf("kill points: random seed %u (repeat with --rng-seed %u); entry size %ju bytes\n",
              seed, seed, size);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::uintmax_t> anywhere(0, size - 1);
  for (int i = 0; i < 20; ++i) points.push_back(anywhere(rng));

  INFO("random seed " << seed << ", entry size " << size);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::uintmax_t n = points[i];
    INFO("killed after " << n << " bytes");
    const fs::path dir = t.folder("kill-" + std::to_string(i));

    child_result killed =
        t.run({}, dir, pocl::warm, {{"ANYCL_FAULT_KILL_CACHE_WRITE_AT", std::to_string(n)}});
    INFO(killed.describe());
    REQUIRE(killed.killed_by(SIGKILL));
    CHECK_FALSE(killed.stats().has_value());
    CHECK(files_ending_with(dir, ".bin").empty());
    auto temps = files_ending_with(dir, ".tmp");
    REQUIRE(temps.size() == 1);
    CHECK(fs::file_size(dir / temps.front()) == n);  // killed exactly there

    child_result next = t.run({}, dir);
    INFO(next.describe());
    child_stats s = succeeded(next);
    CHECK(s.hits == 0);
    CHECK(s.misses == 1);
    CHECK(s.rejects == 0);  // the leftover temporary file was never read
    CHECK(s.writes == 1);
    CHECK(s.write_failures == 0);
    CHECK(next.lines_with("anycl: warning") == 0);
    CHECK(files_ending_with(dir, ".bin").size() == 1);
  }
}

TEST_CASE("disk cache: a folder that cannot be written costs one warning and never fails",
          "[cache]") {
  cache_test t;

  SECTION("a regular file in the folder's path (ENOTDIR, also for root)") {
    const fs::path file = t.folder("file");
    std::ofstream(file) << "not a folder\n";
    const fs::path dir = file / "sub";
    // Two programs: two failed writes, one warning.
    child_result r = t.run({"--variant", "1", "--variant", "2"}, dir);
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 0);
    CHECK(s.misses == 2);
    CHECK(s.rejects == 0);
    CHECK(s.writes == 0);
    CHECK(s.write_failures == 2);
    CHECK(r.lines_with(write_warning) == 1);
    CHECK(r.lines_with("anycl: warning") == 1);
    CHECK(r.lines_with("Not a directory") == 1);
    CHECK(fs::is_regular_file(file));
    CHECK(read_bytes(file) == "not a folder\n");
  }

  SECTION("a read-only bind mount in a private mount namespace (also for root)") {
    // The folder holds the plain program's entry; the child loads it and two new programs.
    const fs::path dir = t.folder("read-only");
    fs::create_directory(dir);
    const fs::path entry = dir / warm().entry.filename();
    fs::copy_file(warm().entry, entry);
    child_result r = t.run(
        {"--readonly-bind", dir.string(), "--variant", "", "--variant", "1", "--variant", "2"},
        dir);
    if (r.exit_code() == 3) {
      // No mount namespace here (no CAP_SYS_ADMIN, e.g. an unprivileged container): chmod
      // cannot make a folder read-only for root, so the ENOTDIR section is all that can run.
      WARN("read-only bind mount not possible here, section skipped: " << r.err);
      return;
    }
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 1);  // a read-only cache is still read
    CHECK(s.misses == 2);
    CHECK(s.rejects == 0);
    CHECK(s.writes == 0);
    CHECK(s.write_failures == 2);
    CHECK(r.lines_with(write_warning) == 1);
    CHECK(r.lines_with("anycl: warning") == 1);
    CHECK(r.lines_with("Read-only file system") == 1);
    CHECK(files_ending_with(dir, ".bin") == std::vector<std::string>{entry.filename().string()});
    CHECK(files_ending_with(dir, ".tmp").empty());
    CHECK(read_bytes(entry) == read_bytes(warm().entry));
  }
}

TEST_CASE("disk cache: a full disk fails the write with one warning and leaves no file",
          "[cache]") {
  cache_test t;
  const std::uintmax_t size = warm().entry_size;
  // RLIMIT_FSIZE from the first launch on: the temporary file can grow to `limit` bytes, then
  // write() fails with EFBIG. The limit holds for the child's stdout and stderr files too, so it
  // leaves room for them.
  for (std::uintmax_t limit : {std::uintmax_t(4096), size / 2, size - 1}) {
    INFO("file size limit " << limit << " bytes, entry " << size << " bytes");
    const fs::path dir = t.folder("full-" + std::to_string(limit));
    child_result r = t.run({"--fsize-limit", std::to_string(limit)}, dir);
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 0);
    CHECK(s.misses == 1);
    CHECK(s.rejects == 0);
    CHECK(s.writes == 0);
    CHECK(s.write_failures == 1);
    CHECK(r.lines_with(write_warning) == 1);
    CHECK(r.lines_with("anycl: warning") == 1);
    CHECK(r.lines_with("File too large") == 1);
    CHECK(files_ending_with(dir, ".bin").empty());
    CHECK(files_ending_with(dir, ".tmp").empty());
  }
}

TEST_CASE("disk cache: ANYCL_CACHE=off neither reads nor writes", "[cache]") {
  cache_test t;

  SECTION("nothing is created") {
    const fs::path dir = t.folder("off");
    child_result r = t.run({}, dir, pocl::warm, {{"ANYCL_CACHE", "off"}});
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 0);
    CHECK(s.misses == 0);
    CHECK(s.rejects == 0);
    CHECK(s.writes == 0);
    CHECK(s.write_failures == 0);
    CHECK(r.lines_with("anycl: warning") == 0);
    CHECK_FALSE(fs::exists(dir));
  }

  SECTION("a sound entry is not used") {
    const fs::path dir = t.folder("off-with-entry");
    fs::create_directory(dir);
    const fs::path entry = dir / warm().entry.filename();
    fs::copy_file(warm().entry, entry);
    child_result r = t.run({}, dir, pocl::warm, {{"ANYCL_CACHE", "off"}});
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 0);
    CHECK(s.misses == 0);
    CHECK(s.writes == 0);
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
    CHECK(read_bytes(entry) == read_bytes(warm().entry));
  }
}

namespace {
/// A variant no earlier run used: a program whose entry nobody has.
std::string fresh_variant() {
  static std::mt19937_64 rng(std::random_device{}());
  return std::to_string(rng() >> 1);
}

/// Waits until the child started last by `t` prints "loaded" (it holds its build lock then).
void wait_until_loaded(const cache_test& t) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::minutes(3);
  while (t.last_output().find("loaded") == std::string::npos) {
    REQUIRE(std::chrono::steady_clock::now() < limit);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

TEST_CASE(
    "disk cache: processes wait for the one that builds an entry, and a killed builder "
    "never blocks them",
    "[cache]") {
  cache_test t;
  const fs::path dir = t.folder("lock");
  const std::string v = fresh_variant();
  const std::vector<std::string> program = {"--variant", v};
  std::vector<std::string> hold = program;
  hold.push_back("--hold");

  // A builder that loaded the program and never launches it: it holds the lock of its entry.
  running_child holder = t.start(hold, dir);
  wait_until_loaded(t);
  REQUIRE(files_ending_with(dir, ".lock").size() == 1);
  REQUIRE(files_ending_with(dir, ".bin").empty());

  SECTION(
      "ANYCL_CACHE_WAIT=0 builds at once; a timeout builds after waiting; a waiter gets the "
      "entry another process writes") {
    child_result no_wait = t.run(program, dir, pocl::warm, {{"ANYCL_CACHE_WAIT", "0"}});
    INFO(no_wait.describe());
    child_stats s0 = succeeded(no_wait);
    CHECK(s0.misses == 1);
    CHECK(s0.waits == 0);
    CHECK(s0.writes == 1);
    CHECK(no_wait.lines_with("anycl: warning") == 0);
    CHECK(files_ending_with(dir, ".lock").size() == 1);  // the holder's, left alone
    const auto bins = files_ending_with(dir, ".bin");
    REQUIRE(bins.size() == 1);
    fs::remove(dir / bins.front());

    // A waiter with a long limit, and one with a short limit that builds when it runs out.
    running_child waiter = t.start(program, dir, pocl::warm, {{"ANYCL_CACHE_WAIT", "300"}});
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const auto t0 = std::chrono::steady_clock::now();
    child_result timed_out = t.run(program, dir, pocl::warm, {{"ANYCL_CACHE_WAIT", "1.5"}});
    const double took = seconds_since(t0);
    INFO(timed_out.describe());
    child_stats s1 = succeeded(timed_out);
    CHECK(s1.misses == 1);
    CHECK(s1.waits == 0);
    CHECK(s1.writes == 1);
    CHECK(took >= 1.5);  // it waited for the lock until the limit
    // Its entry ends the first waiter's wait.
    child_result waited = waiter.wait();
    INFO(waited.describe());
    child_stats s2 = succeeded(waited);
    CHECK(s2.misses == 0);
    CHECK(s2.writes == 0);
    CHECK(s2.hits + s2.waits == 1);
    if (s2.waits == 0) WARN("the waiter started after the entry was written");
    holder.kill(SIGKILL);
  }

  SECTION("a builder killed while it holds the lock") {
    running_child waiter = t.start(program, dir, pocl::warm, {{"ANYCL_CACHE_WAIT", "300"}});
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const auto t0 = std::chrono::steady_clock::now();
    holder.kill(SIGKILL);
    child_result r = waiter.wait();
    const double took = seconds_since(t0);
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.misses == 1);  // the lock came free without an entry: it built
    CHECK(s.waits == 0);
    CHECK(s.writes == 1);
    CHECK(took < 150);  // the kernel freed the dead holder's lock; not the 300 s limit
    CHECK(files_ending_with(dir, ".bin").size() == 1);
    CHECK(files_ending_with(dir, ".lock").empty());  // the dead holder's file removed too
  }
  child_result h = holder.wait();
  INFO(h.describe());
  CHECK(h.killed_by(SIGKILL));
}

TEST_CASE(
    "disk cache: 4 processes loading a fresh program build it once, or 4 times with "
    "ANYCL_CACHE_WAIT=0",
    "[cache]") {
  cache_test t;
  for (const char* wait : {"120", "0"}) {
    INFO("ANYCL_CACHE_WAIT=" << wait);
    const fs::path dir = t.folder(std::string("four-") + wait);
    const std::vector<std::string> program = {"--variant", fresh_variant()};
    std::vector<running_child> running;
    for (int i = 0; i < 4; ++i)
      running.push_back(t.start(program, dir, pocl::warm, {{"ANYCL_CACHE_WAIT", wait}}));
    std::uint64_t misses = 0, waits = 0, writes = 0;
    for (auto& c : running) {
      child_result r = c.wait();
      INFO(r.describe());
      child_stats s = succeeded(r);  // checked against the host
      CHECK(s.hits + s.misses + s.waits == 1);
      CHECK(s.rejects == 0);
      misses += s.misses;
      waits += s.waits;
      writes += s.writes;
    }
    std::printf("4 processes, ANYCL_CACHE_WAIT=%s: %ju builds, %ju waits\n", wait,
                static_cast<std::uintmax_t>(misses), static_cast<std::uintmax_t>(waits));
    CHECK(writes == misses);
    if (std::string(wait) == "0") {
      CHECK(waits == 0);
      CHECK(misses >= 1);
    } else {
      CHECK(misses == 1);
    }
    CHECK(files_ending_with(dir, ".bin").size() == 1);
    CHECK(files_ending_with(dir, ".lock").empty());
  }
}

anycl::debug::handle_counts anycl::test::kept_handles() { return {}; }
void anycl::test::release_kept_handles() {}

// The suite needs a device for its children: fail without one, skip (77) only when allowed, as the
// device suite does. The child finds out, so that this process never loads OpenCL.
int anycl::test::suite_setup() {
  try {
    temp_dir probe(base_dir_from_env("POCL_CACHE_DIR"), "probe");
    child_result r = spawn(child_program, {"--probe"}, {{"POCL_CACHE_DIR", probe.path().string()}},
                           probe.path() / "probe")
                         .wait();
    if (r.exit_code() == 0) {
      std::printf("%s", r.out.c_str());
      return -1;
    }
    const char* allow = std::getenv("ANYCL_TEST_ALLOW_NO_DEVICE");
    if (allow != nullptr && std::strcmp(allow, "1") == 0) {
      std::printf("no OpenCL device; skipping the process suite (ANYCL_TEST_ALLOW_NO_DEVICE=1): %s",
                  r.err.c_str());
      return 77;
    }
    std::fprintf(stderr,
                 "the process suite needs an OpenCL device and found none:\n%s\n"
                 "(set ANYCL_TEST_ALLOW_NO_DEVICE=1 to skip instead of failing)\n",
                 r.describe().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "the process suite cannot start %s: %s\n", child_program, e.what());
    return 1;
  }
}

TEST_CASE("disk cache: writers killed at random moments while others read leave only sound entries",
          "[cache_crash]") {
  // The crash matrix: each round starts three writers and two readers of the same three programs
  // on one folder. Two writers are killed with SIGKILL at a random moment of their run, one exactly
  // after a random number of bytes of an entry (ANYCL_FAULT_KILL_CACHE_WRITE_AT); every other round
  // starts from an empty folder, so that writes are under way when the kills land. Readers must
  // always get right results from sound entries (no rejects); at the end every entry in the
  // folder is read back as sound, and a corrupt one planted there is refused, removed and rebuilt.
  cache_test t;
  const std::vector<std::string> programs = {"--variant", "", "--variant", "1", "--variant", "2"};
  const fs::path dir = t.folder("crash");
  const std::uintmax_t size = warm().entry_size;

  const unsigned seed =
      Catch::rngSeed() != 0 ? Catch::rngSeed() : static_cast<unsigned>(std::random_device{}());
  std::printf("crash matrix: random seed %u (repeat with --rng-seed %u)\n", seed, seed);
  INFO("random seed " << seed);
  std::mt19937 rng(seed);

  // How long a writer runs here, to spread the kills over its whole run.
  const auto t0 = std::chrono::steady_clock::now();
  succeeded(t.run(programs, dir));
  const auto run_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  std::uniform_int_distribution<long long> moment(0, std::max<long long>(run_us, 1000));
  std::uniform_int_distribution<std::uintmax_t> byte(0, size - 1);

  constexpr int rounds = 12;
  int killed = 0, finished_writers = 0, temps_left = 0;
  for (int round = 0; round < rounds; ++round) {
    INFO("round " << round);
    if (round % 2 == 0) {
      for (const auto& bin : files_ending_with(dir, ".bin")) fs::remove(dir / bin);
    }
    std::vector<running_child> writers, readers;
    writers.push_back(t.start(programs, dir));
    writers.push_back(t.start(programs, dir));
    writers.push_back(t.start(programs, dir, pocl::warm,
                              {{"ANYCL_FAULT_KILL_CACHE_WRITE_AT", std::to_string(byte(rng))}}));
    readers.push_back(t.start(programs, dir));
    readers.push_back(t.start(programs, dir));
    const auto start = std::chrono::steady_clock::now();
    std::vector<long long> kill_at = {moment(rng), moment(rng)};
    std::sort(kill_at.begin(), kill_at.end());
    for (std::size_t w = 0; w < kill_at.size(); ++w) {
      std::this_thread::sleep_until(start + std::chrono::microseconds(kill_at[w]));
      writers[w].kill(SIGKILL);
    }
    for (auto& w : writers) {
      child_result r = w.wait();
      INFO(r.describe());
      if (r.killed_by(SIGKILL)) {
        ++killed;
      } else {
        // A writer the kill missed (it had finished) must have succeeded.
        REQUIRE(r.exit_code() == 0);
        CHECK(r.stats()->rejects == 0);
        ++finished_writers;
      }
    }
    for (auto& rd : readers) {
      child_result r = rd.wait();
      child_stats s = succeeded(r);
      CHECK(s.rejects == 0);  // no unsound entry was ever seen by a reader
      CHECK(s.hits + s.misses + s.waits == 3);
    }
    temps_left = static_cast<int>(files_ending_with(dir, ".tmp").size());
  }
  std::printf("crash matrix: %d rounds, %d writers killed, %d finished, %d temporary files left\n",
              rounds, killed, finished_writers, temps_left);
  CHECK(killed > 0);

  // The scan: every entry left is sound (all hits, nothing refused, nothing rebuilt)...
  const auto bins = files_ending_with(dir, ".bin");
  CHECK(bins.size() <= 3);
  child_result scan = t.run(programs, dir);
  child_stats s = succeeded(scan);
  CHECK(s.rejects == 0);
  CHECK(s.hits == bins.size());
  CHECK(s.hits + s.misses + s.waits == 3);
  REQUIRE(files_ending_with(dir, ".bin").size() == 3);

  // ...and one made unsound (cut in half) is refused, removed and written again.
  const fs::path victim = dir / files_ending_with(dir, ".bin").front();
  fs::resize_file(victim, fs::file_size(victim) / 2);
  child_result again = t.run(programs, dir);
  child_stats s2 = succeeded(again);
  CHECK(s2.rejects == 1);
  CHECK(s2.hits == 2);
  CHECK(s2.writes == 1);
  CHECK(fs::file_size(victim) > anycl::detail::entry_header_size);
}

// --- trust (catalogue rows B-66..B-69): an entry carries native code the driver loads, so the
// cache is used only where nobody but the user (with ANYCL_CACHE_SHARED=1: its group) can write.
namespace {
const char* const refused_folder = "is not used:";
constexpr uid_t nobody = 65534;

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

/// A folder of `t` with `mode`, holding a copy of the plain program's entry (mode 0600).
fs::path folder_with_entry(cache_test& t, const std::string& name, unsigned mode) {
  const fs::path dir = t.folder(name);
  fs::create_directory(dir);
  const fs::path entry = dir / warm().entry.filename();
  fs::copy_file(warm().entry, entry);
  REQUIRE(::chmod(entry.c_str(), 0600) == 0);
  REQUIRE(::chmod(dir.c_str(), mode) == 0);
  return dir;
}

/// The child that loads the plain program and variant 1 from `dir` found the folder refused:
/// one warning, nothing read or written, the entry untouched.
void check_refused(cache_test& t, const fs::path& dir, env_list env = {}) {
  child_result r = t.run({"--variant", "", "--variant", "1"}, dir, pocl::warm, std::move(env));
  INFO(r.describe());
  child_stats s = succeeded(r);
  CHECK(s.hits == 0);
  CHECK(s.misses == 0);
  CHECK(s.writes == 0);
  CHECK(r.lines_with(refused_folder) == 1);
  CHECK(r.lines_with("anycl: warning") == 1);
  CHECK(files_ending_with(dir, ".bin") ==
        std::vector<std::string>{warm().entry.filename().string()});
  CHECK(read_bytes(dir / warm().entry.filename()) == read_bytes(warm().entry));
}
}  // namespace

TEST_CASE("disk cache: B-66 a new folder is made 0700 and its entries 0600", "[cache]") {
  cache_test t;
  const fs::path dir = t.folder("new") / "inner";
  child_result r = t.run({}, dir);
  INFO(r.describe());
  child_stats s = succeeded(r);
  CHECK(s.writes == 1);
  CHECK(r.lines_with("anycl: warning") == 0);
  CHECK(mode_of(dir) == 0700);
  auto bins = files_ending_with(dir, ".bin");
  REQUIRE(bins.size() == 1);
  CHECK(mode_of(dir / bins.front()) == 0600);

  SECTION("with ANYCL_CACHE_SHARED=1: 2770 and 0640, the group's bits set whatever the umask") {
    const fs::path shared = t.folder("shared");
    child_result sr = t.run({}, shared, pocl::warm, {{"ANYCL_CACHE_SHARED", "1"}});
    INFO(sr.describe());
    CHECK(succeeded(sr).writes == 1);
    CHECK(mode_of(shared) == 02770);
    auto shared_bins = files_ending_with(shared, ".bin");
    REQUIRE(shared_bins.size() == 1);
    CHECK(mode_of(shared / shared_bins.front()) == 0640);
  }
  SECTION("ANYCL_CACHE_SHARED with another value is refused by name") {
    child_result bad = t.run({}, t.folder("bad"), pocl::warm, {{"ANYCL_CACHE_SHARED", "yes"}});
    INFO(bad.describe());
    CHECK(bad.exit_code() == 1);
    CHECK(bad.lines_with("ANYCL_CACHE_SHARED='yes' is neither 1") == 1);
  }
}

TEST_CASE("disk cache: B-67 a folder its group or others can write is refused with one warning",
          "[cache]") {
  cache_test t;
  for (unsigned mode : {0770U, 0720U, 0707U, 0702U, 01777U}) {
    INFO("folder mode " << std::oct << mode);
    check_refused(t, folder_with_entry(t, "mode-" + std::to_string(mode), mode));
  }
  SECTION("with ANYCL_CACHE_SHARED=1 the group may write; others still never") {
    const fs::path group = folder_with_entry(t, "group", 0770);
    child_result r = t.run({"--variant", "", "--variant", "1"}, group, pocl::warm,
                           {{"ANYCL_CACHE_SHARED", "1"}});
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 1);
    CHECK(s.writes == 1);
    CHECK(r.lines_with("anycl: warning") == 0);
    check_refused(t, folder_with_entry(t, "others", 0772), {{"ANYCL_CACHE_SHARED", "1"}});
  }
}

TEST_CASE("disk cache: B-68 a folder owned by another user is refused with one warning",
          "[cache]") {
  cache_test t;
  if (::geteuid() == 0) {
    const fs::path dir = folder_with_entry(t, "nobody", 0700);
    REQUIRE(::chown(dir.c_str(), nobody, nobody) == 0);
    check_refused(t, dir);
    check_refused(t, dir, {{"ANYCL_CACHE_SHARED", "1"}});  // nor is its group one of root's
  } else {
    // Not root: no file can be given away, but "/" is root's.
    child_result r = t.run({}, "/");
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits + s.misses + s.writes == 0);
    CHECK(r.lines_with("kernel cache folder / is not used: it is owned by user 0") == 1);
  }
}

TEST_CASE("disk cache: B-69 an entry another user owns or could write is deleted and rebuilt",
          "[cache]") {
  cache_test t;
  auto check_rejected = [&](const std::string& name, unsigned mode, const std::string& why) {
    INFO(name);
    const fs::path dir = folder_with_entry(t, name, 0700);
    const fs::path entry = dir / warm().entry.filename();
    REQUIRE(::chmod(entry.c_str(), mode) == 0);
    if (name == "owner") REQUIRE(::chown(entry.c_str(), nobody, nobody) == 0);
    child_result r = t.run({}, dir);
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 0);
    CHECK(s.rejects == 1);
    CHECK(s.misses == 1);
    CHECK(s.writes == 1);
    CHECK(r.lines_with("rejected (" + why) == 1);
    struct stat st {};
    REQUIRE(::stat(entry.c_str(), &st) == 0);  // the rebuilt one: ours, private
    CHECK(st.st_uid == ::geteuid());
    CHECK((st.st_mode & 07777) == 0600);
  };
  check_rejected("group", 0620, "writable by its group (mode 0620)");
  check_rejected("others", 0602, "writable by others (mode 0602)");
  if (::geteuid() == 0)
    check_rejected("owner", 0600, "owned by user 65534, not by this user");
  else
    WARN("not root: an entry of another user cannot be made here, that case is skipped");

  SECTION("with ANYCL_CACHE_SHARED=1 an entry its group can write is used") {
    const fs::path dir = folder_with_entry(t, "shared", 0770);
    REQUIRE(::chmod((dir / warm().entry.filename()).c_str(), 0660) == 0);
    child_result r = t.run({}, dir, pocl::warm, {{"ANYCL_CACHE_SHARED", "1"}});
    INFO(r.describe());
    child_stats s = succeeded(r);
    CHECK(s.hits == 1);
    CHECK(s.rejects == 0);
  }
}
