// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the array family: AnyCL's array layer (a fused element-wise expression, scan, sort,
// random fills) against the same work in C++/OpenMP on the host ("host", host_reference.cpp), in
// hand-written OpenCL kernels through the raw C API ("raw", raw_reference.cpp) and, for scan and
// random, a parallel host copy of the same bytes ("copy": the host's copy bandwidth). Every path
// runs on data known to the check, which compares its result with a serial host computation; device
// results are read back with the raw C API.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/elementwise.hpp"
#include "anycl/histogram.hpp"
#include "anycl/indexing.hpp"
#include "anycl/random.hpp"
#include "anycl/reduce.hpp"
#include "anycl/scan.hpp"
#include "anycl/sort.hpp"
#include "anycl/sparse.hpp"
#include "host_reference.hpp"
#include "raw_reference.hpp"
#include "registry.hpp"

namespace anycl::bench {
namespace {

constexpr float triad_scalar = 3.0f;
constexpr std::uint64_t random_seed = 20240601;

// --- known data ---

/// A splitmix64 step: the data generator (deterministic, so a failure repeats).
std::uint64_t mix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// n floats in [0, 1).
std::vector<float> unit_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(mix(seed) >> 40) * (1.0f / 16777216.0f);
  return v;
}

std::vector<std::uint32_t> random_uints(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> v(n);
  for (std::uint32_t& x : v) x = static_cast<std::uint32_t>(mix(seed) >> 32);
  return v;
}

std::string count_label(std::size_t n) {
  for (unsigned p = 0; p < 64; ++p)
    if (n == std::size_t{1} << p) return "2^" + std::to_string(p);
  return std::to_string(n);
}

// --- the raw C API side of the checks ---

void raw_check(const char* call, cl_int status) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string("raw C API: ") + call +
                             " failed: " + std::string(anycl::status_name(status)));
}

/// Blocking read of `n` elements of a buffer into `dst`.
template <class T>
void raw_read(const session& s, cl_mem m, T* dst, std::size_t n) {
  raw_check("clEnqueueReadBuffer", clEnqueueReadBuffer(s.queue.get(), m, CL_TRUE, 0, n * sizeof(T),
                                                       dst, 0, nullptr, nullptr));
}

/// Sets `bytes` of a buffer to a 0xFF pattern (no stale result can pass), and waits.
void raw_scribble(const session& s, cl_mem m, std::size_t bytes) {
  const cl_uint pattern = 0xFFFFFFFFu;
  raw_check("clEnqueueFillBuffer", clEnqueueFillBuffer(s.queue.get(), m, &pattern, sizeof pattern,
                                                       0, bytes, 0, nullptr, nullptr));
  raw_check("clFinish", clFinish(s.queue.get()));
}

// --- comparing results ---

