// SPDX-License-Identifier: Apache-2.0
// anycl-cache-child: one process of the multi-process disk cache tests. Loads a kernel file through
// a kernel_loader (so through the disk cache), runs saxpy with it, checks the result against the
// host, waits for the cache writes and prints the cache statistics on one line:
//   hits=H misses=M rejects=R writes=W write_failures=F waits=X
// Exit 0 on success, 1 with a message on stderr on any failure, 2 on bad usage, 3 when
// --readonly-bind cannot be set up here (no mount namespace or no permission).
//
// Options:
//   --search DIR          a folder for the loader's search path (repeatable), searched before the
//                         tests' kernel folder
//   --file FILE           the .cl file to load (default cache_child.cl, in the tests' kernel
//                         folder: one kernel); it must have anycl_saxpy(uint n, float a,
//                         global const float* x, global float* y)
//   --variant V           load the file with -DANYCL_CHILD_VARIANT=V, a distinct program and cache
//                         entry (repeatable: one program per variant; an empty V, or no --variant,
//                         loads it without the define)
//   --size N              elements (default 4096)
//   --fsize-limit BYTES   RLIMIT_FSIZE, with SIGXFSZ ignored: writes beyond BYTES fail with EFBIG,
//                         like a full disk. Set after the program is built, before its first
//                         launch (so at most one program): POCL 3.1 writes the preprocessed source
//                         (over 1 MB with its headers) to a file at every source build, and exits
//                         the process ("LLVM ERROR: IO failure on output stream") when it cannot,
//                         so a limit smaller than a cache entry cannot be set before the build
//   --readonly-bind DIR   before anything else, enter a private mount namespace and bind-mount DIR
//                         read-only onto itself (root only): a read-only folder even for root
//   --no-wait             return from main without calling wait_for_cache_writes() (the library
//                         waits at exit); the statistics printed may then miss pending writes
//   --hold                after loading the first program (this process then holds its build lock
//                         when it built it), print "loaded" on stdout and sleep until killed
//   --probe               print the selected device and exit (no kernel, no cache)
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"

namespace {

struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct options {
  std::vector<std::string> search;
  std::string file = "cache_child.cl";
  std::vector<std::string> variants;
  cl_uint size = 4096;
  long long fsize_limit = -1;
  std::string readonly_bind;
  bool probe = false;
  bool no_wait = false;
  bool hold = false;
};

unsigned long long number(const std::string& flag, const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw usage_error(flag + " needs a non-negative whole number, not '" + text + "'");
  return std::stoull(text);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--search") {
      o.search.push_back(value());
    } else if (arg == "--file") {
      o.file = value();
    } else if (arg == "--variant") {
      o.variants.push_back(value());
    } else if (arg == "--size") {
      auto n = number(arg, value());
      if (n == 0 || n > (1u << 24)) throw usage_error("--size must be in 1..2^24");
      o.size = static_cast<cl_uint>(n);
    } else if (arg == "--fsize-limit") {
      o.fsize_limit = static_cast<long long>(number(arg, value()));
    } else if (arg == "--no-wait") {
      o.no_wait = true;
    } else if (arg == "--hold") {
      o.hold = true;
    } else if (arg == "--probe") {
      o.probe = true;
    } else if (arg == "--readonly-bind") {
      o.readonly_bind = value();
    } else {
      throw usage_error("unknown option '" + arg + "'");
    }
  }
  if (o.fsize_limit >= 0 && o.variants.size() > 1)
    throw usage_error("--fsize-limit works with one program only (POCL cannot build under it)");
  return o;
}

/// A private mount namespace in which `dir` is a read-only bind mount of itself. Returns an empty
/// string on success, else why it cannot be done here.
std::string make_readonly(const std::string& dir) {
  auto failed = [](const char* what) { return std::string(what) + ": " + std::strerror(errno); };
  if (::unshare(CLONE_NEWNS) != 0) return failed("unshare(CLONE_NEWNS)");
  // Keep our mounts out of the parent namespace (the host's / is usually shared).
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return failed("making / private");
  if (::mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) != 0)
    return failed("bind mount");
  if (::mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
    return failed("read-only remount");
  return {};
}

