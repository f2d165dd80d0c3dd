// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the fft family: anycl::fft::plan::execute against clFFT called directly on the same
// buffers ("clfft": clfftEnqueueTransform on a plan made with clFFT's own calls, same layout and
// temporary buffer) and, for context, FFTW3f on the host ("host", 2 threads, FFTW_MEASURE). Every
// path transforms known data; the check compares 16 bins with a direct O(n) sum in double and the
// whole spectrum's energy with Parseval's identity.
#include <benchmark/benchmark.h>
#include <clFFT.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/fft.hpp"
#include "registry.hpp"

#if ANYCL_BENCH_FFTW
#include <fftw3.h>
#endif

namespace anycl::bench {
namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

constexpr int host_threads = 2;

std::string count_label(std::size_t n) {
  for (unsigned p = 0; p < 64; ++p)
    if (n == std::size_t{1} << p) return "2^" + std::to_string(p);
  return std::to_string(n);
}

/// Known input in [-1, 1): a splitmix64 stream.
std::vector<float> known_floats(std::size_t n, std::uint64_t state) {
  std::vector<float> v(n);
  for (float& x : v) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x = static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
  }
  return v;
}

void clfft_ok(const char* call, clfftStatus s) {
  if (s != CLFFT_SUCCESS)
    throw std::runtime_error(std::string("clfft: ") + call + " failed: status " +
                             std::to_string(static_cast<int>(s)));
}

void cl_ok(const char* call, cl_int s) {
  if (s != CL_SUCCESS)
    throw std::runtime_error(std::string("raw C API: ") + call +
                             " failed: " + std::string(anycl::status_name(s)));
}

// --- one benchmark's fixture ---

/// What a transform is: `batch` forward transforms of `n` points, complex or real input.
struct fft_shape {
  std::size_t n = 0, batch = 1;
  bool real = false;                                     // real-to-complex
  std::size_t in_elements() const { return n * batch; }  // floats (real) or complex
  std::size_t out_per() const { return real ? n / 2 + 1 : n; }
  std::size_t out_elements() const { return out_per() * batch; }
  std::size_t in_bytes() const { return in_elements() * (real ? 4 : 8); }
  std::size_t out_bytes() const { return out_elements() * 8; }
};

struct fft_fixture {
  fft_shape shape;
  std::vector<float> input;  // n * batch floats (real) or 2 * n * batch (complex, interleaved)
  std::vector<cf> back;      // device results read back
  anycl::buffer in, out;
  anycl::fft::plan plan;
  // The direct clFFT plan: a guard keeps clFFT set up (AnyCL owns clfftSetup/clfftTeardown).
  anycl::fft::library_guard guard;
  clfftPlanHandle raw = 0;
  anycl::buffer raw_temp;
  ~fft_fixture() {
    if (raw != 0) clfftDestroyPlan(&raw);
  }
};

/// x[k] of batch member b of the known input.
cd input_at(const fft_fixture& f, std::size_t b, std::size_t j) {
  const std::size_t i = b * f.shape.n + j;
  return f.shape.real ? cd(f.input[i], 0) : cd(f.input[2 * i], f.input[2 * i + 1]);
}