/// A value as the checks print it: integers exactly, floats with 9 significant digits.
template <class T>
std::string show(T v) {
  char buf[64];
  if constexpr (std::is_integral_v<T>)
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

template <class T, class U>
[[noreturn]] void wrong(const std::string& impl, const char* what, std::size_t i, std::size_t n,
                        T got, U expected) {
  throw check_failed(impl + ": wrong " + what + " at element " + std::to_string(i) + " of " +
                     std::to_string(n) + ": " + show(got) + ", expected " + show(expected));
}

template <class T>
void compare_exact(const std::string& impl, const char* what, const std::vector<T>& got,
                   const std::vector<T>& expected) {
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (got[i] != expected[i]) wrong(impl, what, i, expected.size(), got[i], expected[i]);
}

/// A scalar result within `rel` of `expected`, relative to `scale` (the sum of magnitudes).
void compare_scalar(const std::string& impl, const char* what, double got, double expected,
                    double scale, double rel) {
  if (std::fabs(got - expected) <= rel * scale) return;
  char buf[200];
  std::snprintf(buf, sizeof buf, ": wrong %s: %.9g, expected %.9g (tolerance %.3g)", what, got,
                expected, rel * scale);
  throw check_failed(impl + buf);
}

// --- paths ---

/// One implementation of a benchmark's work: `work` (timed), and for the check `scribble`
/// (overwrites the result so a path that does nothing fails), `fetch` (brings the result to the
/// host) and `verify` (compares it; `corrupt` alters it first).
struct path_parts {
  std::string impl;
  std::function<void()> work, scribble;
  std::function<void(bool corrupt)> verify;
  std::function<void()> before;  // untimed, before each iteration (and the check's runs)
};

/// The path of `p`, owning `keep`: the fixture its functions point into.
path make_path(path_parts p, std::shared_ptr<const void> keep) {
  path out;
  out.impl = p.impl;
  // The work borrows the fixture; the path owns it.
  out.iteration = [work = p.work, keep] { work(); };
  out.before = p.before;
  out.check = [p](bool corrupt) {
    if (p.before) p.before();
    p.work();  // first-call costs (kernel builds) happen here, untimed
    p.scribble();
    if (p.before) p.before();
    p.work();
    p.verify(corrupt);
  };
  return out;
}

/// A fixture shared by the benchmarks that use it while any of them is alive (they are prepared
/// one after the other, each path holding it).
template <class F>
struct shared_slot {
  std::weak_ptr<F> weak;
  template <class Make>
  std::shared_ptr<F> get(Make make) {
    if (auto f = weak.lock()) return f;
    std::shared_ptr<F> f = make();
    weak = f;
    return f;
  }
};

/// What every array benchmark's prepare gets: its session, the raw kernels (built once) and the
/// float data (made once).
struct float_data {
  std::vector<float> b, c, out;  // host inputs and the host paths' output
  std::vector<float> back;       // device results read back by the checks
  anycl::array<float> B, C, D;   // device copies of b and c; D the device paths' output
  std::size_t n() const { return b.size(); }
};

struct shared_state {
  shared_slot<raw_kernels> raw;
  shared_slot<float_data> floats;
};

/// The path kinds a device result is checked the same way for: the raw C API overwrites the
/// output with 0xFF bytes, the path runs, the raw C API reads the output back.
template <class T>
void device_check_parts(path_parts& p, const session* s, cl_mem out, std::size_t n,
                        std::vector<T>* back,
                        std::function<void(const std::string&, std::vector<T>&, bool)> verify) {
  p.scribble = [s, out, n] { raw_scribble(*s, out, n * sizeof(T)); };
  const std::string impl = p.impl;
  p.verify = [s, out, n, back, verify, impl](bool corrupt) {
    raw_read(*s, out, back->data(), n);
    verify(impl, *back, corrupt);
  };
}

/// A path whose result is on the device at `out` (n elements of T), checked as
/// device_check_parts does.
template <class T>
path device_path(const std::string& impl, std::function<void()> work, const session* s, cl_mem out,
                 std::size_t n, std::vector<T>* back,
                 std::function<void(const std::string&, std::vector<T>&, bool)> verify,
                 std::shared_ptr<const void> keep, std::function<void()> before = {}) {
  path_parts p;
  p.impl = impl;
  p.before = std::move(before);
  p.work = std::move(work);
  device_check_parts<T>(p, s, out, n, back, std::move(verify));
  return make_path(std::move(p), std::move(keep));
}

/// A path whose result is on the host in `*out`: the scribble fills it with `poison`, `verify`
/// checks it.
template <class T>
path host_path(const std::string& impl, std::function<void()> work, std::vector<T>* out, T poison,
               std::function<void(bool)> verify, std::shared_ptr<const void> keep,
               std::function<void()> before = {}) {
  path_parts p;
  p.impl = impl;
  p.before = std::move(before);
  p.work = std::move(work);
  p.scribble = [out, poison] { std::fill(out->begin(), out->end(), poison); };
  p.verify = std::move(verify);
  return make_path(std::move(p), std::move(keep));
}

std::shared_ptr<raw_kernels> get_raw(shared_state& st, const session& s) {
  return st.raw.get([&] { return std::make_shared<raw_kernels>(s.context.get(), s.device.get()); });
}

void require_alloc(const session& s, std::size_t bytes, const std::string& what) {
  if (bytes > s.device.max_alloc())
    throw std::runtime_error(what + ": " + std::to_string(bytes) +
                             " bytes is more than the device can allocate at once "
                             "(CL_DEVICE_MAX_MEM_ALLOC_SIZE " +
                             std::to_string(s.device.max_alloc()) + ")");
}

std::shared_ptr<float_data> get_floats(shared_state& st, const session& s, std::size_t n) {
  return st.floats.get([&] {
    require_alloc(s, n * sizeof(float), "array benchmarks");
    auto f = std::make_shared<float_data>();
    f->b = unit_floats(n, 1);
    f->c = unit_floats(n, 2);
    f->out.assign(n, 0.0f);
    f->back.assign(n, 0.0f);
    f->B = anycl::array<float>::from_host(s.queue, f->b);
    f->C = anycl::array<float>::from_host(s.queue, f->c);
    f->D = anycl::array<float>::zeros(s.queue, anycl::shape(n));
    f->D.wait();
    return f;
  });
}

benchmark make_benchmark(const std::string& name, const std::string& group, unit_kind unit,
                         double items) {
  benchmark b;
  b.name = b.family = name;
  b.group = group;
  b.unit = unit;
  b.items_per_iteration = items;
  return b;
}

reference host_reference(const std::string& what) {
  return {"host", what + " (C++ -O3 -march=native, " + host::threading() + ")"};
}

reference raw_reference(const std::string& what) {
  return {"raw", what +
                     " (a hand-written OpenCL kernel through the raw C API, a few work-items each "
                     "a contiguous chunk, clFinish)"};
}

reference copy_reference(const std::string& bytes) {
  return {"copy", "host copy bandwidth: a parallel std::memcpy of " + bytes + " (" +
                      host::threading() + ")"};
}

/// The "copy" path: the host copies `bytes` bytes of b into out; the check compares them.
path copy_path(std::shared_ptr<float_data> f, std::size_t bytes) {
  float_data* fp = f.get();
  return host_path<float>(
      "copy",
      [fp, bytes] {
        host::copy(fp->out.data(), fp->b.data(), bytes);
        ::benchmark::DoNotOptimize(fp->out.data());
        ::benchmark::ClobberMemory();
      },
      &fp->out, -1.0f,
      [f, bytes](bool) {
        for (std::size_t i = 0; i < bytes / sizeof(float); ++i)
          if (f->out[i] != f->b[i])
            wrong("copy", "data", i, bytes / sizeof(float), f->out[i], f->b[i]);
      },
      f);
}

// --- triad: d = b + s * c ---

void verify_triad(const std::string& impl, std::vector<float>& got, const float_data& f,
                  bool corrupt) {
  if (corrupt) got[f.n() / 2] += 1.0f;
  for (std::size_t i = 0; i < f.n(); ++i) {
    const double expected = static_cast<double>(f.b[i]) + double{triad_scalar} * f.c[i];
    // a few ulp: the device may contract b + s * c into an fma, the host may not
    if (std::fabs(got[i] - expected) > 4e-7 * (std::fabs(f.b[i]) + triad_scalar * f.c[i]))
      wrong(impl, "triad result", i, f.n(), got[i], expected);
  }
}

/// The anycl, host and raw paths of the triad. The device paths read D's buffer when they run:
/// the anycl path assigns D.
std::vector<path> triad_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  std::shared_ptr<raw_kernels> raw = get_raw(st, s);
  float_data* fp = f.get();
  const session* sp = &s;
  auto device_scribble = [fp, sp] { raw_scribble(*sp, fp->D.buffer().get(), fp->n() * 4); };
  auto device_verify = [f, sp](const std::string& impl) {
    return [f, sp, impl](bool corrupt) {
      raw_read(*sp, f->D.buffer().get(), f->back.data(), f->n());
      verify_triad(impl, f->back, *f, corrupt);
    };
  };
  std::vector<path> paths;
  {
    path_parts p;
    p.impl = "anycl";
    p.work = [fp] {
      fp->D = fp->B + triad_scalar * fp->C;
      fp->D.wait();
    };
    p.scribble = device_scribble;
    p.verify = device_verify("anycl");
    paths.push_back(make_path(std::move(p), f));
  }
  paths.push_back(host_path<float>(
      "host",
      [fp] {
        host::triad(fp->out.data(), fp->b.data(), fp->c.data(), triad_scalar, fp->n());
        ::benchmark::ClobberMemory();
      },
      &fp->out, -1.0f, [f](bool) { verify_triad("host", f->out, *f, false); }, f));
  {
    path_parts p;
    p.impl = "raw";
    p.work = [fp, raw, sp] {
      raw->triad(sp->queue.get(), fp->D.buffer().get(), fp->B.buffer().get(), fp->C.buffer().get(),
                 triad_scalar, fp->n());
    };
    p.scribble = device_scribble;
    p.verify = device_verify("raw");
    paths.push_back(make_path(std::move(p), f));
  }
  return paths;
}

