// SPDX-License-Identifier: Apache-2.0
// anycl-demo's workloads: each runs on the device, repeats the work on the host and compares.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "anycl/anycl.hpp"

namespace demo {

/// One line of the demo's table.
struct row {
  std::string name;
  std::string size;   ///< the problem, e.g. "1048576 vertices"
  double device_ms;   ///< the device's time (see the table's footnote for what it covers)
  double host_ms;     ///< the same work on one host thread
  std::string check;  ///< what was compared and how close it came
  bool ok;
};

/// What every workload runs on.
struct setup {
  anycl::device dev;
  anycl::context ctx;
  anycl::command_queue queue;  ///< in order, with profiling
  anycl::program prog;         ///< anycl/demo.cl
  std::size_t n;               ///< the --size scale: vertices, points, keys; samples are 4n
  unsigned seed;
};

/// Milliseconds since t0.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// Milliseconds a command took on the device (its profiling times).
inline double ms(const anycl::event& e) {
  return std::chrono::duration<double, std::milli>(e.duration()).count();
}

/// Builds the kernels of gemm (on a second thread), fft, sort and montecarlo, so that the
/// workloads time the work only (each still makes a first call that would build them). Hold an
/// anycl::fft::library_guard meanwhile: clFFT keeps its kernels while one lives.
void build_kernels(const setup& s);
/// n vertices (w = 1) transformed by 64 model-view-projection matrices (kernel in demo.cl).
row vertices(const setup& s);
/// k-means with k = 8 of n 2-D points drawn around 8 known centres (assignment kernel in demo.cl).
row kmeans(const setup& s);
/// A square sgemm through anycl::blas (CLBlast, OpenBLAS on a CPU device), its side about sqrt(n)
/// / 2.
row gemm(const setup& s);
/// A complex FFT (anycl::fft, clFFT) of n / 4 samples of three sines in noise.
row fft(const setup& s);
/// anycl::sort of n random 32-bit keys.
row sort(const setup& s);
/// pi from 4n points of anycl::random_generator and a reduction that counts those in the circle.
row montecarlo(const setup& s);

}  // namespace demo