void run_one(const anycl::kernel_loader& loader, const anycl::command_queue& queue,
             const std::string& file, const anycl::build_options& build, cl_uint n, unsigned seed,
             long long fsize_limit, bool hold) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), y(n);
  for (auto& v : x) v = dist(rng);
  for (auto& v : y) v = dist(rng);
  const float a = 1.5f + static_cast<float>(seed % 7);

  auto saxpy =
      loader.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          file, "anycl_saxpy", build);
  if (hold) {
    std::printf("loaded\n");
    std::fflush(stdout);
    for (;;) ::pause();
  }
  if (fsize_limit >= 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead of killing
    struct rlimit limit {};
    limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(fsize_limit);
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0)
      throw std::runtime_error(std::string("setrlimit(RLIMIT_FSIZE): ") + std::strerror(errno));
  }
  const anycl::context ctx = queue.context();
  anycl::buffer xb = anycl::buffer::from(ctx, x, anycl::memory_access::read_only);
  anycl::buffer yb = anycl::buffer::from(ctx, y);
  anycl::event done = saxpy(queue, anycl::nd_range{n}, n, a, xb, yb);
  std::vector<float> got = queue.read(anycl::buffer_view<float>(yb), {done});
  for (cl_uint i = 0; i < n; ++i) {
    // The device may contract a * x + y into one fma: allow a few ulps.
    const float want = a * x[i] + y[i];
    if (!(std::fabs(got[i] - want) <= 1e-5f * (1.0f + std::fabs(want))))
      throw std::runtime_error("wrong result for '" + file + "' (" + build.str() + ") at " +
                               std::to_string(i) + ": " + std::to_string(got[i]) + ", expected " +
                               std::to_string(want));
  }
}

int run(const options& o) {
  anycl::device dev = anycl::select_device();
  if (o.probe) {
    std::printf("device: %s (%s, %s)\n", dev.name().c_str(), dev.version().c_str(),
                dev.platform().name().c_str());
    return 0;
  }
  anycl::context ctx(dev);
  anycl::command_queue queue(ctx, dev);

  anycl::loader_options lo;
  lo.search_path = o.search;
  lo.search_path.emplace_back(ANYCL_CACHE_CHILD_KERNEL_DIR);
  anycl::kernel_loader loader(ctx, lo);
  if (o.variants.empty()) {
    run_one(loader, queue, o.file, {}, o.size, 1, o.fsize_limit, o.hold);
  } else {
    unsigned seed = 1;
    for (const auto& v : o.variants) {
      anycl::build_options build;
      if (!v.empty()) build.define("ANYCL_CHILD_VARIANT", v);
      run_one(loader, queue, o.file, build, o.size, seed++, o.fsize_limit, o.hold);
    }
  }
  if (!o.no_wait) anycl::wait_for_cache_writes();

  const anycl::cache_statistics s = anycl::cache_stats();
  std::printf("hits=%llu misses=%llu rejects=%llu writes=%llu write_failures=%llu waits=%llu\n",
              static_cast<unsigned long long>(s.hits), static_cast<unsigned long long>(s.misses),
              static_cast<unsigned long long>(s.rejects), static_cast<unsigned long long>(s.writes),
              static_cast<unsigned long long>(s.write_failures),
              static_cast<unsigned long long>(s.waits));
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "anycl-cache-child: %s\n", e.what());
    return 2;
  }
  if (!o.readonly_bind.empty()) {
    std::string why = make_readonly(o.readonly_bind);
    if (!why.empty()) {
      std::fprintf(stderr, "anycl-cache-child: cannot make %s read-only here: %s\n",
                   o.readonly_bind.c_str(), why.c_str());
      return 3;
    }
  }
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "anycl-cache-child: %s\n", e.what());
    return 1;
  }
}