void add_triad(std::vector<benchmark>& out, const settings& set, std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  benchmark b = make_benchmark("array_triad", "array", unit_kind::gigabytes_per_second,
                               3.0 * 4.0 * static_cast<double>(n));
  b.what = "d = b + s * c on " + count_label(n) +
           " floats, one fused kernel (AnyCL expression templates); GB/s counting 12 bytes per "
           "element (read b, c; write d)";
  b.check =
      "d of known b, c and s = 3 against the host in double, element by element (4e-7 "
      "relative: the device may use an fma)";
  b.references = {host_reference("#pragma omp parallel for simd"),
                  raw_reference("16 floats a step in two vload8/vstore8 halves")};
  b.prepare = [st, n](const session& s) { return triad_paths(*st, s, n); };
  out.push_back(std::move(b));
}

// --- broadcast: a matrix minus a row ---

constexpr std::size_t broadcast_cols = 4096;

/// The matrix's rows: 4096 (a square matrix) at the default size, fewer for --quick.
std::size_t broadcast_rows(std::size_t n) { return std::min(broadcast_cols, n / broadcast_cols); }

void verify_broadcast(const std::string& impl, std::vector<float>& got, const float_data& f,
                      std::size_t rows, bool corrupt) {
  const std::size_t n = rows * broadcast_cols;
  if (corrupt) got[n / 2] += 1.0f;
  for (std::size_t i = 0; i < n; ++i) {
    const float expected = f.b[i] - f.c[i % broadcast_cols];  // one rounding, exact everywhere
    if (got[i] != expected) wrong(impl, "difference", i, n, got[i], expected);
  }
}

/// The anycl and host paths: the first rows x 4096 elements of B (of the family's `elements`) as
/// the matrix, the first 4096 of C as the row, into D.
std::vector<path> broadcast_paths(shared_state& st, const session& s, std::size_t elements,
                                  std::size_t rows) {
  const std::size_t n = rows * broadcast_cols;
  std::shared_ptr<float_data> f = get_floats(st, s, elements);
  float_data* fp = f.get();
  const session* sp = &s;
  auto m = std::make_shared<anycl::array<float>>(fp->B.slice(0, n).reshape({rows, broadcast_cols}));
  auto row = std::make_shared<anycl::array<float>>(
      fp->C.slice(0, broadcast_cols).reshape({1, broadcast_cols}));
  auto out =
      std::make_shared<anycl::array<float>>(fp->D.slice(0, n).reshape({rows, broadcast_cols}));
  std::vector<path> paths;
  paths.push_back(device_path<float>(
      "anycl",
      [m, row, out] {
        *out = *m - *row;
        out->wait();
      },
      sp, fp->D.buffer().get(), n, &fp->back,
      [f, rows](const std::string& impl, std::vector<float>& got, bool corrupt) {
        verify_broadcast(impl, got, *f, rows, corrupt);
      },
      f));
  paths.push_back(host_path<float>(
      "host",
      [fp, rows] {
        host::broadcast_sub(fp->out.data(), fp->b.data(), fp->c.data(), rows, broadcast_cols);
        ::benchmark::ClobberMemory();
      },
      &fp->out, -1.0f, [f, rows](bool) { verify_broadcast("host", f->out, *f, rows, false); }, f));
  return paths;
}

void add_broadcast(std::vector<benchmark>& out, const settings& set,
                   std::shared_ptr<shared_state> st) {
  const std::size_t rows = broadcast_rows(set.array_elements);
  benchmark b = make_benchmark("array_broadcast", "array", unit_kind::gigabytes_per_second,
                               8.0 * static_cast<double>(rows * broadcast_cols));
  b.what = "d = m - row with m a (" + std::to_string(rows) +
           ", 4096) float matrix and row a (1, "
           "4096) one, broadcast by a stride-0 view in one fused kernel; GB/s counting 8 bytes "
           "per element (read m, write d)";
  b.check = "d against m - row on the host, element by element, exactly";
  b.references = {host_reference("#pragma omp parallel for over rows, simd along them")};
  const std::size_t elements = set.array_elements;
  b.prepare = [st, elements, rows](const session& s) {
    return broadcast_paths(*st, s, elements, rows);
  };
  out.push_back(std::move(b));
}

// --- sum and dot: one float, reduced on the device ---

/// sum_expr: anycl::sum(b * c), the product fused into the reduction, against anycl::dot.
enum class reduction { sum, dot, sum_expr };

/// The exact result in double of a sum (of b) or dot product (of b and c), and the sum of the
/// magnitudes of its terms.
std::pair<double, double> reduction_expected(const float_data& f, bool is_dot) {
  double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < f.n(); ++i) {
    const double term = is_dot ? static_cast<double>(f.b[i]) * f.c[i] : f.b[i];
    exact += term;
    magnitude += std::fabs(term);
  }
  return {exact, magnitude};
}

/// The anycl, host and raw paths' work; each leaves its result in *rp.
std::vector<std::pair<const char*, std::function<void()>>> reduction_work(
    reduction kind, float_data* fp, double* rp, std::shared_ptr<raw_kernels> raw,
    const session* sp) {
  if (kind == reduction::sum_expr)
    return {{"anycl", [fp, rp] { *rp = anycl::sum(fp->B * fp->C); }},
            {"dot", [fp, rp] { *rp = anycl::dot(fp->B, fp->C); }}};
  if (kind == reduction::dot)
    return {{"anycl", [fp, rp] { *rp = anycl::dot(fp->B, fp->C); }},
            {"host", [fp, rp] { *rp = host::dot(fp->b.data(), fp->c.data(), fp->n()); }},
            {"raw", [fp, rp, raw, sp] {
               *rp = raw->dot(sp->queue.get(), fp->B.buffer().get(), fp->C.buffer().get(), fp->n());
             }}};
  return {{"anycl", [fp, rp] { *rp = anycl::sum(fp->B); }},
          {"host", [fp, rp] { *rp = host::sum(fp->b.data(), fp->n()); }},
          {"raw",
           [fp, rp, raw, sp] { *rp = raw->sum(sp->queue.get(), fp->B.buffer().get(), fp->n()); }}};
}

