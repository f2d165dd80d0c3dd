// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the raw OpenCL references of the array benchmarks (see raw_reference.hpp): the
// kernels' source and the C API calls that build and launch them.
#include "raw_reference.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/error.hpp"

namespace anycl::bench {
namespace {

// Each kernel walks its work-item's contiguous chunk [begin, end): the shape raw_shape_for gives.
const char* const source = R"CL(
#define CHUNK_RANGE(n, chunk)                                 \
  const ulong begin = (ulong)get_global_id(0) * (chunk);     \
  const ulong end = min((ulong)(n), begin + (ulong)(chunk));

// 16 elements a step, as two 8-wide halves: the width of AVX2 registers (a float16 function
// argument or return, as vload16's, draws clang's ABI warning on CPUs without AVX-512).
kernel void raw_triad(global float* restrict d, global const float* restrict b,
                      global const float* restrict c, const float s, const ulong n,
                      const ulong chunk) {
  CHUNK_RANGE(n, chunk)
  ulong k = begin;
  for (; k + 16 <= end; k += 16) {
    vstore8(vload8(0, b + k) + s * vload8(0, c + k), 0, d + k);
    vstore8(vload8(0, b + k + 8) + s * vload8(0, c + k + 8), 0, d + k + 8);
  }
  for (; k < end; ++k) d[k] = b[k] + s * c[k];
}

float fold8(float8 v) {
  const float4 q = v.lo + v.hi;
  const float2 t = q.lo + q.hi;
  return t.x + t.y;
}

kernel void raw_sum(global const float* restrict a, global float* restrict partial,
                    const ulong n, const ulong chunk) {
  CHUNK_RANGE(n, chunk)
  float8 acc0 = 0, acc1 = 0;
  ulong k = begin;
  for (; k + 16 <= end; k += 16) {
    acc0 += vload8(0, a + k);
    acc1 += vload8(0, a + k + 8);
  }
  float s = 0;
  for (; k < end; ++k) s += a[k];
  partial[get_global_id(0)] = s + fold8(acc0 + acc1);
}

kernel void raw_dot(global const float* restrict a, global const float* restrict b,
                    global float* restrict partial, const ulong n, const ulong chunk) {
  CHUNK_RANGE(n, chunk)
  float8 acc0 = 0, acc1 = 0;
  ulong k = begin;
  for (; k + 16 <= end; k += 16) {
    acc0 += vload8(0, a + k) * vload8(0, b + k);
    acc1 += vload8(0, a + k + 8) * vload8(0, b + k + 8);
  }
  float s = 0;
  for (; k < end; ++k) s += a[k] * b[k];
  partial[get_global_id(0)] = s + fold8(acc0 + acc1);
}

kernel void raw_scan_sums(global const uint* restrict in, global uint* restrict partial,
                          const ulong n, const ulong chunk) {
  CHUNK_RANGE(n, chunk)
  uint8 acc = 0;
  ulong k = begin;
  for (; k + 16 <= end; k += 16) acc += vload8(0, in + k) + vload8(0, in + k + 8);
  uint s = 0;
  for (; k < end; ++k) s += in[k];
  const uint4 q = acc.lo + acc.hi;
  const uint2 t = q.lo + q.hi;
  partial[get_global_id(0)] = s + t.x + t.y;
}

kernel void raw_scan(global const uint* restrict in, global uint* restrict out,
                     global const uint* restrict partial, const ulong n, const ulong chunk) {
  CHUNK_RANGE(n, chunk)
  uint run = 0;
  for (ulong i = 0; i < get_global_id(0); ++i) run += partial[i];
  ulong k = begin;
  // 8 at a time: the prefix sums within a uint8 in three shifted adds, then the running total
  const uint8 zero = 0;
  for (; k + 8 <= end; k += 8) {
    uint8 v = vload8(0, in + k);
    v += shuffle2(zero, v, (uint8)(0, 8, 9, 10, 11, 12, 13, 14));
    v += shuffle2(zero, v, (uint8)(0, 0, 8, 9, 10, 11, 12, 13));
    v += shuffle2(zero, v, (uint8)(0, 0, 0, 0, 8, 9, 10, 11));
    v += run;
    vstore8(v, 0, out + k);
    run = v.s7;
  }
  for (; k < end; ++k) {
    run += in[k];
    out[k] = run;
  }
}

// Philox4x32-10 on eight counters at once (uint8 lanes): counter c gives its words w0..w3 to
// elements 4 c .. 4 c + 3, as (w >> 8) * 2^-24. The chunk is a multiple of 32.
#define STORE_LANE(l) vstore4((float4)(f0.s##l, f1.s##l, f2.s##l, f3.s##l), 0, o + 4 * 0x##l)
kernel void raw_uniform(global float* restrict out, const ulong n, const ulong chunk,
                        const uint key0, const uint key1) {
  CHUNK_RANGE(n, chunk)
  const uint8 lane = (uint8)(0, 1, 2, 3, 4, 5, 6, 7);
  for (ulong g = begin / 32; g * 32 < end; ++g) {
    const ulong c = 8 * g;
    uint8 c0 = (uint8)((uint)c) + lane, c1 = (uint8)((uint)(c >> 32)), c2 = 0, c3 = 0;
    uint k0 = key0, k1 = key1;
    for (int r = 0; r < 10; ++r) {
      const uint8 hi0 = mul_hi((uint8)0xD2511F53u, c0), lo0 = (uint8)0xD2511F53u * c0;
      const uint8 hi1 = mul_hi((uint8)0xCD9E8D57u, c2), lo1 = (uint8)0xCD9E8D57u * c2;
      c0 = hi1 ^ c1 ^ k0;
      c1 = lo1;
      c2 = hi0 ^ c3 ^ k1;
      c3 = lo0;
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const float scale = 1.0f / 16777216.0f;
    const float8 f0 = convert_float8(c0 >> 8) * scale, f1 = convert_float8(c1 >> 8) * scale;
    const float8 f2 = convert_float8(c2 >> 8) * scale, f3 = convert_float8(c3 >> 8) * scale;
    global float* o = out + 32 * g;
    if (32 * g + 32 <= n) {
      STORE_LANE(0);
      STORE_LANE(1);
      STORE_LANE(2);
      STORE_LANE(3);
      STORE_LANE(4);
      STORE_LANE(5);
      STORE_LANE(6);
      STORE_LANE(7);
    } else {
      float w[32];
      vstore8(f0, 0, w);
      vstore8(f1, 0, w + 8);
      vstore8(f2, 0, w + 16);
      vstore8(f3, 0, w + 24);
      for (uint l = 0; l < 8; ++l)
        for (uint j = 0; j < 4; ++j)
          if (32 * g + 4 * l + j < n) o[4 * l + j] = w[8 * j + l];
    }
  }
}

kernel void raw_spmv(global const uint* restrict row_ptr, global const uint* restrict col_idx,
                     global const float* restrict values, global const float* restrict x,
                     global float* restrict y, const ulong rows, const ulong chunk) {
  CHUNK_RANGE(rows, chunk)
  for (ulong r = begin; r < end; ++r) {
    float s = 0;
    for (uint k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += values[k] * x[col_idx[k]];
    y[r] = s;
  }
}
)CL";

[[noreturn]] void raw_failed(const char* call, cl_int status, const std::string& more = {}) {
  throw std::runtime_error(std::string("raw C API: ") + call +
                           " failed: " + std::string(anycl::status_name(status)) + more);
}

void check(const char* call, cl_int status) {
  if (status != CL_SUCCESS) raw_failed(call, status);
}

template <class T>
void set_arg(cl_kernel k, cl_uint index, const T& value) {
  check("clSetKernelArg", clSetKernelArg(k, index, sizeof(T), &value));
}

std::string build_log(cl_program p, cl_device_id d) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS)
    return {};
  return log;
}

}  // namespace

