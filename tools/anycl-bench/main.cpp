// SPDX-License-Identifier: Apache-2.0
// anycl-bench: kernel-launch overhead of AnyCL against the raw C API and the Khronos C++ bindings.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/anycl.hpp"
#include "cli.hpp"
#include "first_result.hpp"
#include "launch_loops.hpp"

namespace {

using anycl::bench::first_result_comparison;
using anycl::bench::kernel_kind;
using anycl::bench::launch_loop;

// --- what is measured ---

struct kernel_case {
  const char* label;  // comparison name, e.g. "launch_empty"
  kernel_kind kind;
};
constexpr kernel_case kernel_cases[] = {{"launch_empty", kernel_kind::empty},
                                        {"launch_one_buffer", kernel_kind::one_buffer}};

struct path {
  std::string impl;  // "anycl", "raw", "clhpp"
  launch_loop loop;
};

/// One output line: AnyCL's figure against a reference path's, same kernel, same run.
struct comparison {
  std::string name, reference;
  double anycl_us, reference_us;          // wall clock: what the output contract reports
  double anycl_cpu_us, reference_cpu_us;  // the launching thread's CPU time (diagnostics)
  double ratio() const { return anycl_us / reference_us; }
  double cpu_ratio() const { return anycl_cpu_us / reference_cpu_us; }
};

std::string key(const std::string& label, const std::string& impl) { return label + "/" + impl; }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

// --- Google Benchmark glue ---

/// Google Benchmark's console table (on stderr), plus the per-launch time of every finished run.
class capture_reporter : public benchmark::ConsoleReporter {
 public:
  capture_reporter(const std::map<std::string, std::string>* keys, std::size_t launches)
      : benchmark::ConsoleReporter(isatty(STDERR_FILENO) ? OO_ColorTabular : OO_Tabular),
        keys_(keys),
        launches_(launches) {
    SetOutputStream(&std::cerr);
    SetErrorStream(&std::cerr);
  }

  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;  // aggregates of --benchmark_repetitions
      if (r.error_occurred) {
        errors_.push_back(r.run_name.function_name + ": " + r.error_message);
        continue;
      }
      auto it = keys_->find(r.run_name.function_name);
      if (it == keys_->end() || r.iterations <= 0) continue;
      const double per = 1e6 / static_cast<double>(r.iterations) / static_cast<double>(launches_);
      wall_[it->second].push_back(r.real_accumulated_time * per);
      cpu_[it->second].push_back(r.cpu_accumulated_time * per);
    }
    ConsoleReporter::ReportRuns(runs);
  }

  const std::vector<std::string>& errors() const { return errors_; }
  /// Median wall-clock microseconds per launch of `k`, or a negative number if it never ran.
  double wall_us(const std::string& k) const { return median_of(wall_, k); }
  /// The same for the launching thread's CPU time.
  double cpu_us(const std::string& k) const { return median_of(cpu_, k); }

 private:
  const std::map<std::string, std::string>* keys_;  // benchmark name -> "label/impl"
  std::size_t launches_;
  std::map<std::string, std::vector<double>> wall_, cpu_;
  std::vector<std::string> errors_;

  static double median_of(const std::map<std::string, std::vector<double>>& m,
                          const std::string& k) {
    auto it = m.find(k);
    return it == m.end() || it->second.empty() ? -1.0 : median(it->second);
  }
};

/// Splits argv at "--": what comes before is ours, what comes after goes to Google Benchmark.
struct split_args {
  std::vector<char*> ours, theirs;
};
split_args split(int argc, char** argv) {
  split_args s;
  s.ours.push_back(argv[0]);
  s.theirs.push_back(argv[0]);
  bool after = false;
  for (int i = 1; i < argc; ++i) {
    if (!after && std::string(argv[i]) == "--") {
      after = true;
      continue;
    }
    (after ? s.theirs : s.ours).push_back(argv[i]);
  }
  s.ours.push_back(nullptr);
  s.theirs.push_back(nullptr);
  return s;
}

// --- output ---

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string line(const comparison& c, double a, double r, double ratio) {
  return c.name + ": anycl " + fixed(a, 2) + " us, " + c.reference + " " + fixed(r, 2) +
         " us, ratio " + fixed(ratio, 3);
}

std::string line(const first_result_comparison& c) {
  std::string s = c.name + ": anycl " + fixed(c.anycl_ms, 2) + " ms, " + c.reference + " " +
                  fixed(c.reference_ms, 2) + " ms, ratio " + fixed(c.ratio(), 3);
  if (c.show_speedup) s += ", speedup " + fixed(c.speedup(), 2);
  return s;
}

