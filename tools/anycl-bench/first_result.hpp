// SPDX-License-Identifier: Apache-2.0
// anycl-bench: time to first result of a fresh process (cold, AnyCL cache warm, POCL cache warm),
// measured in child processes that anycl-bench starts from its own executable.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"

namespace anycl::bench {

/// The hidden option that turns anycl-bench into a measuring child:
/// `anycl-bench --first-result-child MODE WORKDIR PLATFORM_INDEX DEVICE_INDEX`.
constexpr const char* first_result_child_flag = "--first-result-child";

/// One first-result comparison: medians over the runs, in milliseconds.
struct first_result_comparison {
  std::string name;                                   ///< e.g. "first result, anycl cache warm"
  std::string reference;                              ///< e.g. "raw binary"
  double anycl_ms = 0, reference_ms = 0;              ///< time to first result (the contract)
  double anycl_setup_ms = 0, reference_setup_ms = 0;  ///< platform, context and queue (excluded)
  std::size_t runs = 0;
  bool show_speedup = false;  ///< also print reference / anycl as "speedup"
  double ratio() const { return anycl_ms / reference_ms; }
  double speedup() const { return reference_ms / anycl_ms; }
};

/// Runs every first-result mode `runs` times in fresh child processes on `dev` (progress and
/// per-phase medians on stderr) and returns the comparisons. Throws std::runtime_error when a
/// child fails (a wrong result, or a cache that was not as cold or warm as it must be). With
/// `corrupt`, the AnyCL children alter their result before checking it (ANYCL_BENCH_FAIL).
std::vector<first_result_comparison> measure_first_result(const anycl::device& dev,
                                                          std::size_t runs, bool corrupt = false);

/// The child's main: `argv[1]` is first_result_child_flag. Prints one line
/// `first-result mode=M setup_ms=S total_ms=T ...` on stdout; returns the exit code.
int first_result_child(int argc, char** argv);

}  // namespace anycl::bench
