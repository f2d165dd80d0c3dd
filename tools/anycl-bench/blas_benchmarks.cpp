// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the BLAS family: square gemm (sgemm, dgemm) through anycl::blas against a direct
// clblast::Gemm call on the same buffers ("clblast") and OpenBLAS on the host ("host",
// cblas_sgemm / cblas_dgemm): on a CPU device AnyCL itself calls OpenBLAS. The _opencl rows run
// AnyCL with the host libraries off, against CLBlast: what AnyCL adds on top of CLBlast. GFLOP/s
// counting 2 n^3 floating-point operations per product.
#include <clblast.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/blas.hpp"
#include "anycl/host_libraries.hpp"
#include "registry.hpp"
#if ANYCL_BENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace anycl::bench {
namespace {

// A, B and C of one size and type, on the device and on the host.
template <class T>
struct gemm_data {
  std::size_t n = 0;
  std::vector<T> a, b, c;
  anycl::buffer da, db, dc;
};

template <class T>
std::shared_ptr<gemm_data<T>> make_data(const session& s, std::size_t n) {
  auto d = std::make_shared<gemm_data<T>>();
  d->n = n;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  d->a.resize(n * n);
  d->b.resize(n * n);
  for (auto& x : d->a) x = static_cast<T>(u(rng));
  for (auto& x : d->b) x = static_cast<T>(u(rng));
  d->c.assign(n * n, T(0));
  d->da = anycl::buffer::from(s.context, d->a);
  d->db = anycl::buffer::from(s.context, d->b);
  d->dc = anycl::buffer::from(s.context, d->c);
  return d;
}

// 64 sampled elements of C = A B against the host in double.
template <class T>
void verify(const std::string& impl, const gemm_data<T>& d, std::vector<T> got, bool corrupt) {
  const std::size_t n = d.n;
  std::mt19937 rng(777);
  if (corrupt) got[(n / 2) * n + n / 3] += T(1);
  std::vector<std::size_t> rows, cols;
  for (int s = 0; s < 64; ++s) {
    rows.push_back(rng() % n);
    cols.push_back(rng() % n);
  }
  if (corrupt) rows[0] = n / 2, cols[0] = n / 3;
  for (std::size_t s = 0; s < rows.size(); ++s) {
    const std::size_t i = rows[s], j = cols[s];
    double want = 0, scale = 0;
    for (std::size_t k = 0; k < n; ++k) {
      want += double(d.a[i * n + k]) * double(d.b[k * n + j]);
      scale += std::fabs(double(d.a[i * n + k]) * double(d.b[k * n + j]));
    }
    const double tol = (std::is_same_v<T, float> ? 1e-5 : 1e-12) * (scale + 1);
    if (std::fabs(double(got[i * n + j]) - want) > tol)
      throw check_failed(impl + ": C(" + std::to_string(i) + ", " + std::to_string(j) + ") is " +
                         std::to_string(double(got[i * n + j])) + ", the host says " +
                         std::to_string(want));
  }
}

template <class T>
std::vector<T> read_c(const session& s, const gemm_data<T>& d) {
  return s.queue.read(anycl::buffer_view<T>(d.dc));
}

template <class T>
void scribble(const session& s, const gemm_data<T>& d) {
  s.queue.fill(anycl::buffer_view<T>(d.dc), T(-7)).wait();
}

template <class T>
path make_path(const std::string& impl, std::shared_ptr<gemm_data<T>> d, const session& s,
               std::function<void()> work, std::function<std::vector<T>()> result) {
  path p;
  p.impl = impl;
  p.iteration = [work, d] { work(); };
  p.check = [impl, d, work, result, sp = &s](bool corrupt) {
    work();  // first-call costs (CLBlast's kernel builds, OpenBLAS's threads) happen here
    if (impl != "host") scribble(*sp, *d);
    work();
    verify(impl, *d, result(), corrupt);
  };
  return p;
}

// --- the three paths' work: C = A B on the device (AnyCL, CLBlast) or the host (OpenBLAS) ---

template <class T>
void anycl_gemm(const session& s, gemm_data<T>& d) {
  const std::size_t m = d.n;
  anycl::blas::gemm(s.queue, anycl::blas::transpose::none, anycl::blas::transpose::none, T(1),
                    anycl::blas::matrix_view<T>(anycl::buffer_view<T>(d.da), m, m),
                    anycl::blas::matrix_view<T>(anycl::buffer_view<T>(d.db), m, m), T(0),
                    anycl::blas::matrix_view<T>(anycl::buffer_view<T>(d.dc), m, m))
      .wait();
}

template <class T>
void clblast_gemm(const session& s, gemm_data<T>& d) {
  const std::size_t m = d.n;
  cl_command_queue q = s.queue.get();
  cl_event ev = nullptr;
  const auto status = clblast::Gemm<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                       clblast::Transpose::kNo, m, m, m, T(1), d.da.get(), 0, m,
                                       d.db.get(), 0, m, T(0), d.dc.get(), 0, m, &q, &ev);
  if (status != clblast::StatusCode::kSuccess)
    throw std::runtime_error("clblast::Gemm failed: " + std::to_string(static_cast<int>(status)));
  clWaitForEvents(1, &ev);
  clReleaseEvent(ev);
}