raw_shape raw_shape_for(cl_uint compute_units, std::size_t n, std::size_t elem_bytes,
                        std::size_t multiple) {
  raw_shape s;
  if (n == 0) return s;
  const std::size_t min_chunk =
      std::max<std::size_t>(64, 16384 / std::max<std::size_t>(1, elem_bytes));
  s.items = std::min<std::size_t>((n + min_chunk - 1) / min_chunk,
                                  std::size_t{4} * std::max<cl_uint>(1, compute_units));
  s.items = std::max<std::size_t>(1, s.items);
  s.chunk = (n + s.items - 1) / s.items;
  s.chunk = (s.chunk + multiple - 1) / multiple * multiple;
  s.items = (n + s.chunk - 1) / s.chunk;
  return s;
}

raw_kernels::raw_kernels(cl_context context, cl_device_id device) {
  try {
    check("clGetDeviceInfo(CL_DEVICE_MAX_COMPUTE_UNITS)",
          clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units_,
                          &compute_units_, nullptr));
    cl_int st = CL_SUCCESS;
    const char* text = source;
    program_ = clCreateProgramWithSource(context, 1, &text, nullptr, &st);
    check("clCreateProgramWithSource", st);
    st = clBuildProgram(program_, 1, &device, "", nullptr, nullptr);
    if (st != CL_SUCCESS) raw_failed("clBuildProgram", st, "\n" + build_log(program_, device));
    auto make = [&](const char* name) {
      cl_int s = CL_SUCCESS;
      cl_kernel k = clCreateKernel(program_, name, &s);
      if (s != CL_SUCCESS) raw_failed("clCreateKernel", s, std::string(" (") + name + ")");
      return k;
    };
    triad_ = make("raw_triad");
    sum_ = make("raw_sum");
    dot_ = make("raw_dot");
    scan_sums_ = make("raw_scan_sums");
    scan_ = make("raw_scan");
    uniform_ = make("raw_uniform");
    spmv_ = make("raw_spmv");
    partial_items_ = std::size_t{4} * std::max<cl_uint>(1, compute_units_);
    partial_ = clCreateBuffer(context, CL_MEM_READ_WRITE, partial_items_ * 4, nullptr, &st);
    check("clCreateBuffer", st);
    host_partial_.assign(partial_items_, 0);
  } catch (...) {
    release();
    throw;
  }
}

