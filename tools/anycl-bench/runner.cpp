// SPDX-License-Identifier: Apache-2.0
// anycl-bench: checking, timing (Google Benchmark, interleaved rounds) and gathering results.
#include "runner.hpp"

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace anycl::bench {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/// A selected benchmark as the run goes: its paths, or why it failed.
struct entry {
  const benchmark* b = nullptr;
  std::vector<path> paths;
  bool failed = false;
  std::string error;
  std::vector<comparison> measured;  // self-measuring benchmarks
  void fail(std::string why) {
    if (failed) return;  // the first failure is the one that matters
    failed = true;
    error = std::move(why);
  }
};

/// Where a Google Benchmark run belongs: the entry and the path's name.
struct run_key {
  std::size_t entry;
  std::string impl;
};

// --- Google Benchmark glue ---

/// Google Benchmark's console table (on stderr: it is the progress), plus the seconds per
/// iteration of every finished run, and the errors of the runs that failed.
class capture_reporter : public ::benchmark::ConsoleReporter {
 public:
  explicit capture_reporter(const std::map<std::string, run_key>* keys)
      : ::benchmark::ConsoleReporter(isatty(STDERR_FILENO) ? OO_ColorTabular : OO_Tabular),
        keys_(keys) {
    SetOutputStream(&std::cerr);
    SetErrorStream(&std::cerr);
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;  // aggregates of --benchmark_repetitions
      auto it = keys_->find(r.run_name.function_name);
      if (it == keys_->end()) continue;
      const std::string k = key(it->second.entry, it->second.impl);
      if (r.error_occurred) {
        errors_.emplace(it->second.entry, it->second.impl + ": " + r.error_message);
        continue;
      }
      if (r.iterations <= 0) continue;
      wall_[k].push_back(r.real_accumulated_time / static_cast<double>(r.iterations));
      cpu_[k].push_back(r.cpu_accumulated_time / static_cast<double>(r.iterations));
    }
    ConsoleReporter::ReportRuns(runs);
  }

  static std::string key(std::size_t entry, const std::string& impl) {
    return std::to_string(entry) + "/" + impl;
  }
  /// The first error of each entry.
  const std::map<std::size_t, std::string>& errors() const { return errors_; }
  /// Median wall-clock seconds per iteration, or nothing if the path never ran.
  std::optional<double> wall(std::size_t e, const std::string& impl) const {
    return median_of(wall_, key(e, impl));
  }
  /// The same for the timing thread's CPU time.
  std::optional<double> cpu(std::size_t e, const std::string& impl) const {
    return median_of(cpu_, key(e, impl));
  }

 private:
  const std::map<std::string, run_key>* keys_;  // Google Benchmark name -> where it belongs
  std::map<std::string, std::vector<double>> wall_, cpu_;
  std::map<std::size_t, std::string> errors_;

  static std::optional<double> median_of(const std::map<std::string, std::vector<double>>& m,
                                         const std::string& k) {
    auto it = m.find(k);
    if (it == m.end() || it->second.empty()) return std::nullopt;
    return median(it->second);
  }
};

/// Runs one path's iterations: `before` and `after` untimed around each timed `iteration`.
void run_iterations(::benchmark::State& state, const path& p, const benchmark& b) {
  try {
    for (auto _ : state) {
      if (p.before) {
        state.PauseTiming();
        p.before();
        state.ResumeTiming();
      }
      p.iteration();
      if (p.after) {
        state.PauseTiming();
        p.after();
        state.ResumeTiming();
      }
    }
  } catch (const std::exception& e) {
    if (p.abandon) p.abandon();
    state.SkipWithError(e.what());
  }
  // The table on stderr shows time per launch (e.g. "4.5us"), bytes or keys per second.
  if (b.unit == unit_kind::gigabytes_per_second)
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(b.items_per_iteration));
  else if (b.unit == unit_kind::megakeys_per_second || b.unit == unit_kind::gigaflops_per_second)
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                            static_cast<std::int64_t>(b.items_per_iteration));
  else
    state.counters["per_item"] = ::benchmark::Counter(
        b.items_per_iteration,
        ::benchmark::Counter::kIsIterationInvariantRate | ::benchmark::Counter::kInvert);
}

