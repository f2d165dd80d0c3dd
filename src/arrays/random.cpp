// SPDX-License-Identifier: Apache-2.0
// random_generator: parameter checks, then one Philox kernel per fill (cl_kernels/anycl/random.cl).
#include "anycl/random.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/random_fill.hpp"
#include "arrays/require.hpp"

namespace anycl {

namespace detail {

std::uint64_t random_blocks(scalar_type t, std::size_t n) noexcept {
  const std::uint64_t per = size_of(t) == 8 ? 2 : 4;
  return (std::uint64_t{n} + per - 1) / per;
}

std::uint64_t random_groups(scalar_type t, std::size_t n) noexcept {
  return (random_blocks(t, n) + 7) / 8;
}

namespace {

const char* kernel_name(scalar_type t, random_distribution d) {
  const bool wide = size_of(t) == 8;
  switch (d) {
    case random_distribution::bits:
      return wide ? "anycl_random_bits64" : "anycl_random_bits32";
    case random_distribution::uniform:
      return wide ? "anycl_random_uniform_f64" : "anycl_random_uniform_f32";
    case random_distribution::normal:
      return wide ? "anycl_random_normal_f64" : "anycl_random_normal_f32";
  }
  return "?";
}

// The three by-value parameters of a kernel, in its element type.
template <class T>
std::array<T, 3> kernel_params(random_distribution d, double p0, double p1) {
  if (d == random_distribution::uniform) {
    const T lo = static_cast<T>(p0), hi = static_cast<T>(p1);
    return {lo, static_cast<T>(hi - lo), std::nextafter(hi, lo)};
  }
  if (d == random_distribution::normal) return {static_cast<T>(p0), static_cast<T>(p1), T(0)};
  return {T(0), T(0), T(0)};
}

// The array set and of a type the distribution fills.
void check_fill(const array_core& a, random_distribution d) {
  require_array(a, "random_generator");
  const scalar_type t = a.type();
  const bool ok = d == random_distribution::bits ? (t == scalar_type::u32 || t == scalar_type::u64)
                                                 : (t == scalar_type::f32 || t == scalar_type::f64);
  if (!ok)
    throw std::invalid_argument(std::string("random_generator: no ") +
                                (d == random_distribution::bits ? "bits" : "floating") +
                                " fill for " + cl_type_name(t) + " elements");
}

// The kernel's three by-value parameters as bytes of the element type (zeros for bits).
std::array<unsigned char, 3 * 8> param_bytes(scalar_type t, random_distribution d, double p0,
                                             double p1) {
  std::array<unsigned char, 3 * 8> params{};
  if (t == scalar_type::f32) {
    auto v = kernel_params<float>(d, p0, p1);
    std::memcpy(params.data(), v.data(), sizeof v);
  } else if (t == scalar_type::f64) {
    auto v = kernel_params<double>(d, p0, p1);
    std::memcpy(params.data(), v.data(), sizeof v);
  }
  return params;
}

// The Philox kernel over contiguous `a`.
event enqueue_fill(const array_core& a, random_distribution d, std::uint64_t seed,
                   std::uint64_t offset, double p0, double p1, const launch_plan& plan) {
  const scalar_type t = a.type();
  const std::size_t n = a.layout().extents.size();
  const command_queue& q = a.queue();
  const device_profile prof = profile(q);
  build_options options;
  options.define(plan.cpu ? "ANYCL_CPU" : "ANYCL_GPU");
  if (prof.fp64) options.define("ANYCL_FP64");
  kernel k = library_kernel(q, "anycl/random.cl", kernel_name(t, d), options);

  const cl_ulong off = a.layout().offset, count = n, chunk = plan.chunk, ctr = offset;
  const cl_uint2 key = {{static_cast<cl_uint>(seed), static_cast<cl_uint>(seed >> 32)}};
  const std::array<unsigned char, 3 * 8> params = param_bytes(t, d, p0, p1);
  const std::size_t es = size_of(t);
  std::array<kernel_arg, 9> args{arg_traits<anycl::buffer>::make(a.buffer()),
                                 arg_traits<cl_ulong>::make(off),
                                 arg_traits<cl_ulong>::make(count),
                                 arg_traits<cl_ulong>::make(chunk),
                                 arg_traits<cl_uint2>::make(key),
                                 arg_traits<cl_ulong>::make(ctr),
                                 raw_arg(params.data(), es),
                                 raw_arg(params.data() + es, es),
                                 raw_arg(params.data() + 2 * es, es)};
  return enqueue_kernel(k, q, plan.range(), args.data(), args.size(), dependencies({&a}));
}

}  // namespace

void random_fill(const array_core& a, random_distribution d, std::uint64_t seed,
                 std::uint64_t offset, double p0, double p1, const launch_plan& plan) {
  check_fill(a, d);
  const std::size_t n = a.layout().extents.size();
  if (n == 0) return;
  const std::uint64_t groups = random_groups(a.type(), n);
  if (plan.cpu && plan.global * plan.chunk < groups)
    throw std::invalid_argument("random_fill: the plan covers " +
                                std::to_string(plan.global * plan.chunk) + " of " +
                                std::to_string(groups) + " groups of 8 blocks");
  if (!a.layout().contiguous()) {
    array_core tmp(a.queue(), a.type(), a.layout().extents);
    random_fill(tmp, d, seed, offset, p0, p1, plan);
    a.assign(tmp);
    return;
  }
  a.record(enqueue_fill(a, d, seed, offset, p0, p1, plan));
}

}  // namespace detail

namespace {

template <class T>
std::string num(T v) {
  std::ostringstream s;
  s.precision(std::numeric_limits<T>::max_digits10);
  s << v;
  return s.str();
}

template <class T>
void check_uniform(T lo, T hi) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi))
    throw std::invalid_argument("random_generator::uniform: needs finite lo < hi, got lo = " +
                                num(lo) + ", hi = " + num(hi));
  if (!std::isfinite(hi - lo))
    throw std::invalid_argument("random_generator::uniform: hi - lo overflows (lo = " + num(lo) +
                                ", hi = " + num(hi) + ")");
}

