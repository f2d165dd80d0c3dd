// SPDX-License-Identifier: Apache-2.0
// anycl-bench: time to first result of a fresh process. The parent prepares the caches and starts
// its own executable again (posix_spawn of /proc/self/exe: fork() after OpenCL has been used hangs
// drivers) with a controlled environment. Each child creates its context and queue (timed apart),
// then times loading the program, creating the kernel and buffers, one launch, and reading back
// the result checked against the host.
#include "first_result.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

extern char** environ;

namespace anycl::bench {
namespace {
namespace fs = std::filesystem;
using clock_type = std::chrono::steady_clock;

double ms_between(clock_type::time_point a, clock_type::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// --- the work: y = a * x + y, small whole numbers, so exact with or without a fused multiply-add
constexpr cl_uint element_count = 4096;
constexpr float factor = 2.0f;
constexpr const char* kernel_file = "anycl/demo.cl";  // what the AnyCL side loads
constexpr const char* kernel_name = "anycl_saxpy";
constexpr const char* source_file = "demo.cl";   // the same text in WORKDIR, for the raw C API
constexpr const char* binary_file = "demo.bin";  // the raw C API's saved binary, in WORKDIR

struct inputs {
  std::vector<float> x, y;
  inputs() : x(element_count), y(element_count) {
    for (cl_uint i = 0; i < element_count; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = static_cast<float>(i % 7);
    }
  }
};

void verify(const inputs& in, const std::vector<float>& out) {
  if (out.size() != element_count)
    throw std::runtime_error("wrong result: " + std::to_string(out.size()) +
                             " elements, expected " + std::to_string(element_count));
  for (cl_uint i = 0; i < element_count; ++i) {
    const float expected = factor * in.x[i] + in.y[i];
    if (out[i] != expected)
      throw std::runtime_error("wrong result at element " + std::to_string(i) + ": " +
                               std::to_string(out[i]) + ", expected " + std::to_string(expected));
  }
}

// --- the child ---

enum class child_mode {
  anycl_cold,      // kernel_loader, AnyCL cache empty: must miss, then write one entry
  anycl_warm,      // kernel_loader, AnyCL cache primed: must hit
  anycl_no_cache,  // kernel_loader with ANYCL_CACHE=off: must not touch the AnyCL cache
  raw_source,      // clCreateProgramWithSource from WORKDIR/demo.cl
  raw_binary,      // clCreateProgramWithBinary from WORKDIR/demo.bin
  raw_save         // raw_source, then (after clFinish) saves the binary to WORKDIR/demo.bin
};

constexpr std::pair<child_mode, const char*> mode_names[] = {
    {child_mode::anycl_cold, "anycl-cold"},         {child_mode::anycl_warm, "anycl-warm"},
    {child_mode::anycl_no_cache, "anycl-no-cache"}, {child_mode::raw_source, "raw-source"},
    {child_mode::raw_binary, "raw-binary"},         {child_mode::raw_save, "raw-save"}};

const char* name_of(child_mode m) {
  for (const auto& [mode, name] : mode_names)
    if (mode == m) return name;
  return "?";
}

/// The child's figures, in milliseconds: setup (platform, context, queue; not part of the first
/// result), program (loaded and built), kernel (kernel object and buffers), run (launch, read back,
/// check) and total (program + kernel + run, the time to first result).
struct phases {
  double setup = 0, program = 0, kernel = 0, run = 0;
};

void print_figures(child_mode m, const phases& p) {
  std::cout << "first-result mode=" << name_of(m) << " setup_ms=" << fixed(p.setup, 4)
            << " total_ms=" << fixed(p.program + p.kernel + p.run, 4)
            << " program_ms=" << fixed(p.program, 4) << " kernel_ms=" << fixed(p.kernel, 4)
            << " run_ms=" << fixed(p.run, 4) << std::endl;
}

[[noreturn]] void raw_failed(const char* call, cl_int status) {
  throw std::runtime_error(std::string("raw C API: ") + call +
                           " failed: " + std::string(anycl::status_name(status)) + " (" +
                           std::to_string(status) + ")");
}
void raw_check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) raw_failed(call, status);
}

std::vector<unsigned char> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  if (!f) throw std::runtime_error("cannot open " + path);
  std::vector<unsigned char> data(static_cast<std::size_t>(f.tellg()));
  f.seekg(0);
  if (!f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size())))
    throw std::runtime_error("cannot read " + path);
  return data;
}

