// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the benchmark registry. A benchmark is one entry: its name, its references, how to
// build its timed paths (AnyCL's and each reference's) and the correctness check of each path.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/anycl.hpp"

namespace anycl::bench {

/// What every benchmark shares: the device, one context and one in-order queue on it.
struct session {
  anycl::device device;
  anycl::context context;
  anycl::command_queue queue;
};

/// What the command line decided about the work itself (not how often it is timed).
struct settings {
  std::size_t launches = 10000;             ///< per iteration of a launch benchmark; 0 skips them
  bool host_only = false;                   ///< launches: time only the enqueues
  std::vector<std::size_t> transfer_sizes;  ///< bytes per transfer benchmark
  std::size_t first_result_runs = 0;        ///< child processes of each kind; 0 skips first_result
  std::size_t array_elements = std::size_t{1} << 26;  ///< floats (uints) per array benchmark
  std::size_t sort_keys = std::size_t{1} << 24;       ///< uint32 keys of array_sort
  std::size_t spmv_rows = std::size_t{1} << 20;       ///< rows (and columns) of array_spmv
  std::vector<std::size_t> sgemm_sizes{1024, 2048};   ///< n of each sgemm_<n> (n x n matrices)
  std::vector<std::size_t> dgemm_sizes{1024};         ///< n of each dgemm_<n>
  std::size_t fft_points = std::size_t{1} << 20;      ///< points of fft_c2c and fft_r2c
  std::size_t fft_batch_points = 1024;                ///< points per transform of fft_batched
  std::size_t fft_batch = 1024;                       ///< transforms of fft_batched
};

/// A correctness check failed: the message says which path and what was wrong.
class check_failed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One way of doing a benchmark's work: AnyCL's ("anycl") or a reference's ("raw", "clhpp",
/// "memcpy", later "host", "clblast", "clfft"). Every function throws on failure.
struct path {
  std::string impl;
  /// Does the work once on known data and verifies the result (throws check_failed). With
  /// `corrupt`, the data is altered before it is verified (ANYCL_BENCH_FAIL), so the check fails.
  std::function<void(bool corrupt)> check;
  std::function<void()> iteration;  ///< one timed benchmark iteration
  std::function<void()> before;     ///< optional untimed work before each iteration
  std::function<void()> after;      ///< optional untimed work after each iteration
  std::function<void()> abandon;    ///< optional: cleans up after an iteration threw
};

/// How a benchmark's figures read.
enum class unit_kind {
  microseconds_per_item,  ///< "us": seconds per iteration / items per iteration; lower is better
  gigabytes_per_second,   ///< "GB/s": bytes per iteration / seconds (1 GB = 1e9 bytes); higher
  milliseconds,  ///< "ms": per iteration (timed) or measured by the benchmark itself; lower is
                 ///< better
  megakeys_per_second,  ///< "Mkeys/s": keys per iteration / seconds / 1e6; higher is better
  gigaflops_per_second  ///< "GFLOP/s": operations per iteration / seconds / 1e9; higher
};
const char* unit_name(unit_kind u);
bool higher_is_better(unit_kind u);

/// A reference AnyCL is compared with.
struct reference {
  std::string name;         ///< as printed: "raw", "clhpp", "memcpy", "raw binary", ...
  std::string description;  ///< e.g. "raw C API: clEnqueueWriteBuffer, blocking, no event"
  /// The comparison's name where it is not the usual NAME (first reference) or NAME_vs_REF.
  std::string comparison = {};
};

/// One finished (or failed) comparison: AnyCL's figure against a reference's, same work, same run.
struct comparison {
  std::string name;       ///< the contract line's name, e.g. "transfer_write_64MiB"
  std::string benchmark;  ///< the benchmark it belongs to
  std::string reference;  ///< e.g. "raw"
  unit_kind unit = unit_kind::microseconds_per_item;
  bool failed = false;
  std::string error;  ///< why it failed
  double anycl = 0, reference_value = 0;
  std::optional<double> anycl_cpu, reference_cpu;  ///< launching thread's CPU time (diagnostics)
  std::optional<double> speedup;                   ///< printed as ", speedup s" (first result)
  /// More JSON members after "ratio", already formatted: {"runs", "1"}, ...
  std::vector<std::pair<std::string, std::string>> json_extra;
  double ratio() const { return anycl / reference_value; }
};

/// One registry entry.
struct benchmark {
  std::string name;    ///< "transfer_write_64MiB": output, --filter and ANYCL_BENCH_FAIL
  std::string family;  ///< "transfer_write": also matched by ANYCL_BENCH_FAIL
  std::string group;   ///< comparisons of one group are printed together, primary ones first
  std::string what;    ///< one line: what is measured
  std::string check;   ///< one line: what the correctness check verifies
  std::string off;     ///< why these settings skip it ("--launches 0"); empty: it runs
  unit_kind unit = unit_kind::microseconds_per_item;
  /// The references. For a timed benchmark each one is a path; the first gives the comparison
  /// NAME, the others NAME_vs_REF.
  std::vector<reference> references;
  /// Timed benchmarks: launches, bytes or keys per iteration (see unit_kind).
  double items_per_iteration = 1;
  /// Timed benchmarks (Google Benchmark): builds the paths, "anycl" first, then one per reference.
  std::function<std::vector<path>(const session&)> prepare;
  /// Benchmarks that measure themselves (first result): the comparisons, in order. They check
  /// their own results and throw when one is wrong; `corrupt` makes that check fail.
  std::function<std::vector<comparison>(const session&, bool corrupt)> measure;
  /// The name of the comparison with references[i].
  std::string comparison_name(std::size_t i) const;
};

// --- the families; make_registry lists them, one call each ---

/// launch_empty, launch_one_buffer: kernel-launch overhead against the raw C API and CLHPP.
void add_launch_benchmarks(std::vector<benchmark>& out, const settings& s);
/// command_buffer_replay (us a kernel): 100 kernels replayed from a command buffer, native and
/// emulated, against the same kernels launched one by one.
void add_command_buffer_benchmarks(std::vector<benchmark>& out, const settings& s);
/// transfer_write_<size>, transfer_read_<size>: blocking transfers against the raw C API and
/// a host memcpy.
void add_transfer_benchmarks(std::vector<benchmark>& out, const settings& s);
/// host_round_trip_<size> (GB/s): host data through a kernel and back, zero-copy over host memory
/// against copies to and from device memory.
void add_host_memory_benchmarks(std::vector<benchmark>& out, const settings& s);
/// array_triad, array_scan, array_random (GB/s) and array_sort (Mkeys/s): the array layer against
/// C++/OpenMP on the host, hand-written raw OpenCL kernels and the host's copy bandwidth.
void add_array_benchmarks(std::vector<benchmark>& out, const settings& s);
/// array_small_ops (µs a statement): small arrays made and freed in a loop, the memory pool on
/// against off.
void add_pool_benchmarks(std::vector<benchmark>& out, const settings& s);
/// array_view_to_host, array_view_set (GB/s): transfers of a strided view, rectangular against
/// a kernel's dense copy.
void add_view_benchmarks(std::vector<benchmark>& out, const settings& s);
/// sgemm_<n>, dgemm_<n> (GFLOP/s): anycl::blas::gemm against a direct CLBlast call on the same
/// buffers and OpenBLAS on the host.
void add_blas_benchmarks(std::vector<benchmark>& out, const settings& s);
/// fft_c2c, fft_r2c, fft_batched (ms): anycl::fft against clFFT called directly on the same
/// buffers and FFTW3f on the host.
void add_fft_benchmarks(std::vector<benchmark>& out, const settings& s);
/// first_result: time to first result of a fresh process (child processes).
void add_first_result_benchmark(std::vector<benchmark>& out, const settings& s);

/// Every benchmark, in output order; those the settings skip say why in `off`.
std::vector<benchmark> make_registry(const settings& s);

/// "1MiB", "64MiB", "512KiB", "1000B": a size as it appears in benchmark names.
std::string size_label(std::size_t bytes);

}  // namespace anycl::bench