std::vector<path> reduction_paths(shared_state& st, const session& s, std::size_t n,
                                  reduction kind) {
  const bool is_dot = kind != reduction::sum;
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  std::shared_ptr<raw_kernels> raw = get_raw(st, s);
  const auto [exact, magnitude] = reduction_expected(*f, is_dot);
  // Each path leaves its result here; the scribble makes it NaN.
  auto result = std::make_shared<double>(0.0);
  double* rp = result.get();
  const char* what = is_dot ? "dot product" : "sum";
  std::vector<path> paths;
  for (auto& [impl_name, work] : reduction_work(kind, f.get(), rp, raw, &s)) {
    path_parts p;
    p.impl = impl_name;
    p.work = std::move(work);
    p.scribble = [rp] { *rp = std::nan(""); };
    p.verify = [result, impl = p.impl, exact = exact, magnitude = magnitude, what](bool corrupt) {
      const double got = corrupt ? *result * 1.01 : *result;
      compare_scalar(impl, what, got, exact, magnitude, 1e-4);
    };
    paths.push_back(make_path(std::move(p), f));
  }
  return paths;
}

void add_reduction(std::vector<benchmark>& out, const settings& set,
                   std::shared_ptr<shared_state> st, reduction kind) {
  const std::size_t n = set.array_elements;
  const bool is_dot = kind == reduction::dot;
  benchmark b =
      make_benchmark(is_dot ? "array_dot" : "array_sum", "array", unit_kind::gigabytes_per_second,
                     (is_dot ? 8.0 : 4.0) * static_cast<double>(n));
  b.what = is_dot ? "anycl::dot(b, c) of two " + count_label(n) +
                        "-float arrays, the float result on the host; GB/s counting 8 bytes per "
                        "element"
                  : "anycl::sum(b) of " + count_label(n) +
                        " floats, the float result on the host; GB/s counting 4 bytes per element";
  b.check = std::string("the result against the host's serial sum in double of known data in ") +
            "[0, 1), within 1e-4 of the sum of the magnitudes";
  b.references = {
      host_reference("#pragma omp parallel for reduction(+), float lanes in blocks of 4096 "
                     "added in double"),
      raw_reference("float8 partial sums per work-item, added on the host")};
  b.prepare = [st, n, kind](const session& s) { return reduction_paths(*st, s, n, kind); };
  out.push_back(std::move(b));
}

void add_sum_expr(std::vector<benchmark>& out, const settings& set,
                  std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  benchmark b = make_benchmark("array_sum_expr", "array", unit_kind::gigabytes_per_second,
                               8.0 * static_cast<double>(n));
  b.what = "anycl::sum(b * c) of two " + count_label(n) +
           "-float arrays, the product fused into the reduction's kernel; GB/s counting 8 bytes "
           "per element";
  b.check = std::string("the result against the host's serial dot product in double of known ") +
            "data in [0, 1), within 1e-4 of the sum of the magnitudes";
  b.references = {{"dot", "anycl::dot(b, c), the built-in dot product on the same arrays"}};
  b.prepare = [st, n](const session& s) { return reduction_paths(*st, s, n, reduction::sum_expr); };
  out.push_back(std::move(b));
}

// --- argmax of floats ---

std::vector<path> argmax_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  const std::size_t want =
      static_cast<std::size_t>(std::max_element(f->b.begin(), f->b.end()) - f->b.begin());
  auto result = std::make_shared<std::size_t>(0);
  std::size_t* rp = result.get();
  float_data* fp = f.get();
  std::vector<path> paths;
  const std::vector<std::pair<const char*, std::function<void()>>> work = {
      {"anycl", [fp, rp] { *rp = anycl::argmax(fp->B); }},
      {"host", [fp, rp] { *rp = host::argmax(fp->b.data(), fp->n()); }}};
  for (const auto& [impl_name, run] : work) {
    path_parts p;
    p.impl = impl_name;
    p.work = run;
    p.scribble = [rp] { *rp = ~std::size_t{0}; };
    p.verify = [result, impl = p.impl, want, n](bool corrupt) {
      const std::size_t got = corrupt ? *result + 1 : *result;
      if (got != want) wrong(impl, "argmax", 0, n, got, want);
    };
    paths.push_back(make_path(std::move(p), f));
  }
  return paths;
}

// --- take (gather) of floats at random indices ---

struct take_data {
  std::vector<std::uint32_t> idx;
  std::vector<float> want, out;
  anycl::array<std::uint32_t> IDX;
  anycl::array<float> OUT;  // the anycl path's result
};

void verify_take(const std::string& impl, std::vector<float> got, const take_data& t,
                 bool corrupt) {
  if (got.size() != t.want.size())
    throw check_failed(impl + ": " + std::to_string(got.size()) + " gathered values, expected " +
                       std::to_string(t.want.size()));
  if (corrupt) got[got.size() / 2] += 1.0f;
  compare_exact(impl, "gathered value", got, t.want);
}

std::vector<path> take_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  auto t = std::make_shared<take_data>();
  t->idx = random_uints(n, 7);
  for (std::uint32_t& i : t->idx) i %= static_cast<std::uint32_t>(n);
  for (std::uint32_t i : t->idx) t->want.push_back(f->b[i]);
  t->out.assign(n, 0.0f);
  t->IDX = anycl::array<std::uint32_t>::from_host(s.queue, t->idx);
  t->IDX.wait();
  auto keep =
      std::make_shared<std::pair<std::shared_ptr<float_data>, std::shared_ptr<take_data>>>(f, t);
  float_data* fp = f.get();
  take_data* tp = t.get();
  path_parts p;
  p.impl = "anycl";
  p.work = [fp, tp] { tp->OUT = anycl::take(fp->B, tp->IDX); };
  p.scribble = [tp] { tp->OUT = anycl::array<float>(); };
  p.verify = [tp](bool corrupt) { verify_take("anycl", tp->OUT.to_host(), *tp, corrupt); };
  std::vector<path> paths;
  paths.push_back(make_path(std::move(p), keep));
  paths.push_back(host_path<float>(
      "host",
      [fp, tp] { host::take(fp->b.data(), tp->idx.data(), tp->out.data(), tp->idx.size()); },
      &tp->out, -1.0f, [tp](bool corrupt) { verify_take("host", tp->out, *tp, corrupt); }, keep));
  return paths;
}

// --- compress (mask compaction) and histogram of floats ---

constexpr float compress_threshold = 0.5f;
constexpr std::size_t histogram_bins = 256;

struct select_data {
  std::vector<float> want, out;  // compress: the host's serial result, the host path's
  std::vector<float> edges;      // histogram: the device's edges, as the host uses them
  std::vector<std::uint64_t> counts, host_counts;
  anycl::array<float> OUT;           // the anycl compress result
  anycl::histogram_result<float> H;  // the anycl histogram
};