void write_file(const std::string& path, const void* data, std::size_t size) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  f.close();
  if (!f) throw std::runtime_error("cannot write " + path);
}

std::vector<cl_platform_id> raw_platforms() {
  cl_uint np = 0;
  raw_check(clGetPlatformIDs(0, nullptr, &np), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(np);
  raw_check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
  return platforms;
}

std::vector<cl_device_id> raw_devices(cl_platform_id platform) {
  cl_uint nd = 0;
  raw_check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd), "clGetDeviceIDs");
  std::vector<cl_device_id> devices(nd);
  raw_check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr),
            "clGetDeviceIDs");
  return devices;
}

/// The figures from the five instants that bound the phases.
phases phases_between(clock_type::time_point s0, clock_type::time_point t0,
                      clock_type::time_point t1, clock_type::time_point t2,
                      clock_type::time_point t3) {
  phases ph;
  ph.setup = ms_between(s0, t0);
  ph.program = ms_between(t0, t1);
  ph.kernel = ms_between(t1, t2);
  ph.run = ms_between(t2, t3);
  return ph;
}

/// The raw side's device (platform `pi`'s device `di`), context and queue.
struct raw_setup {
  cl_device_id dev = nullptr;
  cl_context ctx = nullptr;
  cl_command_queue queue = nullptr;
};

raw_setup raw_open(cl_uint pi, cl_uint di) {
  const std::vector<cl_platform_id> platforms = raw_platforms();
  if (pi >= platforms.size()) throw std::runtime_error("no platform " + std::to_string(pi));
  const std::vector<cl_device_id> devices = raw_devices(platforms[pi]);
  if (di >= devices.size()) throw std::runtime_error("no device " + std::to_string(di));
  raw_setup s;
  s.dev = devices[di];
  cl_int err = CL_SUCCESS;
  s.ctx = clCreateContext(nullptr, 1, &s.dev, nullptr, nullptr, &err);
  raw_check(err, "clCreateContext");
  s.queue = clCreateCommandQueueWithProperties(s.ctx, s.dev, nullptr, &err);
  raw_check(err, "clCreateCommandQueueWithProperties");
  return s;
}

/// The program from WORKDIR's binary (raw_binary) or source (the other modes), not yet built.
cl_program raw_create_program(child_mode mode, const std::string& workdir, const raw_setup& s) {
  cl_int err = CL_SUCCESS;
  cl_program prog = nullptr;
  if (mode == child_mode::raw_binary) {
    const std::vector<unsigned char> bin = read_file(workdir + "/" + binary_file);
    const unsigned char* bytes = bin.data();
    const std::size_t size = bin.size();
    cl_int binary_status = CL_SUCCESS;
    prog = clCreateProgramWithBinary(s.ctx, 1, &s.dev, &size, &bytes, &binary_status, &err);
    raw_check(err, "clCreateProgramWithBinary");
    raw_check(binary_status, "clCreateProgramWithBinary (binary status)");
  } else {
    const std::vector<unsigned char> src = read_file(workdir + "/" + source_file);
    const char* text = reinterpret_cast<const char*>(src.data());
    const std::size_t length = src.size();
    prog = clCreateProgramWithSource(s.ctx, 1, &text, &length, &err);
    raw_check(err, "clCreateProgramWithSource");
  }
  return prog;
}

void raw_build(cl_program prog, cl_device_id dev) {
  const cl_int err = clBuildProgram(prog, 1, &dev, "", nullptr, nullptr);
  if (err == CL_SUCCESS) return;
  std::size_t size = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  throw std::runtime_error(
      "raw C API: clBuildProgram failed: " + std::string(anycl::status_name(err)) + "\n" + log);
}

/// The kernel and its two buffers, x (read only) and y, filled from `in`.
struct raw_kernel {
  cl_kernel kernel = nullptr;
  cl_mem x = nullptr, y = nullptr;
};

constexpr std::size_t buffer_bytes = element_count * sizeof(float);