/// Checks a spectrum (`got`, out_elements() values): 16 bins of batch members 0 and batch - 1
/// against a direct sum in double, and every member's energy against Parseval's identity.
void verify(const std::string& impl, const fft_fixture& f, const cf* got, bool corrupt) {
  const fft_shape& s = f.shape;
  std::vector<cf> copy;
  if (corrupt) {
    copy.assign(got, got + s.out_elements());
    copy[s.out_per() / 3] += cf(1000.0f, 0.0f);
    got = copy.data();
  }
  const double pi = 3.14159265358979323846;
  for (std::size_t b : {std::size_t{0}, s.batch - 1}) {
    double energy_in = 0;
    for (std::size_t j = 0; j < s.n; ++j) energy_in += std::norm(input_at(f, b, j));
    const double tol = 1e-4 * std::sqrt(energy_in) + 1e-6;
    for (std::size_t t = 0; t < 16; ++t) {
      const std::size_t k = (t * 2654435761u + s.out_per() / 3) % s.out_per();
      cd exact = 0;
      for (std::size_t j = 0; j < s.n; ++j) {
        const double a = -2 * pi * static_cast<double>((j * k) % s.n) / static_cast<double>(s.n);
        exact += input_at(f, b, j) * cd(std::cos(a), std::sin(a));
      }
      const cd g = got[b * s.out_per() + k];
      if (!(std::abs(g - exact) <= tol)) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      ": wrong bin %zu of transform %zu: (%.7g, %.7g), expected (%.7g, %.7g) "
                      "(tolerance %.3g)",
                      k, b, g.real(), g.imag(), exact.real(), exact.imag(), tol);
        throw check_failed(impl + buf);
      }
    }
    // Parseval: sum |X|^2 = n sum |x|^2 (the half spectrum counts its mirrored bins twice).
    double energy_out = 0;
    for (std::size_t k = 0; k < s.out_per(); ++k) {
      const double e = std::norm(cd(got[b * s.out_per() + k]));
      const bool mirrored = s.real && k != 0 && !(s.n % 2 == 0 && k == s.n / 2);
      energy_out += mirrored ? 2 * e : e;
    }
    const double expected = energy_in * static_cast<double>(s.n);
    if (!(std::fabs(energy_out - expected) <= 1e-4 * expected))
      throw check_failed(impl + ": the spectrum's energy " + std::to_string(energy_out) +
                         " is not n times the input's, " + std::to_string(expected) +
                         " (Parseval), in transform " + std::to_string(b));
  }
}

std::shared_ptr<fft_fixture> make_fixture(const session& s, const fft_shape& shape) {
  auto f = std::make_shared<fft_fixture>();
  f->shape = shape;
  f->input = known_floats(shape.real ? shape.in_elements() : 2 * shape.in_elements(), 7);
  f->back.assign(shape.out_elements(), cf(0, 0));
  f->in = anycl::buffer(s.context, f->input.data(), shape.in_bytes());
  f->out = anycl::buffer(s.context, shape.out_bytes());

  anycl::fft::plan_desc d =
      shape.real ? anycl::fft::plan_desc::r2c({shape.n}) : anycl::fft::plan_desc::c2c({shape.n});
  d.batch = shape.batch;
  f->plan = anycl::fft::plan(s.queue, d);

  // The same plan through clFFT's own calls (AnyCL's guard holds clFFT's setup).
  size_t len = shape.n;
  clfft_ok("clfftCreateDefaultPlan",
           clfftCreateDefaultPlan(&f->raw, s.context.get(), CLFFT_1D, &len));
  clfft_ok("clfftSetPlanPrecision", clfftSetPlanPrecision(f->raw, CLFFT_SINGLE));
  clfft_ok("clfftSetLayout",
           clfftSetLayout(f->raw, shape.real ? CLFFT_REAL : CLFFT_COMPLEX_INTERLEAVED,
                          shape.real ? CLFFT_HERMITIAN_INTERLEAVED : CLFFT_COMPLEX_INTERLEAVED));
  clfft_ok("clfftSetResultLocation", clfftSetResultLocation(f->raw, CLFFT_OUTOFPLACE));
  clfft_ok("clfftSetPlanBatchSize", clfftSetPlanBatchSize(f->raw, shape.batch));
  size_t one = 1;
  clfft_ok("clfftSetPlanInStride", clfftSetPlanInStride(f->raw, CLFFT_1D, &one));
  clfft_ok("clfftSetPlanOutStride", clfftSetPlanOutStride(f->raw, CLFFT_1D, &one));
  clfft_ok("clfftSetPlanDistance", clfftSetPlanDistance(f->raw, shape.n, shape.out_per()));
  cl_command_queue q = s.queue.get();
  clfft_ok("clfftBakePlan", clfftBakePlan(f->raw, 1, &q, nullptr, nullptr));
  size_t temp = 0;
  clfft_ok("clfftGetTmpBufSize", clfftGetTmpBufSize(f->raw, &temp));
  if (temp != 0) f->raw_temp = anycl::buffer(s.context, temp);
  return f;
}