/// A figure in the benchmark's unit from seconds per iteration.
double figure(const benchmark& b, double seconds) {
  if (b.unit == unit_kind::gigabytes_per_second) return b.items_per_iteration / seconds / 1e9;
  if (b.unit == unit_kind::megakeys_per_second) return b.items_per_iteration / seconds / 1e6;
  if (b.unit == unit_kind::gigaflops_per_second) return b.items_per_iteration / seconds / 1e9;
  if (b.unit == unit_kind::milliseconds) return seconds / b.items_per_iteration * 1e3;
  return seconds / b.items_per_iteration * 1e6;
}

bool named_in(const std::vector<std::string>& names, const benchmark& b) {
  return std::find(names.begin(), names.end(), b.name) != names.end() ||
         std::find(names.begin(), names.end(), b.family) != names.end();
}

// --- the phases ---

/// Builds every timed benchmark's paths and checks each of them once; a failure fails the
/// benchmark, which is then never timed.
void prepare_and_check(const session& s, std::vector<entry>& entries, const run_options& o) {
  std::size_t n = 0, i = 0;
  for (const entry& e : entries) n += e.b->prepare ? 1 : 0;
  for (entry& e : entries) {
    if (!e.b->prepare) continue;
    std::cerr << "anycl-bench: [" << ++i << "/" << n << "] checking " << e.b->name << ": ";
    std::cerr.flush();
    try {
      e.paths = e.b->prepare(s);
    } catch (const std::exception& ex) {
      e.fail(std::string("setup: ") + ex.what());
    }
    const bool corrupt = named_in(o.corrupt, *e.b);
    for (const path& p : e.paths) {
      if (e.failed) break;
      try {
        p.check(corrupt && p.impl == "anycl");
      } catch (const check_failed& ex) {
        e.fail(ex.what());
      } catch (const std::exception& ex) {
        e.fail(p.impl + ": " + ex.what());
      }
    }
    if (e.failed && corrupt) e.error += " (forced by ANYCL_BENCH_FAIL)";
    if (e.failed) e.paths.clear();  // releases the buffers; a failed benchmark is not timed
    std::cerr << (e.failed ? "FAILED: " + one_line(e.error) : "ok") << "\n";
  }
}

/// Times every path of the entries that passed, each repetition running each path once, the
/// order rotating between rounds so drift and noise hit every path alike.
void time_paths(std::vector<entry>& entries, const run_options& o,
                std::map<std::string, run_key>& keys, capture_reporter& reporter) {
  std::size_t paths = 0, benchmarks = 0;
  for (const entry& e : entries) {
    paths += e.paths.size();
    benchmarks += e.paths.empty() ? 0 : 1;
  }
  if (paths == 0) return;
  std::cerr << "anycl-bench: timing " << paths << " paths of " << benchmarks << " benchmarks, "
            << o.repetitions << " interleaved round(s)"
            << (o.min_time ? ", at least " + fixed(*o.min_time, 2) + " s each" : std::string())
            << "; Google Benchmark's table follows\n";
  for (std::size_t round = 0; round < o.repetitions; ++round) {
    for (std::size_t ei = 0; ei < entries.size(); ++ei) {
      const entry& e = entries[ei];
      for (std::size_t j = 0; j < e.paths.size(); ++j) {
        const path& p = e.paths[(j + round) % e.paths.size()];
        const std::string name = e.b->name + "/" + p.impl + "/round:" + std::to_string(round);
        keys[name] = {ei, p.impl};
        const benchmark* b = e.b;
        auto* registered = ::benchmark::RegisterBenchmark(
            name.c_str(), [&p, b](::benchmark::State& state) { run_iterations(state, p, *b); });
        registered->UseRealTime()->Unit(::benchmark::kMillisecond);
        if (o.min_time) registered->MinTime(*o.min_time);
      }
    }
  }
  ::benchmark::RunSpecifiedBenchmarks(&reporter);
  ::benchmark::ClearRegisteredBenchmarks();
  for (const auto& [ei, why] : reporter.errors()) entries[ei].fail("timing: " + why);
}