raw_kernel raw_make_kernel(cl_program prog, cl_context ctx, const inputs& in) {
  raw_kernel k;
  cl_int err = CL_SUCCESS;
  k.kernel = clCreateKernel(prog, kernel_name, &err);
  raw_check(err, "clCreateKernel");
  k.x = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, buffer_bytes,
                       const_cast<float*>(in.x.data()), &err);
  raw_check(err, "clCreateBuffer");
  k.y = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, buffer_bytes,
                       const_cast<float*>(in.y.data()), &err);
  raw_check(err, "clCreateBuffer");
  return k;
}

/// One launch, the result read back and checked against the host.
void raw_launch(cl_command_queue queue, const raw_kernel& k, const inputs& in) {
  const cl_uint n = element_count;
  const float a = factor;
  raw_check(clSetKernelArg(k.kernel, 0, sizeof n, &n), "clSetKernelArg");
  raw_check(clSetKernelArg(k.kernel, 1, sizeof a, &a), "clSetKernelArg");
  raw_check(clSetKernelArg(k.kernel, 2, sizeof(cl_mem), &k.x), "clSetKernelArg");
  raw_check(clSetKernelArg(k.kernel, 3, sizeof(cl_mem), &k.y), "clSetKernelArg");
  const std::size_t global = element_count;
  raw_check(
      clEnqueueNDRangeKernel(queue, k.kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
      "clEnqueueNDRangeKernel");
  std::vector<float> out(element_count);
  raw_check(
      clEnqueueReadBuffer(queue, k.y, CL_TRUE, 0, buffer_bytes, out.data(), 0, nullptr, nullptr),
      "clEnqueueReadBuffer");
  verify(in, out);
}

/// Saves the program's binary to WORKDIR/demo.bin.
void raw_save_binary(cl_command_queue queue, cl_program prog, const std::string& workdir) {
  // POCL compiles the work-group function at the first launch and freezes the binary at the
  // first CL_PROGRAM_BINARY_SIZES query: ask only once the launch has completed.
  raw_check(clFinish(queue), "clFinish");
  std::size_t size = 0;
  raw_check(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
            "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  if (size == 0) throw std::runtime_error("raw C API: the program has no binary");
  std::vector<unsigned char> bin(size);
  unsigned char* p = bin.data();
  raw_check(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof p, &p, nullptr),
            "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  write_file(workdir + "/" + binary_file, bin.data(), bin.size());
}

/// The raw C API side: nothing of AnyCL but status_name in messages.
phases raw_child(child_mode mode, const std::string& workdir, cl_uint pi, cl_uint di) {
  const inputs in;
  const auto s0 = clock_type::now();
  const raw_setup s = raw_open(pi, di);
  const auto t0 = clock_type::now();
  cl_program prog = raw_create_program(mode, workdir, s);
  raw_build(prog, s.dev);
  const auto t1 = clock_type::now();
  const raw_kernel k = raw_make_kernel(prog, s.ctx, in);
  const auto t2 = clock_type::now();
  raw_launch(s.queue, k, in);
  const auto t3 = clock_type::now();

  if (mode == child_mode::raw_save) raw_save_binary(s.queue, prog, workdir);
  clReleaseMemObject(k.y);
  clReleaseMemObject(k.x);
  clReleaseKernel(k.kernel);
  clReleaseProgram(prog);
  clReleaseCommandQueue(s.queue);
  clReleaseContext(s.ctx);
  return phases_between(s0, t0, t1, t2, t3);
}

/// Throws unless the AnyCL cache saw what `mode` expects (once its writes are done).
void check_cache_counts(child_mode mode) {
  anycl::wait_for_cache_writes();
  const anycl::cache_statistics st = anycl::cache_stats();
  const char* expected = nullptr;
  bool ok = st.rejects == 0 && st.write_failures == 0;
  switch (mode) {
    case child_mode::anycl_cold:
      expected = "a cold AnyCL cache (hits 0, misses 1, writes 1)";
      ok = ok && st.hits == 0 && st.misses == 1 && st.writes == 1;
      break;
    case child_mode::anycl_warm:
      expected = "a warm AnyCL cache (hits 1, misses 0, writes 0)";
      ok = ok && st.hits == 1 && st.misses == 0 && st.writes == 0;
      break;
    default:
      expected = "the AnyCL cache off (hits 0, misses 0, writes 0)";
      ok = ok && st.hits == 0 && st.misses == 0 && st.writes == 0;
      break;
  }
  if (!ok)
    throw std::runtime_error(std::string("mode ") + name_of(mode) + " expects " + expected +
                             ", got hits " + std::to_string(st.hits) + ", misses " +
                             std::to_string(st.misses) + ", rejects " + std::to_string(st.rejects) +
                             ", writes " + std::to_string(st.writes) + ", write failures " +
                             std::to_string(st.write_failures));
}

/// The AnyCL side: the kernel_loader on the library's own demo.cl, as an application would.
phases anycl_child(child_mode mode, cl_uint pi, cl_uint di) {
  const inputs in;
  const auto s0 = clock_type::now();
  const anycl::device dev = anycl::select_device(std::to_string(pi) + ":" + std::to_string(di));
  const anycl::context ctx(dev);
  const anycl::command_queue queue(ctx, dev);

  const auto t0 = clock_type::now();
  anycl::loader_options options;
  options.use_environment = false;  // the embedded demo.cl, whatever ANYCL_KERNEL_PATH says
  const anycl::kernel_loader loader(ctx, options);
  const anycl::program prog = loader.load(kernel_file);
  const auto t1 = clock_type::now();
  auto saxpy =
      prog.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          kernel_name);
  const anycl::buffer xb = anycl::buffer::from(ctx, in.x, anycl::memory_access::read_only);
  const anycl::buffer yb = anycl::buffer::from(ctx, in.y);
  const auto t2 = clock_type::now();
  const anycl::event done =
      saxpy(queue, anycl::nd_range{element_count}, element_count, factor, xb, yb);
  std::vector<float> out = queue.read(anycl::buffer_view<float>(yb), {done});
  if (const char* fail = std::getenv("ANYCL_BENCH_FAIL"); fail != nullptr && *fail != '\0')
    out[element_count / 2] += 1.0f;  // the parent asked for a failing check
  verify(in, out);
  const auto t3 = clock_type::now();

  check_cache_counts(mode);
  return phases_between(s0, t0, t1, t2, t3);
}

cl_uint parse_index(const char* s) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v > 0xffffu)
    throw std::runtime_error(std::string("bad index '") + s + "'");
  return static_cast<cl_uint>(v);
}