raw_kernels::~raw_kernels() { release(); }

void raw_kernels::release() noexcept {
  for (cl_kernel* k : {&triad_, &sum_, &dot_, &scan_sums_, &scan_, &uniform_, &spmv_})
    if (*k) clReleaseKernel(*k), *k = nullptr;
  if (program_) clReleaseProgram(program_), program_ = nullptr;
  if (partial_) clReleaseMemObject(partial_), partial_ = nullptr;
}

double raw_kernels::read_partials(cl_command_queue q, std::size_t items) {
  check("clEnqueueReadBuffer", clEnqueueReadBuffer(q, partial_, CL_TRUE, 0, items * sizeof(float),
                                                   host_partial_.data(), 0, nullptr, nullptr));
  double total = 0;
  for (std::size_t i = 0; i < items; ++i) total += host_partial_[i];
  return total;
}

void raw_kernels::run(cl_command_queue q, cl_kernel k, std::size_t items) {
  const std::size_t global = items, local = 1;
  check("clEnqueueNDRangeKernel",
        clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
}

void raw_kernels::triad(cl_command_queue q, cl_mem d, cl_mem b, cl_mem c, float s, std::size_t n) {
  if (n == 0) return;
  const raw_shape sh = raw_shape_for(compute_units_, n, 4);
  set_arg(triad_, 0, d);
  set_arg(triad_, 1, b);
  set_arg(triad_, 2, c);
  set_arg(triad_, 3, s);
  set_arg(triad_, 4, cl_ulong(n));
  set_arg(triad_, 5, cl_ulong(sh.chunk));
  run(q, triad_, sh.items);
  check("clFinish", clFinish(q));
}

double raw_kernels::sum(cl_command_queue q, cl_mem a, std::size_t n) {
  if (n == 0) return 0;
  const raw_shape sh = raw_shape_for(compute_units_, n, 4);
  set_arg(sum_, 0, a);
  set_arg(sum_, 1, partial_);
  set_arg(sum_, 2, cl_ulong(n));
  set_arg(sum_, 3, cl_ulong(sh.chunk));
  run(q, sum_, sh.items);
  return read_partials(q, sh.items);
}

double raw_kernels::dot(cl_command_queue q, cl_mem a, cl_mem b, std::size_t n) {
  if (n == 0) return 0;
  const raw_shape sh = raw_shape_for(compute_units_, n, 8);
  set_arg(dot_, 0, a);
  set_arg(dot_, 1, b);
  set_arg(dot_, 2, partial_);
  set_arg(dot_, 3, cl_ulong(n));
  set_arg(dot_, 4, cl_ulong(sh.chunk));
  run(q, dot_, sh.items);
  return read_partials(q, sh.items);
}

void raw_kernels::inclusive_scan(cl_command_queue q, cl_mem in, cl_mem out, std::size_t n) {
  if (n == 0) return;
  const raw_shape sh = raw_shape_for(compute_units_, n, 4);
  set_arg(scan_sums_, 0, in);
  set_arg(scan_sums_, 1, partial_);
  set_arg(scan_sums_, 2, cl_ulong(n));
  set_arg(scan_sums_, 3, cl_ulong(sh.chunk));
  run(q, scan_sums_, sh.items);
  set_arg(scan_, 0, in);
  set_arg(scan_, 1, out);
  set_arg(scan_, 2, partial_);
  set_arg(scan_, 3, cl_ulong(n));
  set_arg(scan_, 4, cl_ulong(sh.chunk));
  run(q, scan_, sh.items);
  check("clFinish", clFinish(q));
}

void raw_kernels::uniform(cl_command_queue q, cl_mem out, std::size_t n, std::uint64_t seed) {
  if (n == 0) return;
  const raw_shape sh = raw_shape_for(compute_units_, n, 4, 32);
  set_arg(uniform_, 0, out);
  set_arg(uniform_, 1, cl_ulong(n));
  set_arg(uniform_, 2, cl_ulong(sh.chunk));
  set_arg(uniform_, 3, cl_uint(seed));
  set_arg(uniform_, 4, cl_uint(seed >> 32));
  run(q, uniform_, sh.items);
  check("clFinish", clFinish(q));
}

void raw_kernels::spmv(cl_command_queue q, cl_mem row_ptr, cl_mem col_idx, cl_mem values, cl_mem x,
                       cl_mem y, std::size_t rows) {
  if (rows == 0) return;
  const raw_shape sh = raw_shape_for(compute_units_, rows, 64);
  set_arg(spmv_, 0, row_ptr);
  set_arg(spmv_, 1, col_idx);
  set_arg(spmv_, 2, values);
  set_arg(spmv_, 3, x);
  set_arg(spmv_, 4, y);
  set_arg(spmv_, 5, cl_ulong(rows));
  set_arg(spmv_, 6, cl_ulong(sh.chunk));
  run(q, spmv_, sh.items);
  check("clFinish", clFinish(q));
}

}  // namespace anycl::bench