void verify_counts(const std::string& impl, std::vector<std::uint64_t> got,
                   const std::vector<std::uint64_t>& want, bool corrupt) {
  if (got.size() != want.size())
    throw check_failed(impl + ": " + std::to_string(got.size()) + " bins, expected " +
                       std::to_string(want.size()));
  if (corrupt) got[got.size() / 2] += 1;
  compare_exact(impl, "bin count", got, want);
}

/// The float data and a select_data for it, and what a path keeps alive: both.
struct select_fixture {
  std::shared_ptr<float_data> f;
  std::shared_ptr<select_data> d;
  std::shared_ptr<const void> keep;
};

select_fixture make_select(shared_state& st, const session& s, std::size_t n) {
  select_fixture x{get_floats(st, s, n), std::make_shared<select_data>(), nullptr};
  x.keep = std::make_shared<std::pair<std::shared_ptr<float_data>, std::shared_ptr<select_data>>>(
      x.f, x.d);
  return x;
}

std::vector<path> compress_paths(shared_state& st, const session& s, std::size_t n) {
  const select_fixture x = make_select(st, s, n);
  float_data* fp = x.f.get();
  select_data* dp = x.d.get();
  const std::shared_ptr<const void>& keep = x.keep;
  for (float v : fp->b)
    if (v > compress_threshold) dp->want.push_back(v);
  dp->out.assign(n, 0.0f);
  path_parts p;
  p.impl = "anycl";
  p.work = [fp, dp] { dp->OUT = anycl::compress(fp->B > compress_threshold, fp->B); };
  p.scribble = [dp] { dp->OUT = anycl::array<float>(); };
  p.verify = [dp](bool corrupt) {
    std::vector<float> got = dp->OUT.to_host();
    if (got.size() != dp->want.size())
      throw check_failed("anycl: " + std::to_string(got.size()) + " selected, expected " +
                         std::to_string(dp->want.size()));
    if (corrupt) got[got.size() / 2] += 1.0f;
    compare_exact("anycl", "selected value", got, dp->want);
  };
  std::vector<path> paths;
  paths.push_back(make_path(std::move(p), keep));
  paths.push_back(host_path<float>(
      "host",
      [fp, dp] { host::compress_above(fp->b.data(), fp->n(), compress_threshold, dp->out.data()); },
      &dp->out, -1.0f,
      [dp](bool corrupt) {
        std::vector<float> got(dp->out.begin(), dp->out.begin() + dp->want.size());
        if (corrupt) got[got.size() / 2] += 1.0f;
        compare_exact("host", "selected value", got, dp->want);
      },
      keep));
  return paths;
}

std::vector<path> histogram_paths(shared_state& st, const session& s, std::size_t n) {
  const select_fixture x = make_select(st, s, n);
  float_data* fp = x.f.get();
  select_data* dp = x.d.get();
  const std::shared_ptr<const void>& keep = x.keep;
  dp->edges = anycl::histogram(fp->B, histogram_bins, 0.0f, 1.0f).edges.to_host();
  dp->counts.assign(histogram_bins, 0);
  for (float v : fp->b)  // serial: the first bin whose upper edge is above v
    ++dp->counts[static_cast<std::size_t>(
        std::upper_bound(dp->edges.begin(), dp->edges.end() - 1, v) - dp->edges.begin() - 1)];
  dp->host_counts.assign(histogram_bins, 0);
  path_parts p;
  p.impl = "anycl";
  p.work = [fp, dp] { dp->H = anycl::histogram(fp->B, histogram_bins, 0.0f, 1.0f); };
  p.scribble = [dp] { dp->H = {}; };
  p.verify = [dp](bool corrupt) {
    verify_counts("anycl", dp->H.counts.to_host(), dp->counts, corrupt);
  };
  std::vector<path> paths;
  paths.push_back(make_path(std::move(p), keep));
  paths.push_back(host_path<std::uint64_t>(
      "host",
      [fp, dp] {
        host::histogram(fp->b.data(), fp->n(), dp->edges.data(), histogram_bins,
                        dp->host_counts.data());
      },
      &dp->host_counts, ~std::uint64_t{0},
      [dp](bool corrupt) { verify_counts("host", dp->host_counts, dp->counts, corrupt); }, keep));
  return paths;
}

// --- inclusive scan of uint32 ---

struct scan_data {
  std::vector<std::uint32_t> in, out, back;
  anycl::array<std::uint32_t> IN, OUT;
};

void verify_scan(const std::string& impl, std::vector<std::uint32_t>& got,
                 const std::vector<std::uint32_t>& in, bool corrupt) {
  if (corrupt) got[in.size() / 2] ^= 1u;
  std::uint32_t run = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    run += in[i];
    if (got[i] != run) wrong(impl, "prefix sum", i, in.size(), got[i], run);
  }
}

std::shared_ptr<scan_data> make_scan_data(const session& s, std::size_t n) {
  require_alloc(s, n * 4, "array_scan");
  auto f = std::make_shared<scan_data>();
  f->in = random_uints(n, 3);
  f->out.assign(n, 0);
  f->back.assign(n, 0);
  f->IN = anycl::array<std::uint32_t>::from_host(s.queue, f->in);
  f->OUT = anycl::array<std::uint32_t>::zeros(s.queue, anycl::shape(n));
  f->OUT.wait();
  return f;
}

std::vector<path> scan_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<raw_kernels> raw = get_raw(st, s);
  std::shared_ptr<scan_data> f = make_scan_data(s, n);
  scan_data* fp = f.get();
  const session* sp = &s;
  auto verify = [f](const std::string& impl, std::vector<std::uint32_t>& got, bool corrupt) {
    verify_scan(impl, got, f->in, corrupt);
  };
  const cl_mem device_out = fp->OUT.buffer().get();
  std::vector<path> paths;
  paths.push_back(device_path<std::uint32_t>(
      "anycl", [fp] { anycl::inclusive_scan(fp->IN, fp->OUT).wait(); }, sp, device_out, n,
      &fp->back, verify, f));
  paths.push_back(host_path<std::uint32_t>(
      "host",
      [fp] {
        host::inclusive_scan(fp->in.data(), fp->out.data(), fp->in.size());
        ::benchmark::ClobberMemory();
      },
      &fp->out, 0xFFFFFFFFu, [f](bool) { verify_scan("host", f->out, f->in, false); }, f));
  paths.push_back(device_path<std::uint32_t>(
      "raw",
      [fp, raw, sp] {
        raw->inclusive_scan(sp->queue.get(), fp->IN.buffer().get(), fp->OUT.buffer().get(),
                            fp->in.size());
      },
      sp, device_out, n, &fp->back, verify, f));
  paths.push_back(host_path<std::uint32_t>(
      "copy",
      [fp] {
        host::copy(fp->out.data(), fp->in.data(), fp->in.size() * 4);
        ::benchmark::ClobberMemory();
      },
      &fp->out, 0xFFFFFFFFu, [f](bool) { compare_exact("copy", "data", f->out, f->in); }, f));
  return paths;
}