/// Overwrites the device output with NaNs (0xFF bytes), so a path that does nothing fails.
void scribble(const session& s, const fft_fixture& f) {
  const cl_uint pattern = 0xFFFFFFFFu;
  cl_ok("clEnqueueFillBuffer",
        clEnqueueFillBuffer(s.queue.get(), f.out.get(), &pattern, sizeof pattern, 0,
                            f.shape.out_bytes(), 0, nullptr, nullptr));
  cl_ok("clFinish", clFinish(s.queue.get()));
}

void verify_device(const session& s, fft_fixture& f, const std::string& impl, bool corrupt) {
  cl_ok("clEnqueueReadBuffer",
        clEnqueueReadBuffer(s.queue.get(), f.out.get(), CL_TRUE, 0, f.shape.out_bytes(),
                            f.back.data(), 0, nullptr, nullptr));
  verify(impl, f, f.back.data(), corrupt);
}

path device_path(const session& s, std::shared_ptr<fft_fixture> f, const std::string& impl,
                 std::function<void()> work) {
  path p;
  p.impl = impl;
  p.iteration = [work, f] { work(); };
  const session* sp = &s;
  p.check = [sp, f, impl, work](bool corrupt) {
    work();  // clFFT's kernels are built at bake time; this is the first transform, untimed
    scribble(*sp, *f);
    work();
    verify_device(*sp, *f, impl, corrupt && impl == "anycl");
  };
  return p;
}

#if ANYCL_BENCH_FFTW
/// FFTW3f on the host: its own aligned arrays holding the same input.
struct fftw_fixture {
  fftwf_plan plan = nullptr;
  float* in = nullptr;
  fftwf_complex* out = nullptr;
  ~fftw_fixture() {
    if (plan) fftwf_destroy_plan(plan);
    fftwf_free(in);
    fftwf_free(out);
  }
};

std::shared_ptr<fftw_fixture> make_fftw(const fft_fixture& f) {
  static const bool threads_ready = fftwf_init_threads() != 0;
  if (!threads_ready) throw std::runtime_error("host: fftwf_init_threads failed");
  const fft_shape& s = f.shape;
  auto h = std::make_shared<fftw_fixture>();
  h->in = static_cast<float*>(fftwf_malloc(f.input.size() * sizeof(float)));
  h->out = static_cast<fftwf_complex*>(fftwf_malloc(s.out_bytes()));
  if (!h->in || !h->out) throw std::runtime_error("host: fftwf_malloc failed");
  fftwf_plan_with_nthreads(host_threads);
  fftwf_set_timelimit(20.0);  // FFTW_MEASURE tries plans for at most this long
  // Small sizes (--quick) plan by estimate: measuring would dominate the run.
  const unsigned flags = s.n * s.batch >= (std::size_t{1} << 16) ? FFTW_MEASURE : FFTW_ESTIMATE;
  const int n = static_cast<int>(s.n);
  const int batch = static_cast<int>(s.batch);
  const int out_per = static_cast<int>(s.out_per());
  h->plan = s.real ? fftwf_plan_many_dft_r2c(1, &n, batch, h->in, nullptr, 1, n, h->out, nullptr, 1,
                                             out_per, flags)
                   : fftwf_plan_many_dft(1, &n, batch, reinterpret_cast<fftwf_complex*>(h->in),
                                         nullptr, 1, n, h->out, nullptr, 1, n, FFTW_FORWARD, flags);
  if (!h->plan) throw std::runtime_error("host: FFTW made no plan");
  // Planning with FFTW_MEASURE overwrote the arrays: the input goes in afterwards.
  std::copy(f.input.begin(), f.input.end(), h->in);
  return h;
}
#endif

// --- the paths' work: one forward transform, waited for ---

void anycl_transform(const session& s, fft_fixture& f) {
  if (f.shape.real)
    f.plan.execute(s.queue, anycl::buffer_view<float>(f.in), anycl::buffer_view<cf>(f.out)).wait();
  else
    f.plan.execute(s.queue, anycl::buffer_view<cf>(f.in), anycl::buffer_view<cf>(f.out)).wait();
}