// --- the parent ---

/// A private folder under $TMPDIR (or /tmp), removed with everything in it.
class temp_folder {
 public:
  temp_folder() {
    const char* t = std::getenv("TMPDIR");
    std::string pattern =
        std::string(t != nullptr && *t == '/' ? t : "/tmp") + "/anycl-bench-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr)
      throw std::system_error(errno, std::generic_category(), "creating a folder like " + pattern);
    path_ = pattern;
  }
  ~temp_folder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

using environment_changes = std::vector<std::pair<std::string, std::string>>;

/// This process's environment without the variables that steer either cache or AnyCL, plus `set`.
std::vector<std::string> child_environment(const environment_changes& set) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string v = *e;
    if (v.rfind("ANYCL_", 0) == 0 || v.rfind("POCL_CACHE_DIR=", 0) == 0 ||
        v.rfind("POCL_KERNEL_CACHE=", 0) == 0)
      continue;
    env.push_back(v);
  }
  for (const auto& [name, value] : set) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (auto& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

constexpr int child_time_limit_s = 300;

bool is_anycl_side(child_mode m) {
  return m == child_mode::anycl_cold || m == child_mode::anycl_warm ||
         m == child_mode::anycl_no_cache;
}

/// A started child: its process id and the read end of the pipe on its stdout.
struct spawned_child {
  pid_t pid = 0;
  int out_fd = -1;
};

/// Starts this executable again (posix_spawn of /proc/self/exe) with `args` and `env`, its stdout
/// on a pipe.
spawned_child spawn_self(std::vector<std::string> args, std::vector<std::string> env,
                         const std::string& what) {
  std::vector<char*> argv = c_strings(args), envp = c_strings(env);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::system_error(errno, std::generic_category(), "pipe for " + what);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    throw std::system_error(rc, std::generic_category(), "starting " + what);
  }
  return {pid, fds[0]};
}

/// Appends what `fd` gives to `out` until end of file, an error, or `deadline`; true if the
/// deadline came first.
bool read_until(int fd, clock_type::time_point deadline, std::string& out) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() <= 0) return true;
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return false;
    if (r == 0) continue;
    char buf[4096];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

