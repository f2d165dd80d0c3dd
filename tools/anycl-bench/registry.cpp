// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the registry's list of families, and the first-result entry (child processes).
#include "registry.hpp"

#include <string>
#include <utility>
#include <vector>

#include "first_result.hpp"
#include "report.hpp"

namespace anycl::bench {

const char* unit_name(unit_kind u) {
  switch (u) {
    case unit_kind::microseconds_per_item:
      return "us";
    case unit_kind::gigabytes_per_second:
      return "GB/s";
    case unit_kind::milliseconds:
      return "ms";
    case unit_kind::megakeys_per_second:
      return "Mkeys/s";
    case unit_kind::gigaflops_per_second:
      return "GFLOP/s";
  }
  return "?";
}

bool higher_is_better(unit_kind u) {
  return u == unit_kind::gigabytes_per_second || u == unit_kind::megakeys_per_second ||
         u == unit_kind::gigaflops_per_second;
}

std::string benchmark::comparison_name(std::size_t i) const {
  const reference& r = references.at(i);
  if (!r.comparison.empty()) return r.comparison;
  return i == 0 ? name : name + "_vs_" + r.name;
}

std::string size_label(std::size_t bytes) {
  if (bytes != 0 && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes != 0 && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes) + "B";
}

// --- first result of a fresh process ---

void add_first_result_benchmark(std::vector<benchmark>& out, const settings& s) {
  benchmark b;
  b.name = b.family = b.group = "first_result";
  b.unit = unit_kind::milliseconds;
  b.what =
      "time to first result of a fresh process: load anycl/demo.cl, launch saxpy, read back "
      "(child processes: cold, AnyCL cache warm, POCL cache warm)";
  b.check = "every child compares the saxpy result with the host, element by element";
  if (s.first_result_runs == 0) b.off = "needs --first-result, --first-result-runs N or --quick";
  // The comparisons keep the names the tool has always printed; measure_first_result returns
  // them in this order.
  b.references = {
      {"raw", "raw C API from source, both caches empty", "first result, cold"},
      {"raw binary", "raw C API loading a binary it saved after its first launch",
       "first result, anycl cache warm"},
      {"raw", "raw C API from source on a warm POCL cache", "first result, pocl cache warm"},
      {"raw pocl cache", "raw C API from source on POCL's warm cache, against AnyCL's warm cache",
       "first result, anycl cache warm vs pocl cache warm"}};
  const std::size_t runs = s.first_result_runs;
  const std::string name = b.name;
  b.measure = [runs, name](const session& ses, bool corrupt) {
    std::vector<comparison> cs;
    for (const first_result_comparison& f : measure_first_result(ses.device, runs, corrupt)) {
      comparison c;
      c.name = f.name;
      c.benchmark = name;
      c.reference = f.reference;
      c.unit = unit_kind::milliseconds;
      c.anycl = f.anycl_ms;
      c.reference_value = f.reference_ms;
      if (f.show_speedup) {
        c.speedup = f.speedup();
        c.json_extra.emplace_back("speedup", fixed(f.speedup(), 4));
      }
      c.json_extra.emplace_back("runs", std::to_string(f.runs));
      c.json_extra.emplace_back("anycl_setup", fixed(f.anycl_setup_ms, 4));
      c.json_extra.emplace_back("reference_setup", fixed(f.reference_setup_ms, 4));
      cs.push_back(std::move(c));
    }
    return cs;
  };
  out.push_back(std::move(b));
}

// --- the registry: one line per family ---

std::vector<benchmark> make_registry(const settings& s) {
  std::vector<benchmark> out;
  add_launch_benchmarks(out, s);
  add_command_buffer_benchmarks(out, s);
  add_transfer_benchmarks(out, s);
  add_host_memory_benchmarks(out, s);
  add_array_benchmarks(out, s);
  add_pool_benchmarks(out, s);
  add_view_benchmarks(out, s);
  add_blas_benchmarks(out, s);
  add_fft_benchmarks(out, s);
  add_first_result_benchmark(out, s);
  return out;
}

}  // namespace anycl::bench