template <class T>
void check_normal(T mean, T stddev) {
  if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
    throw std::invalid_argument(
        "random_generator::normal: needs a finite mean and a finite stddev >= 0, got mean = " +
        num(mean) + ", stddev = " + num(stddev));
}

}  // namespace

void random_generator::fill(const detail::array_core& a, detail::random_distribution d, double p0,
                            double p1, const char* what) {
  if (!a.valid())
    throw std::invalid_argument(std::string("random_generator::") + what +
                                ": the array is empty (default-constructed)");
  const std::size_t n = a.layout().extents.size();
  const std::uint64_t blocks = detail::random_blocks(a.type(), n);
  if (blocks > std::numeric_limits<std::uint64_t>::max() - offset_)
    throw std::overflow_error(std::string("random_generator::") + what + ": " +
                              std::to_string(blocks) + " blocks from offset " +
                              std::to_string(offset_) + " pass the end of the stream (2^64)");
  if (n == 0) return;
  const std::uint64_t groups = detail::random_groups(a.type(), n);
  detail::random_fill(a, d, seed_, offset_, p0, p1, detail::plan_launch(a.queue(), groups, 128));
  offset_ += blocks;
}

void random_generator::bits(const array<std::uint32_t>& a) {
  fill(a.core(), detail::random_distribution::bits, 0, 0, "bits");
}
void random_generator::bits(const array<std::uint64_t>& a) {
  fill(a.core(), detail::random_distribution::bits, 0, 0, "bits");
}
void random_generator::uniform(const array<float>& a) {
  fill(a.core(), detail::random_distribution::uniform, 0, 1, "uniform");
}
void random_generator::uniform(const array<double>& a) {
  fill(a.core(), detail::random_distribution::uniform, 0, 1, "uniform");
}
void random_generator::uniform(const array<float>& a, float lo, float hi) {
  check_uniform(lo, hi);
  fill(a.core(), detail::random_distribution::uniform, lo, hi, "uniform");
}
void random_generator::uniform(const array<double>& a, double lo, double hi) {
  check_uniform(lo, hi);
  fill(a.core(), detail::random_distribution::uniform, lo, hi, "uniform");
}
void random_generator::normal(const array<float>& a, float mean, float stddev) {
  check_normal(mean, stddev);
  fill(a.core(), detail::random_distribution::normal, mean, stddev, "normal");
}
void random_generator::normal(const array<double>& a, double mean, double stddev) {
  check_normal(mean, stddev);
  fill(a.core(), detail::random_distribution::normal, mean, stddev, "normal");
}

}  // namespace anycl
