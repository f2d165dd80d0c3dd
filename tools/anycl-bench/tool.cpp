// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the command line and the tool's body: settings, selection, output files, run,
// report.
#include "tool.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/anycl.hpp"
#include "registry.hpp"
#include "report.hpp"
#include "runner.hpp"

namespace anycl::bench {
namespace {

using anycl::tools::usage_error;

// --- what --quick and the defaults mean ---

constexpr std::size_t default_launches = 10000;
constexpr std::size_t default_repetitions = 15;
constexpr std::size_t default_first_result_runs = 5;  // with --first-result
constexpr std::size_t quick_repetitions = 5;
constexpr double quick_min_time_s = 0.05;  // per timed run (Google Benchmark's default: 0.5)
constexpr std::size_t quick_first_result_runs = 1;
// The array benchmarks: 2^26 elements (256 MiB an array of floats, well past the last-level
// cache) and 2^24 sort keys; --quick shrinks them 16-fold so CI stays short.
constexpr std::size_t quick_array_elements = std::size_t{1} << 22;
constexpr std::size_t quick_sort_keys = std::size_t{1} << 20;
constexpr std::size_t quick_spmv_rows = std::size_t{1} << 16;
// gemm: 1024 and 2048 (sgemm), 1024 (dgemm); --quick uses 128 (CLBlast's kernels still compile).
constexpr std::size_t quick_gemm_size = 128;
// The FFTs: 2^20 points and 1024 x 1024 batched; --quick: 2^12 points and 64 x 256.
constexpr std::size_t quick_fft_points = std::size_t{1} << 12;
constexpr std::size_t quick_fft_batch_points = 256;
constexpr std::size_t quick_fft_batch = 64;
// 1 MiB sits in a CPU's caches and shows per-call costs; 64 MiB is twice the 32 MiB last-level
// cache of the CI machine (and beyond most GPUs' caches), so it shows memory bandwidth.
const std::vector<std::size_t> transfer_sizes = {std::size_t{1} << 20, std::size_t{64} << 20};

/// An output file, opened (and so checked) before anything is measured.
struct output_file {
  const char* flag;
  std::string path;
  std::ofstream stream;
};

std::unique_ptr<output_file> open_output(const anycl::tools::arguments& args, const char* flag) {
  if (!args.has(flag)) return nullptr;
  auto f = std::make_unique<output_file>();
  f->flag = flag;
  f->path = args.value(flag);
  if (f->path.empty()) throw usage_error(std::string("--") + flag + " needs a file name");
  errno = 0;
  f->stream.open(f->path, std::ios::out | std::ios::trunc);
  if (!f->stream)
    throw std::runtime_error(std::string("cannot write --") + flag + " file '" + f->path +
                             "': " + (errno != 0 ? std::strerror(errno) : "open failed"));
  return f;
}

void finish_output(output_file& f, void (*write)(std::ostream&, const report&), const report& r) {
  write(f.stream, r);
  f.stream.close();
  if (!f.stream)
    throw std::runtime_error(std::string("writing --") + f.flag + " file '" + f.path + "' failed");
  std::cerr << "anycl-bench: wrote " << f.path << "\n";
}

/// ANYCL_BENCH_FAIL: comma-separated benchmark or family names whose AnyCL check is corrupted.
std::vector<std::string> forced_failures(const std::vector<benchmark>& registry) {
  std::vector<std::string> names;
  const char* env = std::getenv("ANYCL_BENCH_FAIL");
  if (env == nullptr) return names;
  const std::string all = env;
  for (std::size_t start = 0; start <= all.size();) {
    const std::size_t comma = std::min(all.find(',', start), all.size());
    if (comma > start) names.push_back(all.substr(start, comma - start));
    start = comma + 1;
  }
  for (const std::string& n : names) {
    bool known = false;
    for (const benchmark& b : registry) known = known || b.name == n || b.family == n;
    if (!known) std::cerr << "anycl-bench: ANYCL_BENCH_FAIL names no benchmark: '" << n << "'\n";
  }
  return names;
}

void print_list(const std::vector<const benchmark*>& shown) {
  for (const benchmark* b : shown) {
    std::cout << b->name << ": " << unit_name(b->unit)
              << (higher_is_better(b->unit) ? ", higher is better" : ", lower is better");
    if (!b->off.empty()) std::cout << " (off: " << b->off << ")";
    std::cout << "\n  measures: " << b->what << "\n  check:    " << b->check << "\n";
    for (std::size_t i = 0; i < b->references.size(); ++i)
      std::cout << "  " << b->comparison_name(i) << " -> " << b->references[i].name << ": "
                << b->references[i].description << "\n";
  }
}

std::string names_of(const std::vector<benchmark>& registry) {
  std::string s;
  for (const benchmark& b : registry) s += (s.empty() ? "" : ", ") + b.name;
  return s;
}

/// The settings the flags ask for (--quick shrinks the data; explicit options win).
settings settings_from(const anycl::tools::arguments& args, bool quick) {
  settings s;
  s.launches = args.number("launches", default_launches);
  s.host_only = args.has("host-only");
  s.transfer_sizes = transfer_sizes;
  if (quick) {
    s.array_elements = quick_array_elements;
    s.sort_keys = quick_sort_keys;
    s.spmv_rows = quick_spmv_rows;
    s.sgemm_sizes = {quick_gemm_size};
    s.dgemm_sizes = {quick_gemm_size};
    s.fft_points = quick_fft_points;
    s.fft_batch_points = quick_fft_batch_points;
    s.fft_batch = quick_fft_batch;
  }
  s.first_result_runs =
      args.number("first-result-runs", args.has("first-result") ? default_first_result_runs
                                       : quick                  ? quick_first_result_runs
                                                                : 0);
  return s;
}

/// --filter REGEX, compiled; none without the flag.
std::optional<std::regex> filter_from(const anycl::tools::arguments& args) {
  std::optional<std::regex> filter;
  const std::string filter_text = args.value("filter");
  if (args.has("filter")) {
    try {
      filter.emplace(filter_text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw usage_error("--filter: bad regular expression '" + filter_text + "': " + e.what());
    }
  }
  return filter;
}

/// The matching benchmarks these options do not turn off; a usage error if there are none.
std::vector<benchmark> select_benchmarks(const std::vector<benchmark>& registry,
                                         const std::vector<const benchmark*>& matching,
                                         bool filtered, const std::string& filter_text) {
  std::vector<benchmark> selected;
  for (const benchmark* b : matching)
    if (b->off.empty()) selected.push_back(*b);
  if (!selected.empty()) return selected;
  std::string why = "nothing to measure: ";
  if (filtered && matching.empty())
    why += "--filter '" + filter_text + "' matches no benchmark";
  else
    why += (filtered ? "--filter '" + filter_text + "' selects " : std::string("it selects ")) +
           "only benchmarks these options turn off (--launches 0 skips the launch "
           "benchmarks; first_result needs --first-result, --first-result-runs N or --quick)";
  throw usage_error(why + "; benchmarks: " + names_of(registry));
}

/// Hands the flags after '--' to Google Benchmark; true if they set --benchmark_min_time.
bool init_google_benchmark(std::vector<char*>& gb_argv) {
  int gb_argc = static_cast<int>(gb_argv.size()) - 1;
  bool gb_min_time = false;
  for (int i = 1; i < gb_argc; ++i)
    gb_min_time = gb_min_time || std::string(gb_argv[i]).rfind("--benchmark_min_time", 0) == 0;
  ::benchmark::Initialize(&gb_argc, gb_argv.data());
  if (gb_argc > 1)
    throw usage_error(std::string("unknown Google Benchmark flag '") + gb_argv[1] + "'");
  return gb_min_time;
}

session open_session(const anycl::device& dev) {
  session ses;
  ses.device = dev;
  ses.context = anycl::context(dev);
  ses.queue = anycl::command_queue(ses.context, dev);
  return ses;
}

/// The comparisons on stdout, as lines or (with --json) one JSON document.
void print_report(const report& r, bool json) {
  std::cerr << "anycl-bench: " << r.comparisons.size()
            << " comparison(s), medians, on stdout:" << std::endl;
  if (json)
    write_json(std::cout, r);
  else
    write_text(std::cout, r);
  std::cout.flush();
}

/// The exit code: 1, with the failed benchmarks named on stderr, if any failed.
int exit_code(const report& r) {
  if (r.failed() == 0) return 0;
  std::string names;
  for (const benchmark_status& b : r.benchmarks)
    if (b.failed) names += (names.empty() ? "" : ", ") + b.name;
  std::cerr << "anycl-bench: FAILED: " << names << " (not timed; see the lines on stdout)\n";
  return 1;
}

}  // namespace

int bench(const anycl::tools::arguments& args, std::vector<char*> gb_argv) {
  if (!args.positional.empty())
    throw usage_error("unexpected argument '" + args.positional.front() +
                      "' (a JSON file is written with --json-file FILE; Google Benchmark flags "
                      "go after '--')");
  const bool quick = args.has("quick");
  const settings s = settings_from(args, quick);
  run_options o;
  o.repetitions = args.number("repetitions", quick ? quick_repetitions : default_repetitions);
  if (o.repetitions == 0) throw usage_error("--repetitions must be at least 1");

  const std::optional<std::regex> filter = filter_from(args);
  const std::string filter_text = args.value("filter");
  const std::vector<benchmark> registry = make_registry(s);
  std::vector<const benchmark*> matching;
  for (const benchmark& b : registry)
    if (!filter || std::regex_search(b.name, *filter)) matching.push_back(&b);
  if (args.has("list")) {
    print_list(matching);
    return 0;
  }
  const std::vector<benchmark> selected =
      select_benchmarks(registry, matching, filter.has_value(), filter_text);
  o.corrupt = forced_failures(registry);
  if (!init_google_benchmark(gb_argv) && quick) o.min_time = quick_min_time_s;

  // Output files first: a path that cannot be written fails now, not after the measuring.
  auto csv = open_output(args, "csv");
  auto json = open_output(args, "json-file");
  auto svg = open_output(args, "svg");

  const anycl::device dev = anycl::tools::tool_device(args);
  const char* mode = s.host_only ? "host-only" : "launch+finish";
  std::cerr << "anycl-bench: device '" << dev.name() << "', " << selected.size()
            << " benchmark(s), " << o.repetitions << " interleaved round(s), " << s.launches
            << " launches per iteration, mode " << mode << (quick ? ", --quick" : "") << "\n";
  const session ses = open_session(dev);
  report r = run_benchmarks(ses, selected, o);
  ::benchmark::Shutdown();
  r.info = {dev.name(),          mode,  s.launches,  o.repetitions,
            s.first_result_runs, quick, filter_text, s.transfer_sizes};

  print_report(r, args.has("json"));
  if (csv) finish_output(*csv, write_csv, r);
  if (json) finish_output(*json, write_json, r);
  if (svg) finish_output(*svg, write_svg, r);
  return exit_code(r);
}

}  // namespace anycl::bench