/// Waits for the child (killed first if it ran out of time); throws unless it exited with 0.
void reap_child(pid_t pid, bool timed_out, const std::string& what) {
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    throw std::runtime_error(what + " did not finish within " + std::to_string(child_time_limit_s) +
                             " s and was killed");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(what + " failed (" +
                             (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                                : "signal " + std::to_string(WTERMSIG(status))) +
                             "); its messages are above");
}

/// The key=value figures of the child's "first-result ..." lines.
std::map<std::string, double> parse_figures(const std::string& out) {
  std::map<std::string, double> figures;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("first-result ", 0) != 0) continue;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
      const auto eq = w.find('=');
      if (eq == std::string::npos) continue;
      char* end = nullptr;
      const double v = std::strtod(w.c_str() + eq + 1, &end);
      if (end != nullptr && *end == '\0') figures[w.substr(0, eq)] = v;
    }
  }
  return figures;
}

/// Runs this executable as a child in `mode` and returns its key=value figures. With `corrupt`,
/// an AnyCL child gets ANYCL_BENCH_FAIL and fails its check.
std::map<std::string, double> run_child(child_mode mode, const std::string& workdir, cl_uint pi,
                                        cl_uint di, const environment_changes& env_changes,
                                        bool corrupt) {
  const std::string what = std::string("first-result child '") + name_of(mode) + "'";
  std::vector<std::string> args = {"anycl-bench", first_result_child_flag, name_of(mode),
                                   workdir,       std::to_string(pi),      std::to_string(di)};
  environment_changes changes = env_changes;
  if (corrupt && is_anycl_side(mode)) changes.emplace_back("ANYCL_BENCH_FAIL", "first_result");
  const spawned_child child = spawn_self(std::move(args), child_environment(changes), what);

  std::string out;
  const bool timed_out =
      read_until(child.out_fd, clock_type::now() + std::chrono::seconds(child_time_limit_s), out);
  ::close(child.out_fd);
  reap_child(child.pid, timed_out, what);

  std::map<std::string, double> figures = parse_figures(out);
  if (figures.count("total_ms") == 0 || figures.count("setup_ms") == 0)
    throw std::runtime_error(what + " printed no figures; its output:\n" + out);
  return figures;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/// Index of `dev`'s platform among clGetPlatformIDs, and of `dev` among that platform's devices.
std::pair<cl_uint, cl_uint> indices_of(const anycl::device& dev) {
  const cl_platform_id platform = dev.platform().get();
  const std::vector<cl_platform_id> platforms = raw_platforms();
  for (cl_uint i = 0; i < platforms.size(); ++i) {
    if (platforms[i] != platform) continue;
    const std::vector<cl_device_id> devices = raw_devices(platforms[i]);
    for (cl_uint j = 0; j < devices.size(); ++j)
      if (devices[j] == dev.get()) return {i, j};
  }
  throw std::runtime_error("device '" + dev.name() +
                           "' is not a device its platform lists; the first-result measurement "
                           "needs one a fresh process can select by index");
}

bool has_files(const std::string& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec)) return true;
  return false;
}

/// Numbered folders for the children's caches: every child gets a fresh POCL_CACHE_DIR
/// (children sharing one fail spuriously), an empty one or a copy of a primed one.
class run_folders {
 public:
  std::string fresh(const std::string& under, const std::string& what) {
    std::string p = next(under, what);
    fs::create_directories(p);
    return p;
  }
  std::string copy_of(const std::string& primed, const std::string& under,
                      const std::string& what) {
    std::string p = next(under, what);
    fs::copy(primed, p, fs::copy_options::recursive);
    return p;
  }

 private:
  std::string next(const std::string& under, const std::string& what) {
    return under + "/" + what + "-" + std::to_string(++count_);
  }
  std::size_t count_ = 0;
};