void clfft_transform(const session& s, fft_fixture& f) {
  cl_command_queue q = s.queue.get();
  cl_mem in = f.in.get(), out = f.out.get();
  cl_event done = nullptr;
  clfft_ok("clfftEnqueueTransform", clfftEnqueueTransform(f.raw, CLFFT_FORWARD, 1, &q, 0, nullptr,
                                                          &done, &in, &out, f.raw_temp.get()));
  const cl_int status = clWaitForEvents(1, &done);
  clReleaseEvent(done);
  cl_ok("clWaitForEvents", status);
}

#if ANYCL_BENCH_FFTW
/// The FFTW path: its check runs the plan, sets the output to NaNs, runs it again and compares.
path fftw_path(std::shared_ptr<fft_fixture> f) {
  std::shared_ptr<fftw_fixture> h = make_fftw(*f);
  fftw_fixture* hp = h.get();
  path host;
  host.impl = "host";
  host.iteration = [hp, h, f] {
    fftwf_execute(hp->plan);
    ::benchmark::ClobberMemory();
  };
  host.check = [hp, f](bool) {
    fftwf_execute(hp->plan);
    const std::size_t n = f->shape.out_elements();
    for (std::size_t i = 0; i < n; ++i) hp->out[i][0] = hp->out[i][1] = std::nanf("");
    fftwf_execute(hp->plan);
    verify("host", *f, reinterpret_cast<const cf*>(hp->out), false);
  };
  return host;
}
#endif

std::vector<path> fft_paths(const session& s, const fft_shape& shape) {
  std::shared_ptr<fft_fixture> f = make_fixture(s, shape);
  fft_fixture* fp = f.get();
  const session* sp = &s;
  std::vector<path> paths;
  paths.push_back(device_path(s, f, "anycl", [fp, sp] { anycl_transform(*sp, *fp); }));
  paths.push_back(device_path(s, f, "clfft", [fp, sp] { clfft_transform(*sp, *fp); }));
#if ANYCL_BENCH_FFTW
  paths.push_back(fftw_path(f));
#endif
  return paths;
}

// --- the three benchmarks ---

void add_fft(std::vector<benchmark>& out, const std::string& name, const fft_shape& shape,
             const std::string& what) {
  benchmark b;
  b.name = b.family = name;
  b.group = "fft";
  b.unit = unit_kind::milliseconds;
  b.items_per_iteration = 1;
  b.what = what + "; ms per execute, waited for";
  b.check =
      "16 bins of the first and last transform against a direct O(n) DFT sum in double (1e-4 of "
      "the input's L2 norm), and the spectrum's energy against Parseval's identity (1e-4)";
  b.references = {{"clfft",
                   "clFFT 2.12 called directly: clfftEnqueueTransform on the same buffers, a plan "
                   "with the same layout made with clFFT's own calls, clWaitForEvents"}};
#if ANYCL_BENCH_FFTW
  b.references.push_back(
      {"host", "FFTW3f " + std::string(fftwf_version) + " on the host, " +
                   std::to_string(host_threads) +
                   " threads (fftwf_plan_with_nthreads), FFTW_MEASURE (FFTW_ESTIMATE below 2^16 "
                   "points), out of place"});
#endif
  b.prepare = [shape](const session& s) { return fft_paths(s, shape); };
  out.push_back(std::move(b));
}

}  // namespace

void add_fft_benchmarks(std::vector<benchmark>& out, const settings& s) {
  const std::string n = count_label(s.fft_points);
  add_fft(out, "fft_c2c", {s.fft_points, 1, false},
          "anycl::fft::plan::execute: a forward complex-to-complex float FFT of " + n +
              " points, out of place");
  add_fft(out, "fft_r2c", {s.fft_points, 1, true},
          "anycl::fft::plan::execute: a forward real-to-complex float FFT of " + n +
              " points (half spectrum out), out of place");
  add_fft(out, "fft_batched", {s.fft_batch_points, s.fft_batch, false},
          "anycl::fft::plan::execute: " + std::to_string(s.fft_batch) +
              " forward complex-to-complex float FFTs of " + std::to_string(s.fft_batch_points) +
              " points, one batched plan, out of place");
}

}  // namespace anycl::bench
