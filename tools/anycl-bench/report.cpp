// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the contract lines, CSV and JSON forms of a run's comparisons.
#include "report.hpp"

#include <cstdio>
#include <ostream>
#include <string>

#include "anycl/version.hpp"
#include "cli.hpp"

namespace anycl::bench {

std::size_t report::failed() const {
  std::size_t n = 0;
  for (const benchmark_status& b : benchmarks) n += b.failed ? 1 : 0;
  return n;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string one_line(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') continue;
    if (s[i] != '\n') {
      out += s[i];
    } else if (i + 1 < s.size()) {
      out += " / ";
    }
  }
  return out;
}

// --- contract lines ---

namespace {
std::string figures(const comparison& c, double a, double r, double ratio) {
  const std::string u = unit_name(c.unit);
  std::string s = c.name + ": anycl " + fixed(a, 2) + " " + u + ", " + c.reference + " " +
                  fixed(r, 2) + " " + u + ", ratio " + fixed(ratio, 3);
  if (c.speedup) s += ", speedup " + fixed(*c.speedup, 2);
  return s;
}
}  // namespace

std::string contract_line(const comparison& c) {
  if (c.failed) return c.name + ": FAILED: " + one_line(c.error);
  return figures(c, c.anycl, c.reference_value, c.ratio());
}

std::string cpu_line(const comparison& c) {
  if (c.failed || !c.anycl_cpu || !c.reference_cpu) return contract_line(c);
  return figures(c, *c.anycl_cpu, *c.reference_cpu, *c.anycl_cpu / *c.reference_cpu);
}

void write_text(std::ostream& out, const report& r) {
  for (const comparison& c : r.comparisons) out << contract_line(c) << "\n";
}

// --- CSV ---

namespace {
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}
}  // namespace

void write_csv(std::ostream& out, const report& r) {
  out << "name,benchmark,unit,anycl,reference,reference_value,ratio,higher_is_better,status,"
         "error\n";
  for (const comparison& c : r.comparisons) {
    out << csv_field(c.name) << "," << csv_field(c.benchmark) << "," << unit_name(c.unit) << ",";
    out << (c.failed ? "" : fixed(c.anycl, 4)) << "," << csv_field(c.reference) << ","
        << (c.failed ? "" : fixed(c.reference_value, 4)) << ","
        << (c.failed ? "" : fixed(c.ratio(), 4)) << ","
        << (higher_is_better(c.unit) ? "true" : "false") << "," << (c.failed ? "FAILED" : "ok")
        << "," << csv_field(one_line(c.error)) << "\n";
  }
}

// --- JSON ---

namespace {
using anycl::tools::json_string;

/// The run's settings: the fields of the JSON document before "failed".
void run_info_json(std::ostream& out, const run_info& info) {
  out << "\n  \"anycl_version\": " << json_string(anycl::version())
      << ",\n  \"device\": " << json_string(info.device)
      << ",\n  \"mode\": " << json_string(info.mode) << ",\n  \"launches\": " << info.launches
      << ",\n  \"repetitions\": " << info.repetitions
      << ",\n  \"first_result_runs\": " << info.first_result_runs
      << ",\n  \"statistic\": \"median\",\n  \"quick\": " << (info.quick ? "true" : "false")
      << ",\n  \"filter\": " << (info.filter.empty() ? "null" : json_string(info.filter))
      << ",\n  \"transfer_sizes\": [";
  for (std::size_t i = 0; i < info.transfer_sizes.size(); ++i)
    out << (i ? ", " : "") << info.transfer_sizes[i];
  out << "]";
}

/// One comparison as a one-line object; a failed one has null figures and its error.
void comparison_json(std::ostream& out, const comparison& c) {
  out << "{\"name\": " << json_string(c.name) << ", \"unit\": " << json_string(unit_name(c.unit))
      << ", \"anycl\": " << (c.failed ? "null" : fixed(c.anycl, 4))
      << ", \"reference\": " << json_string(c.reference)
      << ", \"reference_value\": " << (c.failed ? "null" : fixed(c.reference_value, 4))
      << ", \"ratio\": " << (c.failed ? "null" : fixed(c.ratio(), 4));
  if (!c.failed && c.anycl_cpu && c.reference_cpu)
    out << ", \"anycl_cpu\": " << fixed(*c.anycl_cpu, 4)
        << ", \"reference_cpu\": " << fixed(*c.reference_cpu, 4)
        << ", \"cpu_ratio\": " << fixed(*c.anycl_cpu / *c.reference_cpu, 4);
  if (!c.failed)
    for (const auto& [key, value] : c.json_extra) out << ", " << json_string(key) << ": " << value;
  out << ", \"higher_is_better\": " << (higher_is_better(c.unit) ? "true" : "false")
      << ", \"benchmark\": " << json_string(c.benchmark)
      << ", \"status\": " << (c.failed ? "\"FAILED\"" : "\"ok\"");
  if (c.failed) out << ", \"error\": " << json_string(c.error);
  out << "}";
}

/// One benchmark's description and status as a one-line object.
void benchmark_json(std::ostream& out, const benchmark_status& b) {
  out << "{\"name\": " << json_string(b.name) << ", \"group\": " << json_string(b.group)
      << ", \"unit\": " << json_string(unit_name(b.unit))
      << ", \"measures\": " << json_string(b.what) << ", \"check\": " << json_string(b.check)
      << ", \"references\": [";
  for (std::size_t k = 0; k < b.references.size(); ++k)
    out << (k ? ", " : "") << "{\"name\": " << json_string(b.references[k].name)
        << ", \"description\": " << json_string(b.references[k].description) << "}";
  out << "], \"status\": " << (b.failed ? "\"FAILED\"" : "\"ok\"");
  if (b.failed) out << ", \"error\": " << json_string(b.error);
  out << "}";
}
}  // namespace

void write_json(std::ostream& out, const report& r) {
  out << "{";
  run_info_json(out, r.info);
  out << ",\n  \"failed\": " << r.failed() << ",\n  \"comparisons\": [";
  std::size_t i = 0;
  for (const comparison& c : r.comparisons) {
    out << (i++ ? ",\n" : "\n") << "    ";
    comparison_json(out, c);
  }
  out << "\n  ],\n  \"benchmarks\": [";
  i = 0;
  for (const benchmark_status& b : r.benchmarks) {
    out << (i++ ? ",\n" : "\n") << "    ";
    benchmark_json(out, b);
  }
  out << "\n  ]\n}\n";
}

}  // namespace anycl::bench
