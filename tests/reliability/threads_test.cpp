// SPDX-License-Identifier: Apache-2.0
// Thread stress (catalogue rows B-46, B-47, B-48, B-57): 8 threads on one context, each iteration
// checked against the host: a shared in-order queue, a queue per thread, one kernel object shared
// by every thread, array expressions and reductions, concurrent builds of the same and of different
// programs, and concurrent writers of one disk cache folder. ANYCL_STRESS_ITERATIONS sets the
// iterations per thread (default 1000; the ThreadSanitizer run uses fewer).
#include <stdlib.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/device_fixture.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int thread_count = 8;

int iterations() {
  const char* v = std::getenv("ANYCL_STRESS_ITERATIONS");
  const int n = v != nullptr ? std::atoi(v) : 1000;
  return n > 0 ? n : 1000;
}

/// Runs body(t) on thread_count threads and joins them; an exception in a thread is counted as
/// a failure of that thread (and its message kept) instead of terminating the process.
template <class Body>
std::vector<std::string> on_threads(Body body) {
  std::vector<std::string> failures(thread_count);
  std::vector<std::thread> pool;
  for (int t = 0; t < thread_count; ++t)
    pool.emplace_back([&, t] {
      try {
        body(t);
      } catch (const std::exception& ex) {
        failures[static_cast<std::size_t>(t)] = ex.what();
      }
    });
  for (auto& th : pool) th.join();
  return failures;
}

void check_no_failures(const std::vector<std::string>& failures) {
  for (std::size_t t = 0; t < failures.size(); ++t) {
    INFO("thread " << t);
    CHECK(failures[t].empty());
  }
}

/// A folder under this test's ANYCL_CACHE_DIR (or the temp folder), removed at the end.
class scratch_dir {
 public:
  scratch_dir() {
    const char* base = std::getenv("ANYCL_CACHE_DIR");
    fs::path root = base != nullptr && *base != '\0' ? fs::path(base) : fs::temp_directory_path();
    fs::create_directories(root);
    std::string tmpl = (root / "threads-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~scratch_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  std::string str() const { return path_.string(); }

 private:
  fs::path path_;
};

struct threads_env : anycl::test::env {
  anycl::program prog = anycl::test::build(ctx, "tests/cl_kernels/basic.cl");
};

/// One checked round trip: write `n` values, add one on the device, read back, count mismatches.
int add_one_round(const anycl::command_queue& q, const anycl::kernel& add_one,
                  const anycl::buffer& buf, int first) {
  constexpr int n = 64;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = first + i;
  q.write(anycl::buffer_view<int>(buf), host);
  q.launch(add_one, anycl::nd_range{n}, buf);
  std::vector<int> back = q.read(anycl::buffer_view<int>(buf));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += back[i] != first + i + 1;
  return wrong;
}

}  // namespace

TEST_CASE("B-47 threads: 8 threads share one in-order queue", "[threads]") {
  threads_env e;
  const int n = iterations();
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::buffer buf(e.ctx, 64 * sizeof(int));
    anycl::kernel add_one = e.prog.kernel("add_one");  // a kernel object per thread
    for (int it = 0; it < n; ++it) wrong[t] += add_one_round(e.queue, add_one, buf, t * n + it);
  }));
  for (int t = 0; t < thread_count; ++t) CHECK(wrong[t] == 0);
  INFO(thread_count << " threads x " << n << " iterations");
}

TEST_CASE("B-47 threads: 8 threads each with a queue of their own on one context", "[threads]") {
  threads_env e;
  const int n = iterations();
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::command_queue own(e.ctx, e.dev);
    anycl::buffer buf(e.ctx, 64 * sizeof(int));
    anycl::kernel add_one = e.prog.kernel("add_one");
    for (int it = 0; it < n; ++it) wrong[t] += add_one_round(own, add_one, buf, -t * n - it);
  }));
  for (int t = 0; t < thread_count; ++t) CHECK(wrong[t] == 0);
}

TEST_CASE("B-46 threads: one kernel object launched by 8 threads with their own arguments",
          "[threads]") {
  // Raw OpenCL gets wrong results here (clSetKernelArg and the enqueue race); AnyCL sets the
  // arguments and enqueues under one lock per kernel.
  threads_env e;
  const int n = iterations();
  constexpr int len = 64;
  anycl::kernel affine = e.prog.kernel("affine");
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::command_queue own(e.ctx, e.dev);
    const anycl::command_queue& q = t % 2 == 0 ? own : e.queue;
    anycl::buffer out(e.ctx, len * sizeof(int));
    for (int it = 0; it < n; ++it) {
      const int value = t * 100000 + it;
      q.launch(affine, anycl::nd_range{len}, out, value);
      std::vector<int> v = q.read(anycl::buffer_view<int>(out));
      for (int i = 0; i < len; ++i) wrong[t] += v[i] != value * i;
    }
  }));
  for (int t = 0; t < thread_count; ++t) CHECK(wrong[t] == 0);
}