void print_text(const std::vector<comparison>& cs, const std::vector<first_result_comparison>& fr) {
  for (const auto& c : cs) std::cout << line(c, c.anycl_us, c.reference_us, c.ratio()) << "\n";
  for (const auto& c : fr) std::cout << line(c) << "\n";
}

struct run_info {
  std::string device;
  const char* mode;
  std::size_t launches, repetitions, first_result_runs;
};

void print_json(const std::vector<comparison>& cs, const std::vector<first_result_comparison>& fr,
                const run_info& info) {
  using anycl::tools::json_string;
  std::cout << "{\n  \"anycl_version\": " << json_string(anycl::version())
            << ",\n  \"device\": " << json_string(info.device)
            << ",\n  \"mode\": " << json_string(info.mode) << ",\n  \"launches\": " << info.launches
            << ",\n  \"repetitions\": " << info.repetitions
            << ",\n  \"first_result_runs\": " << info.first_result_runs
            << ",\n  \"statistic\": \"median\",\n  \"comparisons\": [";
  std::size_t i = 0;
  for (const comparison& c : cs) {
    std::cout << (i++ ? ",\n" : "\n") << "    {\"name\": " << json_string(c.name)
              << ", \"unit\": \"us\", \"anycl\": " << fixed(c.anycl_us, 4)
              << ", \"reference\": " << json_string(c.reference)
              << ", \"reference_value\": " << fixed(c.reference_us, 4)
              << ", \"ratio\": " << fixed(c.ratio(), 4)
              << ", \"anycl_cpu\": " << fixed(c.anycl_cpu_us, 4)
              << ", \"reference_cpu\": " << fixed(c.reference_cpu_us, 4)
              << ", \"cpu_ratio\": " << fixed(c.cpu_ratio(), 4) << "}";
  }
  // Time to first result of a fresh process: medians over first_result_runs child processes;
  // the setup (platform, context, queue) is not part of it and is given apart.
  for (const first_result_comparison& c : fr) {
    std::cout << (i++ ? ",\n" : "\n") << "    {\"name\": " << json_string(c.name)
              << ", \"unit\": \"ms\", \"anycl\": " << fixed(c.anycl_ms, 4)
              << ", \"reference\": " << json_string(c.reference)
              << ", \"reference_value\": " << fixed(c.reference_ms, 4)
              << ", \"ratio\": " << fixed(c.ratio(), 4);
    if (c.show_speedup) std::cout << ", \"speedup\": " << fixed(c.speedup(), 4);
    std::cout << ", \"runs\": " << c.runs << ", \"anycl_setup\": " << fixed(c.anycl_setup_ms, 4)
              << ", \"reference_setup\": " << fixed(c.reference_setup_ms, 4) << "}";
  }
  std::cout << "\n  ]\n}\n";
}

// --- the tool ---