void add_scan(std::vector<benchmark>& out, const settings& set, std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  benchmark b = make_benchmark("array_scan", "array", unit_kind::gigabytes_per_second,
                               8.0 * static_cast<double>(n));
  b.what = "anycl::inclusive_scan(in, out) of " + count_label(n) +
           " uint32 (sums modulo 2^32); GB/s counting 8 bytes per element (read in, write out)";
  b.check = "out against a serial running sum on the host, element by element, exactly";
  b.references = {
      host_reference("two parallel passes: chunk sums, then each chunk from its offset"),
      raw_reference("two kernels: uint8-lane chunk sums, then each chunk scanned"),
      copy_reference("the 4 bytes per element of in to out, its bytes counted read "
                     "plus write as the scan's")};
  b.prepare = [st, n](const session& s) { return scan_paths(*st, s, n); };
  out.push_back(std::move(b));
}

// --- uniform random floats ---

/// Throws unless the host's Philox4x32-10 gives Random123's known answers (its kat_vectors for
/// philox4x32_10).
void check_philox_known_answers() {
  struct kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const kat kats[] = {{{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
                      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                       {0xffffffffu, 0xffffffffu},
                       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
                      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                       {0xa4093822u, 0x299f31d0u},
                       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}};
  for (const kat& k : kats) {
    std::uint32_t got[4];
    host::philox4x32_10(k.ctr, k.key, got);
    for (int j = 0; j < 4; ++j)
      if (got[j] != k.out[j])
        throw check_failed("host: Philox4x32-10 differs from Random123's known answer");
  }
}

// The anycl and host paths of a Philox fill of n floats: `fill` fills an array through a
// random_generator of random_seed (offset 0 each time: a generator's offset advances with each
// fill), `host_fill` the host buffer; `verify` checks either against the serial reference.
template <class Fill, class HostFill, class Verify>
std::vector<path> philox_paths(const std::shared_ptr<float_data>& f, const session& s, Fill fill,
                               HostFill host_fill, Verify verify) {
  float_data* fp = f.get();
  std::vector<path> paths;
  paths.push_back(device_path<float>(
      "anycl",
      [fp, fill] {
        anycl::random_generator gen(random_seed);
        fill(gen, fp->D);
        fp->D.wait();
      },
      &s, fp->D.buffer().get(), fp->n(), &fp->back, verify, f));
  paths.push_back(host_path<float>(
      "host",
      [fp, host_fill] {
        host_fill(fp->out.data(), fp->n());
        ::benchmark::ClobberMemory();
      },
      &fp->out, -1.0f, [fp, verify](bool) { verify("host", fp->out, false); }, f));
  return paths;
}

std::vector<path> random_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  std::shared_ptr<raw_kernels> raw = get_raw(st, s);
  check_philox_known_answers();
  auto expected = std::make_shared<std::vector<float>>(n);
  host::philox_uniform_serial(expected->data(), n, random_seed);
  float_data* fp = f.get();
  const session* sp = &s;
  auto verify = [expected](const std::string& impl, std::vector<float>& got, bool corrupt) {
    if (corrupt) got[got.size() / 2] = got[got.size() / 2] < 0.5f ? 0.75f : 0.25f;
    for (std::size_t i = 0; i < expected->size(); ++i)
      if (got[i] != (*expected)[i])
        wrong(impl, "random float", i, expected->size(), got[i], (*expected)[i]);
  };
  const cl_mem device_out = fp->D.buffer().get();
  std::vector<path> paths = philox_paths(
      f, s, [](anycl::random_generator& g, anycl::array<float>& a) { g.uniform(a); },
      [](float* out, std::size_t count) { host::philox_uniform(out, count, random_seed); }, verify);
  paths.push_back(device_path<float>(
      "raw",
      [fp, raw, sp] { raw->uniform(sp->queue.get(), fp->D.buffer().get(), fp->n(), random_seed); },
      sp, device_out, n, &fp->back, verify, f));
  paths.push_back(copy_path(f, n * sizeof(float)));
  return paths;
}

void add_random(std::vector<benchmark>& out, const settings& set,
                std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  benchmark b = make_benchmark("array_random", "array", unit_kind::gigabytes_per_second,
                               4.0 * static_cast<double>(n));
  b.what = "random_generator::uniform fills " + count_label(n) +
           " floats in [0, 1) (Philox4x32-10); GB/s of output (4 bytes per element)";
  b.check =
      "Philox4x32-10 against the Random123 known answers; every path's floats equal, bit "
      "for bit, the host's serial stream of random_generator(seed) at offset 0";
  b.references = {host_reference("a parallel Philox4x32-10 fill"),
                  raw_reference("Philox4x32-10 on uint8 lanes, float4 stores"),
                  copy_reference("the same 4 bytes per element (host to host)")};
  b.prepare = [st, n](const session& s) { return random_paths(*st, s, n); };
  out.push_back(std::move(b));
}

// --- normal random floats ---

std::vector<path> random_normal_paths(shared_state& st, const session& s, std::size_t n) {
  std::shared_ptr<float_data> f = get_floats(st, s, n);
  check_philox_known_answers();
  auto expected = std::make_shared<std::vector<float>>(n);
  host::philox_normal_serial(expected->data(), n, random_seed);
  // Within 1e-5 of 1 + |z|: log, sqrt, cospi and sinpi differ between libraries by a few ulp.
  auto verify = [expected](const std::string& impl, std::vector<float>& got, bool corrupt) {
    if (corrupt) got[got.size() / 2] += 0.5f;
    for (std::size_t i = 0; i < expected->size(); ++i) {
      const float want = (*expected)[i];
      if (!(std::fabs(got[i] - want) <= 1e-5f * (1.0f + std::fabs(want))))
        wrong(impl, "normal float", i, expected->size(), got[i], want);
    }
  };
  return philox_paths(
      f, s, [](anycl::random_generator& g, anycl::array<float>& a) { g.normal(a); },
      [](float* out, std::size_t count) { host::philox_normal(out, count, random_seed); }, verify);
}