TEST_CASE("threads: array expressions and reductions from 8 threads on one context", "[threads]") {
  anycl::test::env e;
  const int n = iterations();
  constexpr std::size_t len = 257;
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::command_queue own(e.ctx, e.dev);
    std::vector<float> host(len);
    for (std::size_t i = 0; i < len; ++i) host[i] = static_cast<float>(i % 7) + t;
    auto x = anycl::array<float>::from_host(own, host);
    auto y = anycl::array<float>::zeros(own, {len});
    for (int it = 0; it < n; ++it) {
      const float a = static_cast<float>(it % 5);
      y = a * x + 1.0f;  // one generated kernel, shared by every thread of the context
      const double got = anycl::sum(y);
      double expect = 0;
      for (float v : host) expect += static_cast<double>(a * v + 1.0f);
      wrong[t] += got != expect;  // small integers: exact in float and double
    }
  }));
  for (int t = 0; t < thread_count; ++t) CHECK(wrong[t] == 0);
}

TEST_CASE("B-48 threads: concurrent builds of the same and of different programs", "[threads]") {
  anycl::test::env e;
  scratch_dir dir;
  const std::string source =
      "kernel void value(global int* out) { out[get_global_id(0)] = VALUE; }\n";
  // Each thread builds one program shared by all (VALUE 7) and one of its own (VALUE 100 + t),
  // twice over, through separate loaders: the shared one must be one program object.
  std::vector<cl_program> shared(thread_count);
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::loader_options o;
    o.disk_cache = false;
    anycl::kernel_loader loader(e.ctx, o);
    anycl::command_queue own(e.ctx, e.dev);
    anycl::buffer out(e.ctx, 4 * sizeof(int));
    auto run = [&](const anycl::program& p, int expect) {
      own.launch(p.kernel("value"), anycl::nd_range{4}, out);
      for (int v : own.read(anycl::buffer_view<int>(out))) wrong[t] += v != expect;
    };
    for (int round = 0; round < 2; ++round) {
      anycl::program same =
          loader.load_source(source, "value.cl", anycl::build_options{}.define("VALUE", "7"));
      shared[t] = same.get();
      run(same, 7);
      anycl::program mine = loader.load_source(
          source, "value.cl", anycl::build_options{}.define("VALUE", std::to_string(100 + t)));
      run(mine, 100 + t);
    }
  }));
  for (int t = 0; t < thread_count; ++t) {
    CHECK(wrong[t] == 0);
    CHECK(shared[t] == shared[0]);
  }
}

TEST_CASE("B-57 threads: concurrent writers of one disk cache folder leave sound entries",
          "[threads]") {
  anycl::test::env e;
  scratch_dir dir;
  const std::string source =
      "kernel void value(global int* out) { out[get_global_id(0)] = VALUE; }\n";
  constexpr int programs = 4;
  anycl::reset_cache_stats();
  // Every thread has a context of its own, so nothing is shared in memory: all of them build
  // every program and write its entry into the same folder at about the same time.
  std::vector<int> wrong(thread_count, 0);
  check_no_failures(on_threads([&](int t) {
    anycl::context ctx(e.dev);
    anycl::command_queue q(ctx, e.dev);
    anycl::loader_options o;
    o.disk_cache = true;
    o.cache_dir = dir.str();
    anycl::kernel_loader loader(ctx, o);
    anycl::buffer out(ctx, sizeof(int));
    for (int p = 0; p < programs; ++p) {
      const int value = 1000 + (p + t) % programs;
      auto prog = loader.load_source(source, "value.cl",
                                     anycl::build_options{}.define("VALUE", std::to_string(value)));
      q.launch(prog.kernel("value"), anycl::nd_range{1}, out);
      wrong[t] += q.read(anycl::buffer_view<int>(out))[0] != value;
    }
  }));
  anycl::wait_for_cache_writes();
  for (int t = 0; t < thread_count; ++t) CHECK(wrong[t] == 0);
  CHECK(anycl::cache_stats().rejects == 0);
  CHECK(anycl::cache_stats().write_failures == 0);

  // A new context reads every entry back: all hits, none refused.
  anycl::reset_cache_stats();
  anycl::context ctx(e.dev);
  anycl::command_queue q(ctx, e.dev);
  anycl::loader_options o;
  o.disk_cache = true;
  o.cache_dir = dir.str();
  anycl::kernel_loader loader(ctx, o);
  anycl::buffer out(ctx, sizeof(int));
  for (int p = 0; p < programs; ++p) {
    auto prog = loader.load_source(
        source, "value.cl", anycl::build_options{}.define("VALUE", std::to_string(1000 + p)));
    q.launch(prog.kernel("value"), anycl::nd_range{1}, out);
    CHECK(q.read(anycl::buffer_view<int>(out))[0] == 1000 + p);
  }
  CHECK(anycl::cache_stats().hits == programs);
  CHECK(anycl::cache_stats().misses == 0);
  CHECK(anycl::cache_stats().rejects == 0);
}