environment_changes plus(environment_changes a, const environment_changes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

environment_changes anycl_off() { return {{"ANYCL_CACHE", "off"}}; }

/// A fresh, empty POCL cache under `dir` with POCL's kernel cache off.
environment_changes pocl_off(run_folders& folders, const std::string& dir) {
  return {{"POCL_CACHE_DIR", folders.fresh(dir, "pocl")}, {"POCL_KERNEL_CACHE", "0"}};
}

/// The AnyCL cache off and a copy of the primed POCL cache under `dir`, POCL's kernel cache on.
environment_changes pocl_warm(run_folders& folders, const std::string& primed,
                              const std::string& dir) {
  return plus(anycl_off(), {{"POCL_CACHE_DIR", folders.copy_of(primed, dir, "pocl")},
                            {"POCL_KERNEL_CACHE", "1"}});
}

/// What every child of one measurement shares: the work folder, the device's indices, and
/// whether AnyCL children are told to fail their check.
struct child_target {
  std::string work;
  cl_uint pi = 0, di = 0;
  bool corrupt = false;
  std::map<std::string, double> run(child_mode mode, const environment_changes& env) const {
    return run_child(mode, work, pi, di, env, corrupt);
  }
};

/// The caches the priming runs fill; the measured runs use copies.
struct primed_caches {
  std::string anycl, pocl_anycl, pocl_raw;
};

/// One run fills each cache. Each priming run builds from source with POCL's kernel cache on, so
/// that it also primes a POCL cache; the raw one saves its binary as well.
primed_caches prime_caches(const child_target& t) {
  const primed_caches p{t.work + "/primed-anycl-cache", t.work + "/primed-pocl-cache-anycl",
                        t.work + "/primed-pocl-cache-raw"};
  std::cerr << "anycl-bench: first result: priming the AnyCL cache, the raw binary and POCL's "
               "caches\n";
  t.run(
      child_mode::anycl_cold,
      {{"ANYCL_CACHE_DIR", p.anycl}, {"POCL_CACHE_DIR", p.pocl_anycl}, {"POCL_KERNEL_CACHE", "1"}});
  t.run(child_mode::raw_save,
        plus(anycl_off(), {{"POCL_CACHE_DIR", p.pocl_raw}, {"POCL_KERNEL_CACHE", "1"}}));
  std::error_code ec;
  for (const std::string& dir : {p.anycl, p.pocl_anycl, p.pocl_raw})
    if (!has_files(dir)) throw std::runtime_error("priming left " + dir + " empty");
  if (fs::file_size(t.work + "/" + binary_file, ec) == 0 || ec)
    throw std::runtime_error("priming saved no raw binary");
  return p;
}

/// One measured kind of child: its mode and the environment a run of it gets, given the run's
/// own fresh folder.
struct measured {
  const char* label;  // progress and diagnostics
  child_mode mode;
  std::function<environment_changes(const std::string& run_dir)> env;
};

/// The six kinds, in pairs (AnyCL, its reference) as the comparisons use them.
std::vector<measured> measured_kinds(run_folders& f, const primed_caches& p) {
  return {
      {"anycl, cold", child_mode::anycl_cold,
       [&f](const std::string& d) {
         return plus({{"ANYCL_CACHE_DIR", f.fresh(d, "anycl")}}, pocl_off(f, d));
       }},
      {"raw, cold", child_mode::raw_source,
       [&f](const std::string& d) { return plus(anycl_off(), pocl_off(f, d)); }},
      {"anycl, anycl cache warm", child_mode::anycl_warm,
       [&f, p](const std::string& d) {
         return plus({{"ANYCL_CACHE_DIR", f.copy_of(p.anycl, d, "anycl")}}, pocl_off(f, d));
       }},
      {"raw binary", child_mode::raw_binary,
       [&f](const std::string& d) { return plus(anycl_off(), pocl_off(f, d)); }},
      {"anycl, pocl cache warm", child_mode::anycl_no_cache,
       [&f, p](const std::string& d) { return pocl_warm(f, p.pocl_anycl, d); }},
      {"raw, pocl cache warm", child_mode::raw_source,
       [&f, p](const std::string& d) { return pocl_warm(f, p.pocl_raw, d); }},
  };
}

/// Each kind's figures, by name, one value per run.
using kind_figures = std::vector<std::map<std::string, std::vector<double>>>;

/// Each round runs every kind once, the order rotating between rounds.
kind_figures measure_rounds(const child_target& t, run_folders& folders,
                            const std::vector<measured>& kinds, std::size_t runs) {
  kind_figures figures(kinds.size());
  for (std::size_t round = 0; round < runs; ++round) {
    for (std::size_t j = 0; j < kinds.size(); ++j) {
      const std::size_t k = (j + round) % kinds.size();
      const std::string d = folders.fresh(t.work, "run");
      const auto f = t.run(kinds[k].mode, kinds[k].env(d));
      std::error_code ec;
      fs::remove_all(d, ec);
      for (const auto& [name, value] : f) figures[k][name].push_back(value);
      std::cerr << "anycl-bench: first result [" << round + 1 << "/" << runs << "] "
                << kinds[k].label << ": " << fixed(f.at("total_ms"), 2) << " ms (setup "
                << fixed(f.at("setup_ms"), 2) << " ms)\n";
    }
  }
  return figures;
}

void print_phase_medians(const std::vector<measured>& kinds, kind_figures& figures) {
  std::cerr << "first result by phase, median ms (setup is not part of the first result):\n";
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    std::cerr << "  " << kinds[k].label << ":";
    for (const char* phase : {"setup_ms", "program_ms", "kernel_ms", "run_ms", "total_ms"})
      std::cerr << " " << std::string(phase, std::strlen(phase) - 3) << " "
                << fixed(median(figures[k][phase]), 2);
    std::cerr << "\n";
  }
}

