// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the raw OpenCL references of the array benchmarks: hand-written kernels (OpenCL C
// source text in raw_reference.cpp) run through the C API alone
// (clCreateProgramWithSource, clBuildProgram, clSetKernelArg, clEnqueueNDRangeKernel). Every call
// enqueues its kernels and waits for them (clFinish), so one call is one finished operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "anycl/cl.hpp"

namespace anycl::bench {

/// The launch shape of the raw kernels on a CPU device: few work-items (at most 4 per compute
/// unit), each a contiguous chunk of at least 16 KiB, the chunk a multiple of `multiple`
/// elements; the same shape detail::plan_launch gives AnyCL's kernels there.
struct raw_shape {
  std::size_t items = 1;  ///< work-items (global size; work-groups of 1)
  std::size_t chunk = 0;  ///< elements per work-item
};
raw_shape raw_shape_for(cl_uint compute_units, std::size_t n, std::size_t elem_bytes,
                        std::size_t multiple = 16);

/// The raw kernels built for one context and device, and the small buffer their partial results
/// go through. Not copyable. Every function throws std::runtime_error naming the failing call.
class raw_kernels {
 public:
  raw_kernels(cl_context context, cl_device_id device);
  ~raw_kernels();
  raw_kernels(const raw_kernels&) = delete;
  raw_kernels& operator=(const raw_kernels&) = delete;

  /// d = b + s * c over n floats (16 a step, in two float8 halves).
  void triad(cl_command_queue q, cl_mem d, cl_mem b, cl_mem c, float s, std::size_t n);
  /// The sum of n floats: per work-item partial sums in two float8 accumulators, read back and
  /// added on the host in double.
  double sum(cl_command_queue q, cl_mem a, std::size_t n);
  /// The sum of a[i] * b[i], as sum().
  double dot(cl_command_queue q, cl_mem a, cl_mem b, std::size_t n);
  /// out = inclusive scan of n uints: chunk sums (uint8 lanes), then each chunk scanned from the
  /// sum of the chunks before it.
  void inclusive_scan(cl_command_queue q, cl_mem in, cl_mem out, std::size_t n);
  /// n uniform floats of host::philox_uniform's stream (Philox4x32-10, eight counters in uint8
  /// lanes per 32 elements).
  void uniform(cl_command_queue q, cl_mem out, std::size_t n, std::uint64_t seed);
  /// y = A x for a CSR matrix of `rows` rows with uint row_ptr and col_idx (each work-item a
  /// contiguous block of rows).
  void spmv(cl_command_queue q, cl_mem row_ptr, cl_mem col_idx, cl_mem values, cl_mem x, cl_mem y,
            std::size_t rows);

 private:
  void run(cl_command_queue q, cl_kernel k, std::size_t items);
  /// Reads the first `items` float partial results (blocking) and adds them in double.
  double read_partials(cl_command_queue q, std::size_t items);
  void release() noexcept;
  cl_uint compute_units_ = 1;
  cl_program program_ = nullptr;
  cl_kernel triad_ = nullptr, sum_ = nullptr, dot_ = nullptr, scan_sums_ = nullptr, scan_ = nullptr,
            uniform_ = nullptr, spmv_ = nullptr;
  cl_mem partial_ = nullptr;  // one float or uint per work-item
  std::size_t partial_items_ = 0;
  std::vector<float> host_partial_;
};

}  // namespace anycl::bench