#if ANYCL_BENCH_HAVE_OPENBLAS
template <class T>
void host_gemm(gemm_data<T>& d) {
  const int m = static_cast<int>(d.n);
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, d.a.data(), m, d.b.data(),
                m, 0.0f, d.c.data(), m);
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, d.a.data(), m, d.b.data(),
                m, 0.0, d.c.data(), m);
}
#endif

// anycl::blas on its OpenCL path (CLBlast) whatever the device: the _opencl rows.
template <class T>
void anycl_gemm_opencl(const session& s, gemm_data<T>& d) {
  const anycl::host_libraries before = anycl::host_libraries_mode();
  anycl::set_host_libraries(anycl::host_libraries::off);
  anycl_gemm(s, d);
  anycl::set_host_libraries(before);
}

// `opencl`: AnyCL on CLBlast against CLBlast only; else AnyCL as it chooses (OpenBLAS on a CPU
// device) against CLBlast and OpenBLAS.
template <class T>
std::vector<path> gemm_paths(const session& s, std::size_t n, bool opencl) {
  auto d = make_data<T>(s, n);
  gemm_data<T>* dp = d.get();
  const session* sp = &s;
  std::vector<path> paths;
  auto device_result = [dp, sp] { return read_c(*sp, *dp); };
  if (opencl)
    paths.push_back(make_path<T>(
        "anycl", d, s, [dp, sp] { anycl_gemm_opencl(*sp, *dp); }, device_result));
  else
    paths.push_back(make_path<T>(
        "anycl", d, s, [dp, sp] { anycl_gemm(*sp, *dp); }, device_result));
  paths.push_back(make_path<T>(
      "clblast", d, s, [dp, sp] { clblast_gemm(*sp, *dp); }, device_result));
#if ANYCL_BENCH_HAVE_OPENBLAS
  if (!opencl)
    paths.push_back(make_path<T>(
        "host", d, s, [dp] { host_gemm(*dp); }, [dp] { return dp->c; }));
#endif
  return paths;
}

template <class T>
void add_gemm(std::vector<benchmark>& out, std::size_t n, bool opencl) {
  const bool single = std::is_same_v<T, float>;
  const std::string name =
      std::string(single ? "sgemm_" : "dgemm_") + std::to_string(n) + (opencl ? "_opencl" : "");
  benchmark b;
  b.name = b.family = name;
  b.group = "blas";
  b.unit = unit_kind::gigaflops_per_second;
  b.items_per_iteration = 2.0 * double(n) * double(n) * double(n);
  b.what = std::string("C = A B, ") + std::to_string(n) + "x" + std::to_string(n) + " " +
           (single ? "float" : "double") +
           " row-major matrices, anycl::blas::gemm on buffer views, waiting for its event" +
           (opencl ? " (host libraries off: CLBlast on every device)"
                   : " (OpenBLAS where the device computes in host memory, else CLBlast)") +
           "; GFLOP/s counting 2 n^3 operations";
  b.check = "64 sampled elements of C against the host in double (relative to the sum of |terms|)";
  b.references = {{"clblast", std::string("a direct clblast::Gemm<") +
                                  (single ? "float" : "double") +
                                  "> call on the same buffers and queue, clWaitForEvents"}};
#if ANYCL_BENCH_HAVE_OPENBLAS
  if (!opencl)
    b.references.push_back(
        {"host", std::string("OpenBLAS cblas_") + (single ? "sgemm" : "dgemm") +
                     " on the host (its own threads, OPENBLAS_NUM_THREADS to change)"});
#endif
  b.prepare = [n, opencl](const session& s) { return gemm_paths<T>(s, n, opencl); };
  out.push_back(std::move(b));
}

}  // namespace

void add_blas_benchmarks(std::vector<benchmark>& out, const settings& s) {
  for (bool opencl : {false, true}) {
    for (std::size_t n : s.sgemm_sizes) add_gemm<float>(out, n, opencl);
    for (std::size_t n : s.dgemm_sizes) add_gemm<double>(out, n, opencl);
  }
}

}  // namespace anycl::bench