/// The comparisons of kind `a` (AnyCL) against kind `r` (its reference), by median.
first_result_comparison compare_kinds(const kind_figures& figures, std::size_t runs,
                                      const char* name, const char* reference, std::size_t a,
                                      std::size_t r, bool speedup) {
  auto med = [&](std::size_t k, const char* what) { return median(figures[k].at(what)); };
  first_result_comparison c;
  c.name = name;
  c.reference = reference;
  c.anycl_ms = med(a, "total_ms");
  c.reference_ms = med(r, "total_ms");
  c.anycl_setup_ms = med(a, "setup_ms");
  c.reference_setup_ms = med(r, "setup_ms");
  c.runs = runs;
  c.show_speedup = speedup;
  return c;
}

}  // namespace

std::vector<first_result_comparison> measure_first_result(const anycl::device& dev,
                                                          std::size_t runs, bool corrupt) {
  const auto [pi, di] = indices_of(dev);
  const auto source = anycl::embedded_kernel_source(kernel_file);
  if (!source)
    throw std::runtime_error(std::string("the library was built without cl_kernels/") +
                             kernel_file);
  temp_folder root;
  const child_target t{root.path(), pi, di, corrupt};
  write_file(t.work + "/" + source_file, source->data(), source->size());
  std::cerr << "anycl-bench: first result of a fresh process, " << runs
            << " run(s) of each kind; work folder " << t.work << "\n";

  run_folders folders;
  const primed_caches primed = prime_caches(t);
  const std::vector<measured> kinds = measured_kinds(folders, primed);
  kind_figures figures = measure_rounds(t, folders, kinds, runs);
  print_phase_medians(kinds, figures);
  const auto& f = figures;
  return {compare_kinds(f, runs, "first result, cold", "raw", 0, 1, false),
          compare_kinds(f, runs, "first result, anycl cache warm", "raw binary", 2, 3, false),
          compare_kinds(f, runs, "first result, pocl cache warm", "raw", 4, 5, false),
          compare_kinds(f, runs, "first result, anycl cache warm vs pocl cache warm",
                        "raw pocl cache", 2, 5, true)};
}

int first_result_child(int argc, char** argv) {
  try {
    if (argc != 6)
      throw std::runtime_error(std::string("usage: ") + first_result_child_flag +
                               " MODE WORKDIR PLATFORM_INDEX DEVICE_INDEX");
    const std::string mode_name = argv[2];
    const child_mode* mode = nullptr;
    for (const auto& m : mode_names)
      if (mode_name == m.second) mode = &m.first;
    if (mode == nullptr) throw std::runtime_error("unknown mode '" + mode_name + "'");
    const cl_uint pi = parse_index(argv[4]), di = parse_index(argv[5]);
    const phases ph =
        is_anycl_side(*mode) ? anycl_child(*mode, pi, di) : raw_child(*mode, argv[3], pi, di);
    print_figures(*mode, ph);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "anycl-bench " << first_result_child_flag << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace anycl::bench
