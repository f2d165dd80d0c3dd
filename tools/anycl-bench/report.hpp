// SPDX-License-Identifier: Apache-2.0
// anycl-bench: what a run found, and its forms: contract lines, CSV, JSON and an SVG bar chart.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "registry.hpp"

namespace anycl::bench {

/// How the run was made (JSON header, SVG title).
struct run_info {
  std::string device;
  const char* mode = "";  ///< "launch+finish" or "host-only"
  std::size_t launches = 0, repetitions = 0, first_result_runs = 0;
  bool quick = false;
  std::string filter;  ///< empty: none
  std::vector<std::size_t> transfer_sizes;
};

/// One selected benchmark and whether it passed its check (and ran).
struct benchmark_status {
  std::string name, group, what, check;
  unit_kind unit = unit_kind::microseconds_per_item;
  std::vector<reference> references;
  bool failed = false;
  std::string error;
};

struct report {
  run_info info;
  std::vector<benchmark_status> benchmarks;
  std::vector<comparison> comparisons;  ///< in output order
  std::size_t failed() const;           ///< benchmarks that failed
};

/// `v` with `decimals` digits after the point ("%.*f").
std::string fixed(double v, int decimals);
/// `s` on one line: line breaks become " / " (contract lines and CSV rows are one line each).
std::string one_line(const std::string& s);

/// `NAME: anycl X UNIT, REF Y UNIT, ratio r[, speedup s]`, or `NAME: FAILED: why`.
std::string contract_line(const comparison& c);
/// The same with the launching thread's CPU times (launch benchmarks; diagnostics on stderr).
std::string cpu_line(const comparison& c);

void write_text(std::ostream& out, const report& r);
/// Header `name,benchmark,unit,anycl,reference,reference_value,ratio,higher_is_better,status,
/// error`, then one row per comparison; fields quoted only where RFC 4180 needs it.
void write_csv(std::ostream& out, const report& r);
void write_json(std::ostream& out, const report& r);
/// A horizontal bar chart of the ratios: one bar (`<rect class="bar"`) per measured comparison,
/// a line at 1.0 (`class="one"`), FAILED rows without a bar.
void write_svg(std::ostream& out, const report& r);

}  // namespace anycl::bench