/// Runs one path's iterations. With `gate`, the queue waits behind a user event while the launches
/// are enqueued, so only their host-side cost is timed; releasing the gate and the finish are not.
void run_iterations(benchmark::State& state, const launch_loop& loop, std::size_t launches,
                    const anycl::bench::fixture* gate) {
  std::optional<anycl::user_event> held;
  try {
    for (auto _ : state) {
      if (gate == nullptr) {
        loop.launch(launches);
        loop.finish();
        continue;
      }
      state.PauseTiming();
      held.emplace(gate->context);
      gate->queue.barrier({*held});
      state.ResumeTiming();
      loop.launch(launches);
      state.PauseTiming();
      std::exchange(held, std::nullopt)->set_complete();
      loop.finish();
      state.ResumeTiming();
    }
  } catch (const std::exception& e) {
    if (held) {  // fail the gate so the queued launches drain instead of waiting forever
      try {
        held->set_error(-1);
      } catch (const std::exception&) {
      }
    }
    state.SkipWithError(e.what());
  }
  // Shown as time per launch (e.g. "4.5us") in the table on stderr.
  state.counters["per_launch"] = benchmark::Counter(
      static_cast<double>(launches),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// The launch-overhead comparisons (Google Benchmark, interleaved rounds) on `dev`.
std::vector<comparison> measure_launches(const anycl::device& dev, std::size_t launches,
                                         std::size_t repetitions, bool host_only,
                                         const char* mode) {
  // --- setup: one context, queue, program and buffer for every path ---
  anycl::bench::fixture f;
  std::cerr << "anycl-bench: device '" << dev.name() << "', " << launches
            << " launches per iteration, " << repetitions << " interleaved repetitions, mode "
            << mode << "\n";
  f.context = anycl::context(dev);
  f.queue = anycl::command_queue(f.context, dev);
  f.program = anycl::program(f.context, anycl::bench::kernel_source, "anycl-bench.cl");
  f.program.build();
  f.buffer = anycl::buffer(f.context, f.global * sizeof(float));

  std::map<std::string, std::vector<path>> paths;  // by kernel label
  for (const auto& kc : kernel_cases) {
    auto& v = paths[kc.label];
    v.push_back({"anycl", anycl::bench::anycl_loop(f, kc.kind)});
    v.push_back({"raw", anycl::bench::raw_loop(f, kc.kind)});
    if (auto loop = anycl::bench::clhpp_loop(f, kc.kind)) v.push_back({"clhpp", std::move(loop)});
    for (auto& p : v) {  // warm-up: first-launch work (limits queries, driver setup) is not timed
      p.loop.launch(std::min<std::size_t>(launches, 1000));
      p.loop.finish();
    }
  }

  // --- registration: every repetition runs each path once, the order rotating between rounds so
  // drift and noise hit every path alike ---
  std::map<std::string, std::string> keys;
  const anycl::bench::fixture* gate = host_only ? &f : nullptr;
  for (std::size_t round = 0; round < repetitions; ++round) {
    for (const auto& kc : kernel_cases) {
      const auto& v = paths[kc.label];
      for (std::size_t j = 0; j < v.size(); ++j) {
        const path& p = v[(j + round) % v.size()];
        const std::string name =
            std::string(kc.label) + "/" + p.impl + "/round:" + std::to_string(round);
        keys[name] = key(kc.label, p.impl);
        const launch_loop* loop = &p.loop;
        benchmark::RegisterBenchmark(name.c_str(),
                                     [loop, launches, gate](benchmark::State& state) {
                                       run_iterations(state, *loop, launches, gate);
                                     })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }

  capture_reporter reporter(&keys, launches);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();
  if (!reporter.errors().empty()) throw std::runtime_error(reporter.errors().front());

  std::vector<comparison> cs;
  auto add = [&](const std::string& name, const std::string& label, const std::string& ref) {
    const std::string a = key(label, "anycl"), r = key(label, ref);
    if (reporter.wall_us(a) > 0 && reporter.wall_us(r) > 0)
      cs.push_back({name, ref, reporter.wall_us(a), reporter.wall_us(r), reporter.cpu_us(a),
                    reporter.cpu_us(r)});
  };
  for (const auto& kc : kernel_cases) add(kc.label, kc.label, "raw");
  for (const auto& kc : kernel_cases) add(std::string(kc.label) + "_vs_clhpp", kc.label, "clhpp");
  if (cs.empty())
    throw std::runtime_error("no comparison has results (did a --benchmark_filter exclude them?)");

  std::cerr << "\nlaunching thread's CPU time per launch (median; diagnostics only):\n";
  for (const auto& c : cs)
    std::cerr << "  " << line(c, c.anycl_cpu_us, c.reference_cpu_us, c.cpu_ratio()) << "\n";
  std::cerr << "wall-clock per launch (median), on stdout:\n";
  std::cerr.flush();
  return cs;
}

constexpr std::size_t default_first_result_runs = 5;

int bench(const anycl::tools::arguments& args, std::vector<char*> gb_argv) {
  using anycl::tools::usage_error;
  if (!args.positional.empty())
    throw usage_error("unexpected argument '" + args.positional.front() +
                      "' (Google Benchmark flags go after '--')");
  const std::size_t launches = args.number("launches", 10000);
  const std::size_t repetitions = args.number("repetitions", 15);
  const std::size_t first_result_runs =
      args.number("first-result-runs", args.has("first-result") ? default_first_result_runs : 0);
  if (repetitions == 0) throw usage_error("--repetitions must be at least 1");
  if (launches == 0 && first_result_runs == 0)
    throw usage_error(
        "nothing to measure: --launches 0 skips the launch comparisons; add "
        "--first-result or --first-result-runs N");
  const bool host_only = args.has("host-only");
  const char* mode = host_only ? "host-only" : "launch+finish";
  int gb_argc = static_cast<int>(gb_argv.size()) - 1;
  benchmark::Initialize(&gb_argc, gb_argv.data());
  if (gb_argc > 1)
    throw usage_error(std::string("unknown Google Benchmark flag '") + gb_argv[1] + "'");

  const anycl::device dev = anycl::tools::tool_device(args);
  std::vector<comparison> cs;
  if (launches > 0) cs = measure_launches(dev, launches, repetitions, host_only, mode);
  std::vector<first_result_comparison> fr;
  if (first_result_runs > 0) {
    fr = anycl::bench::measure_first_result(dev, first_result_runs);
    std::cerr << "time to first result of a fresh process (median ms), on stdout:\n";
    std::cerr.flush();
  }
  if (args.has("json"))
    print_json(cs, fr, {dev.name(), mode, launches, repetitions, first_result_runs});
  else
    print_text(cs, fr);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == anycl::bench::first_result_child_flag)
    return anycl::bench::first_result_child(argc, argv);
  anycl::tools::cli c(
      "anycl-bench", "[options] [-- GOOGLE_BENCHMARK_FLAGS...]",
      "Measures kernel-launch overhead: an empty kernel and a one-buffer kernel (64 work-items)\n"
      "launched through AnyCL's kernel_function, through the raw C API (clSetKernelArg +\n"
      "clEnqueueNDRangeKernel with an event that is then released) and, where <CL/opencl.hpp> was\n"
      "found, through cl::KernelFunctor, all on one context, queue and buffer. One benchmark\n"
      "iteration is --launches launches then one finish (clFinish). The paths run interleaved:\n"
      "--repetitions rounds, the order rotating each round. Each figure is the MEDIAN over the\n"
      "rounds of wall-clock microseconds per launch; ratio = AnyCL figure / reference figure.\n"
      "stdout gets one line per comparison (launch_empty, launch_one_buffer vs raw, and\n"
      "launch_empty_vs_clhpp, launch_one_buffer_vs_clhpp):\n"
      "  <name>: anycl <us> us, <reference> <us> us, ratio <r>\n"
      "or, with --json, one JSON document. Google Benchmark's table, progress and the launching\n"
      "thread's CPU time per launch go to stderr. Flags after '--' go to Google Benchmark\n"
      "(e.g. -- --benchmark_min_time=0.1).\n"
      "\n"
      "Time to first result of a fresh process, off by default (its cold runs take seconds):\n"
      "--first-result runs each kind 5 times, --first-result-runs N N times; --launches 0 skips\n"
      "the launch comparisons. anycl-bench starts itself again for every run; the child creates\n"
      "its context and queue (timed apart, not included), then times loading anycl_saxpy of\n"
      "cl_kernels/anycl/demo.cl, creating the kernel and two buffers, one launch and reading back\n"
      "the result, checked against the host. AnyCL uses kernel_loader; raw uses the C API on the\n"
      "same source text, or on a binary it saved after its first launch. Every child has its\n"
      "own POCL_CACHE_DIR. Cold: AnyCL cache empty, POCL_KERNEL_CACHE=0. AnyCL cache warm: a\n"
      "primed AnyCL cache (the child fails unless it hit), POCL_KERNEL_CACHE=0. POCL cache warm:\n"
      "ANYCL_CACHE=off, a primed POCL cache. Medians in ms, one line each on stdout:\n"
      "  first result, cold: anycl <ms> ms, raw <ms> ms, ratio <r>\n"
      "  first result, anycl cache warm: anycl <ms> ms, raw binary <ms> ms, ratio <r>\n"
      "  first result, pocl cache warm: anycl <ms> ms, raw <ms> ms, ratio <r>\n"
      "  first result, anycl cache warm vs pocl cache warm: anycl <ms> ms,\n"
      "    raw pocl cache <ms> ms, ratio <r>, speedup <s>\n"
      "(the last: AnyCL's warm cache against the raw C API on POCL's warm cache; speedup is\n"
      "raw / anycl). Progress and the medians of each phase go to stderr.");
  c.flag("json", "print the comparisons as JSON on stdout")
      .option("launches", "N",
              "launches per benchmark iteration (default 10000; 0: skip the launch tests)")
      .option("repetitions", "N", "interleaved rounds; the median is reported (default 15)")
      .flag("host-only", "time only the enqueues (queue held behind a user event, finish untimed)")
      .flag("first-result", "also measure time to first result of a fresh process (5 runs)")
      .option("first-result-runs", "N",
              "runs of each first-result kind; the median is reported (default 0: skipped, or 5 "
              "with --first-result)");
  split_args s = split(argc, argv);
  return anycl::tools::run_tool(
      c, static_cast<int>(s.ours.size()) - 1, s.ours.data(),
      [&](const anycl::tools::arguments& args) { return bench(args, s.theirs); });
}