void add_random_normal(std::vector<benchmark>& out, const settings& set,
                       std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  benchmark b = make_benchmark("array_random_normal", "array", unit_kind::gigabytes_per_second,
                               4.0 * static_cast<double>(n));
  b.what = "random_generator::normal fills " + count_label(n) +
           " standard normal floats (Philox4x32-10, Box-Muller); GB/s of output (4 bytes per "
           "element)";
  b.check =
      "every path's floats within 1e-5 of 1 + |z| of the host's serial stream of "
      "random_generator(seed)::normal at offset 0, its cosine and sine in double";
  b.references = {host_reference(
      "a parallel Philox4x32-10 fill through Box-Muller in float (libm's scalar log and sincos)")};
  b.prepare = [st, n](const session& s) { return random_normal_paths(*st, s, n); };
  out.push_back(std::move(b));
}

// --- sort of uint32 keys ---

struct sort_data {
  std::vector<std::uint32_t> original, sorted, work, scratch, back;
  anycl::array<std::uint32_t> ORIGINAL, KEYS;
};

void add_sort(std::vector<benchmark>& out, const settings& set, std::shared_ptr<shared_state>) {
  const std::size_t n = set.sort_keys;
  benchmark b = make_benchmark("array_sort", "array_sort", unit_kind::megakeys_per_second,
                               static_cast<double>(n));
  b.what = "anycl::sort(keys) of " + count_label(n) +
           " random uint32 keys, ascending, in place; Mkeys/s (the keys are restored, untimed, "
           "before each iteration); no raw OpenCL reference (a device sort is a program of its "
           "own, not a kernel)";
  b.check = "the keys against std::sort of the same keys on the host, exactly";
  b.references = {host_reference("a parallel LSD radix sort, 11-bit digits, constant digits "
                                 "skipped, through a scratch buffer"),
                  {"gnu", "__gnu_parallel::sort (<parallel/algorithm>; " +
                              std::string(host::threading()) + ")"}};
  b.prepare = [n](const session& s) {
    require_alloc(s, n * 4, "array_sort");
    auto f = std::make_shared<sort_data>();
    f->original = random_uints(n, 4);
    f->sorted = f->original;
    std::sort(f->sorted.begin(), f->sorted.end());
    f->work.assign(n, 0);
    f->scratch.assign(n, 0);
    f->back.assign(n, 0);
    f->ORIGINAL = anycl::array<std::uint32_t>::from_host(s.queue, f->original);
    f->KEYS = anycl::array<std::uint32_t>::zeros(s.queue, anycl::shape(n));
    f->KEYS.wait();
    sort_data* fp = f.get();
    const session* sp = &s;
    std::vector<path> paths;
    paths.push_back(device_path<std::uint32_t>(
        "anycl", [fp] { anycl::sort(fp->KEYS).wait(); }, sp, fp->KEYS.buffer().get(), n, &fp->back,
        [f](const std::string& impl, std::vector<std::uint32_t>& got, bool corrupt) {
          if (corrupt) got[got.size() / 2] ^= 1u;
          compare_exact(impl, "key", got, f->sorted);
        },
        f,
        [fp] {
          fp->KEYS.assign(fp->ORIGINAL);
          fp->KEYS.wait();
        }));
    const auto restore = [fp] {
      std::copy(fp->original.begin(), fp->original.end(), fp->work.begin());
    };
    paths.push_back(host_path<std::uint32_t>(
        "host",
        [fp] {
          host::radix_sort(fp->work.data(), fp->scratch.data(), fp->work.size());
          ::benchmark::ClobberMemory();
        },
        &fp->work, 0xFFFFFFFFu, [f](bool) { compare_exact("host", "key", f->work, f->sorted); }, f,
        restore));
    paths.push_back(host_path<std::uint32_t>(
        "gnu",
        [fp] {
          host::sort(fp->work.data(), fp->work.size());
          ::benchmark::ClobberMemory();
        },
        &fp->work, 0xFFFFFFFFu, [f](bool) { compare_exact("gnu", "key", f->work, f->sorted); }, f,
        restore));
    return paths;
  };
  out.push_back(std::move(b));
}

// --- CSR sparse matrix times vector ---

struct spmv_data {
  std::vector<std::uint32_t> row_ptr, col_idx;
  std::vector<float> values, x, y, back;
  std::vector<double> expected, magnitude;  // per row, in double
  anycl::csr_matrix<float> A;
  anycl::array<float> X, Y;
  std::size_t rows() const { return y.size(); }
};

/// The entries of row r: 8 to 24, 16 on average (at most `rows`).
std::size_t spmv_row_length(std::size_t r, std::size_t rows) {
  std::uint64_t state = r;
  return std::min<std::size_t>(rows, 8 + mix(state) % 17);
}

/// The entries of the whole matrix (known before it is made: the benchmark's byte count).
std::size_t spmv_entries(std::size_t rows) {
  std::size_t nnz = 0;
  for (std::size_t r = 0; r < rows; ++r) nnz += spmv_row_length(r, rows);
  return nnz;
}

/// A square matrix of `rows` rows, spmv_row_length(r) entries in row r in distinct columns drawn
/// uniformly (sorted), values and x in [0, 1).
std::shared_ptr<spmv_data> make_spmv(const session& s, std::size_t rows) {
  auto f = std::make_shared<spmv_data>();
  std::uint64_t seed = 5;
  f->row_ptr.assign(rows + 1, 0);
  f->col_idx.reserve(spmv_entries(rows));
  std::vector<std::uint32_t> cols;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t k = spmv_row_length(r, rows);
    cols.clear();
    while (cols.size() < k) {
      const auto c = static_cast<std::uint32_t>(mix(seed) % rows);
      if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    }
    std::sort(cols.begin(), cols.end());
    f->col_idx.insert(f->col_idx.end(), cols.begin(), cols.end());
    f->row_ptr[r + 1] = static_cast<std::uint32_t>(f->col_idx.size());
  }
  f->values = unit_floats(f->col_idx.size(), 6);
  f->x = unit_floats(rows, 7);
  f->y.assign(rows, 0.0f);
  f->back.assign(rows, 0.0f);
  f->expected.assign(rows, 0.0);
  f->magnitude.assign(rows, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = f->row_ptr[r]; k < f->row_ptr[r + 1]; ++k) {
      const double t = static_cast<double>(f->values[k]) * f->x[f->col_idx[k]];
      f->expected[r] += t;
      f->magnitude[r] += std::fabs(t);
    }
  f->A = anycl::csr_matrix<float>::from_csr(s.queue, rows, rows, f->row_ptr, f->col_idx, f->values);
  f->X = anycl::array<float>::from_host(s.queue, f->x);
  f->Y = anycl::array<float>::zeros(s.queue, anycl::shape(rows));
  f->Y.wait();
  return f;
}

