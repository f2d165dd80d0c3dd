// SPDX-License-Identifier: Apache-2.0
// anycl-bench: runs the selected benchmarks: checks every path, times the ones that passed with
// Google Benchmark in interleaved rounds, runs the self-measuring ones, and gathers the results.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "registry.hpp"
#include "report.hpp"

namespace anycl::bench {

struct run_options {
  std::size_t repetitions = 15;      ///< interleaved rounds; the median is reported
  std::optional<double> min_time;    ///< seconds per timed run; unset: Google Benchmark's own
  std::vector<std::string> corrupt;  ///< ANYCL_BENCH_FAIL: benchmark or family names
};

/// Runs `selected` (Google Benchmark must be initialised) and returns what the report needs
/// besides the run info. A benchmark whose check, setup or timing fails is reported FAILED; its
/// figures are not. Throws std::runtime_error only when nothing at all produced results.
report run_benchmarks(const session& s, const std::vector<benchmark>& selected,
                      const run_options& o);

}  // namespace anycl::bench