void measure_self(const session& s, std::vector<entry>& entries, const run_options& o) {
  for (entry& e : entries) {
    if (!e.b->measure) continue;
    const bool corrupt = named_in(o.corrupt, *e.b);
    try {
      e.measured = e.b->measure(s, corrupt);
      if (e.measured.size() != e.b->references.size())
        throw std::logic_error(std::to_string(e.measured.size()) + " comparisons, expected " +
                               std::to_string(e.b->references.size()));
    } catch (const std::exception& ex) {
      e.fail(ex.what() + std::string(corrupt ? " (forced by ANYCL_BENCH_FAIL)" : ""));
    }
  }
}

/// Comparison `ri` of entry `ei`: failed, measured by the benchmark itself, or from Google
/// Benchmark's timings; none if --benchmark_filter left its runs out.
std::optional<comparison> make_comparison(const std::vector<entry>& entries, std::size_t ei,
                                          std::size_t ri, const capture_reporter& reporter) {
  const entry& e = entries[ei];
  const benchmark& b = *e.b;
  comparison c;
  c.name = b.comparison_name(ri);
  c.benchmark = b.name;
  c.reference = b.references[ri].name;
  c.unit = b.unit;
  if (e.failed) {
    c.failed = true;
    c.error = e.error;
  } else if (b.measure) {
    c = e.measured[ri];
    c.benchmark = b.name;
  } else {
    const auto a = reporter.wall(ei, "anycl");
    const auto ref = reporter.wall(ei, c.reference);
    if (!a || !ref) return std::nullopt;
    c.anycl = figure(b, *a);
    c.reference_value = figure(b, *ref);
    if (b.unit == unit_kind::microseconds_per_item) {
      c.anycl_cpu = figure(b, *reporter.cpu(ei, "anycl"));
      c.reference_cpu = figure(b, *reporter.cpu(ei, c.reference));
    }
  }
  return c;
}

/// Output order: group by group (in registry order); in a group, every benchmark's first
/// comparison, then every second one, and so on.
std::vector<comparison> comparisons_in_order(const std::vector<entry>& entries,
                                             const capture_reporter& reporter) {
  std::vector<std::string> groups;
  for (const entry& e : entries)
    if (std::find(groups.begin(), groups.end(), e.b->group) == groups.end())
      groups.push_back(e.b->group);
  std::vector<comparison> out;
  for (const std::string& g : groups) {
    std::size_t most = 0;
    for (const entry& e : entries)
      if (e.b->group == g) most = std::max(most, e.b->references.size());
    for (std::size_t ri = 0; ri < most; ++ri)
      for (std::size_t ei = 0; ei < entries.size(); ++ei) {
        const benchmark& b = *entries[ei].b;
        if (b.group != g || ri >= b.references.size()) continue;
        if (std::optional<comparison> c = make_comparison(entries, ei, ri, reporter))
          out.push_back(std::move(*c));
      }
  }
  return out;
}

/// The launching thread's CPU times, where there are any (diagnostics, on stderr).
void print_cpu_lines(const report& r) {
  bool any_cpu = false;
  for (const comparison& c : r.comparisons) any_cpu = any_cpu || c.anycl_cpu.has_value();
  if (any_cpu) {
    std::cerr << "\nlaunching thread's CPU time per launch (median; diagnostics only):\n";
    for (const comparison& c : r.comparisons)
      if (c.anycl_cpu) std::cerr << "  " << cpu_line(c) << "\n";
  }
}

}  // namespace

report run_benchmarks(const session& s, const std::vector<benchmark>& selected,
                      const run_options& o) {
  std::vector<entry> entries;
  for (const benchmark& b : selected) entries.push_back({&b, {}, false, {}, {}});

  prepare_and_check(s, entries, o);
  std::map<std::string, run_key> keys;
  capture_reporter reporter(&keys);
  time_paths(entries, o, keys, reporter);
  measure_self(s, entries, o);

  report r;
  for (const entry& e : entries)
    r.benchmarks.push_back({e.b->name, e.b->group, e.b->what, e.b->check, e.b->unit,
                            e.b->references, e.failed, e.error});
  r.comparisons = comparisons_in_order(entries, reporter);
  if (r.comparisons.empty())
    throw std::runtime_error("no comparison has results (did a --benchmark_filter exclude them?)");
  print_cpu_lines(r);
  std::cerr.flush();
  return r;
}

}  // namespace anycl::bench