std::vector<path> spmv_paths(shared_state& st, const session& s, std::size_t rows) {
  std::shared_ptr<raw_kernels> raw = get_raw(st, s);
  require_alloc(s, spmv_entries(rows) * 4, "array_spmv");
  std::shared_ptr<spmv_data> f = make_spmv(s, rows);
  spmv_data* fp = f.get();
  const session* sp = &s;
  auto verify = [f](const std::string& impl, std::vector<float>& got, bool corrupt) {
    if (corrupt) got[got.size() / 2] += 1.0f;
    for (std::size_t r = 0; r < f->rows(); ++r)
      if (!(std::fabs(got[r] - f->expected[r]) <= 1e-5 * f->magnitude[r]))
        wrong(impl, "row", r, f->rows(), got[r], f->expected[r]);
  };
  const cl_mem device_out = fp->Y.buffer().get();
  std::vector<path> paths;
  paths.push_back(device_path<float>(
      "anycl",
      [fp] {
        anycl::spmv(fp->A, fp->X, fp->Y);
        fp->Y.wait();
      },
      sp, device_out, fp->rows(), &fp->back, verify, f));
  paths.push_back(host_path<float>(
      "host",
      [fp] {
        host::spmv(fp->row_ptr.data(), fp->col_idx.data(), fp->values.data(), fp->x.data(),
                   fp->y.data(), fp->rows());
        ::benchmark::ClobberMemory();
      },
      &fp->y, -1.0f, [fp, verify](bool) { verify("host", fp->y, false); }, f));
  paths.push_back(device_path<float>(
      "raw",
      [fp, raw, sp] {
        raw->spmv(sp->queue.get(), fp->A.row_ptr().buffer().get(), fp->A.col_idx().buffer().get(),
                  fp->A.values().buffer().get(), fp->X.buffer().get(), fp->Y.buffer().get(),
                  fp->rows());
      },
      sp, device_out, fp->rows(), &fp->back, verify, f));
  return paths;
}

void add_spmv(std::vector<benchmark>& out, const settings& set, std::shared_ptr<shared_state> st) {
  const std::size_t rows = set.spmv_rows;
  const std::size_t nnz = spmv_entries(rows);
  // values, col_idx and the x gathers: 4 bytes an entry each; row_ptr and y: 4 bytes a row each
  const double bytes = 12.0 * static_cast<double>(nnz) + 4.0 * static_cast<double>(rows + 1) +
                       4.0 * static_cast<double>(rows);
  benchmark b = make_benchmark("array_spmv", "array", unit_kind::gigabytes_per_second, bytes);
  b.what = "anycl::spmv(A, x, y), y = A x, A a csr_matrix<float> of " + count_label(rows) +
           " rows and columns with " + std::to_string(nnz) +
           " entries (8 to 24 a row, in random columns); GB/s counting values, col_idx and the "
           "gathers of x (4 bytes an entry each), row_ptr and y (4 bytes a row each)";
  b.check =
      "y against the host's serial product in double, row by row, within 1e-5 of the sum "
      "of the magnitudes";
  b.references = {host_reference("#pragma omp parallel for over blocks of rows"),
                  raw_reference("each work-item a contiguous block of rows")};
  b.prepare = [st, rows](const session& s) { return spmv_paths(*st, s, rows); };
  out.push_back(std::move(b));
}

// --- the rows measured against OpenMP host code only ---

/// A GB/s row counting `bytes` per element of the family's arrays.
struct host_row {
  const char* name;
  double bytes;
  std::string what, check;
  const char* host;
  std::vector<path> (*paths)(shared_state&, const session&, std::size_t);
};

void add_host_rows(std::vector<benchmark>& out, const settings& set,
                   std::shared_ptr<shared_state> st) {
  const std::size_t n = set.array_elements;
  const std::string count = count_label(n);
  const host_row rows[] = {
      {"array_argmax", 4.0,
       "anycl::argmax(b) of " + count +
           " floats, the index on the host; GB/s counting 4 bytes per element",
       "the index against std::max_element's (the first largest) on the host",
       "#pragma omp parallel for, std::max_element per part, the first of the parts' bests",
       argmax_paths},
      {"array_take", 12.0,
       "anycl::take(b, idx) of " + count +
           " floats at as many random uint32 indices (index_mode::raise: checked); GB/s counting "
           "12 bytes per element (index, value, result)",
       "every gathered value against b[idx[k]] on the host, exactly",
       "#pragma omp parallel for, out[k] = b[idx[k]]", take_paths},
      // Reads every element, writes the selected half.
      {"array_compress", 6.0,
       "anycl::compress(b > 0.5f, b) of " + count +
           " floats in [0, 1), the mask fused into the kernels; GB/s counting 4 bytes read per "
           "element and 4 written per selected one (about half)",
       "the selected values, in order, against a serial host loop, exactly",
       "#pragma omp parallel for: each part's count, then each part writes from its offset",
       compress_paths},
      {"array_histogram", 4.0,
       "anycl::histogram(b, 256, 0, 1) of " + count +
           " floats in [0, 1); GB/s counting 4 bytes per element",
       "the 256 counts against a serial host binning by the same edges, exactly",
       "#pragma omp parallel for, a row of counts per part (the same binning), then added",
       histogram_paths}};
  for (const host_row& r : rows) {
    benchmark b =
        make_benchmark(r.name, "array", unit_kind::gigabytes_per_second, r.bytes * double(n));
    b.what = r.what;
    b.check = r.check;
    b.references = {host_reference(r.host)};
    const auto paths = r.paths;
    b.prepare = [st, n, paths](const session& s) { return paths(*st, s, n); };
    out.push_back(std::move(b));
  }
}

}  // namespace

void add_array_benchmarks(std::vector<benchmark>& out, const settings& s) {
  auto st = std::make_shared<shared_state>();
  add_triad(out, s, st);
  add_reduction(out, s, st, reduction::sum);
  add_reduction(out, s, st, reduction::dot);
  add_scan(out, s, st);
  add_random(out, s, st);
  add_random_normal(out, s, st);
  add_sort(out, s, st);
  add_spmv(out, s, st);
  add_broadcast(out, s, st);
  add_sum_expr(out, s, st);
  add_host_rows(out, s, st);
}

}  // namespace anycl::bench
