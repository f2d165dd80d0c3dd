// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the flags and the help text (what is measured, how, and how to read the output).
#include <string>

#include "tool.hpp"

namespace anycl::bench {

namespace {

// What the tool compares and how to read its lines.
constexpr const char* overview =
    "How fast is AnyCL on this device, and against what: each benchmark runs AnyCL and its\n"
    "references (the raw C API, the Khronos C++ bindings, C++/OpenMP on the host, a host\n"
    "memcpy) on one context and queue in the same run. Every path first passes a correctness\n"
    "check on known data; a benchmark that fails it is reported FAILED and not timed, and the\n"
    "exit code is 1.\n"
    "stdout gets one line per comparison (--json: one JSON document instead):\n"
    "  <name>: anycl <x> <unit>, <reference> <y> <unit>, ratio <x/y>\n"
    "  <name>: FAILED: <what was wrong>\n"
    "Each figure is the MEDIAN over --repetitions rounds timed by Google Benchmark, the paths\n"
    "interleaved, their order rotating each round; ratio = AnyCL figure / reference figure\n"
    "(us and ms: lower is better; GB/s and Mkeys/s: higher is better). Google Benchmark's\n"
    "table, progress and diagnostics go to stderr. --list shows every benchmark, its\n"
    "references and check.\n"
    "\n";

// The launch-overhead benchmarks.
constexpr const char* launch_help =
    "Launch overhead (launch_empty, launch_one_buffer; us per launch): an empty kernel and a\n"
    "one-buffer kernel (64 work-items) launched through AnyCL's kernel_function, through the\n"
    "raw C API (clSetKernelArg + clEnqueueNDRangeKernel with an event that is then released)\n"
    "and, where <CL/opencl.hpp> was found, through cl::KernelFunctor. One iteration is\n"
    "--launches launches then one finish (clFinish); --host-only times the enqueues alone.\n"
    "Lines: launch_empty, launch_one_buffer (against raw), then launch_empty_vs_clhpp,\n"
    "launch_one_buffer_vs_clhpp.\n"
    "command_buffer_replay (us a kernel): a command buffer of 100 kernels, each adding to 1024\n"
    "ints, replayed and waited for (native cl_khr_command_buffer where the device has it),\n"
    "against the same kernels launched one by one (launches) and an emulated replay\n"
    "(command_buffer_replay_vs_emulated); checked: every int is 1 + 2 + ... + 100.\n"
    "\n";

// The transfer benchmarks.
constexpr const char* transfer_help =
    "Transfers (transfer_write_1MiB, transfer_write_64MiB, transfer_read_1MiB,\n"
    "transfer_read_64MiB; GB/s, 1 GB = 1e9 bytes): blocking host-to-device writes and\n"
    "device-to-host reads through AnyCL's command_queue::write/read on a buffer_view, against\n"
    "clEnqueueWriteBuffer/clEnqueueReadBuffer(CL_TRUE) without an event, then "
    "(<name>_vs_memcpy)\n"
    "against a host memcpy of the same size for context. 1 MiB shows per-call costs; 64 MiB is\n"
    "beyond a CPU's last-level cache and shows bandwidth. The check writes (or reads) a known\n"
    "pattern and compares every element, the other side done with the raw C API.\n"
    "host_round_trip_64MiB (GB/s counting both directions): the host changes its input, y =\n"
    "2x + 1 runs, the host reads y, zero-copy: arrays over the host's own memory\n"
    "(buffer::use_host) reached through anycl::map, against copies (\"copy\": arrays in device\n"
    "memory, set from and to_host into host vectors); every element of y checked on each path.\n"
    "\n";

// The array-operation and gemm benchmarks.
constexpr const char* array_help =
    "Array operations (GB/s, 1 GB = 1e9 bytes; --list gives each one's byte count): arrays of\n"
    "2^26 elements (--quick: 2^22). array_triad: d = b + s * c on floats, one fused expression\n"
    "kernel (12 bytes an element). array_scan: anycl::inclusive_scan of uint32 (bytes read plus\n"
    "written). array_random: random_generator::uniform float fill (bytes written);\n"
    "array_random_normal: random_generator::normal, the same, against a host Box-Muller fill.\n"
    "array_sum,\n"
    "array_dot: anycl::sum(b), anycl::dot(b, c) of floats (4, 8 bytes an element; the raw\n"
    "kernels write a partial per work-item, added on the host). array_spmv: anycl::spmv of a\n"
    "csr_matrix<float>, 2^20 rows (--quick: 2^16), 8 to 24 entries a row (values, col_idx, x\n"
    "gathers, row_ptr and y bytes). array_broadcast: d = m - row, m a (4096, 4096) float matrix\n"
    "(--quick: (1024, 4096)) and row a (1, 4096) one broadcast in one fused kernel (8 bytes an\n"
    "element), against the host only. array_sum_expr: anycl::sum(b * c), the product fused into\n"
    "the reduction, against anycl::dot(b, c) (dot). array_argmax: anycl::argmax(b) of floats\n"
    "(4 bytes an element), against the host only. array_take: anycl::take(b, idx) of floats at\n"
    "random uint32 indices (12 bytes an element), array_compress: anycl::compress(b > 0.5f, b)\n"
    "(4 bytes read an element, 4 written a selected one), array_histogram: anycl::histogram(b,\n"
    "256, 0, 1) (4 bytes an element), each against the host only. Each against\n"
    "\"host\" (C++ -O3 -march=native, OpenMP on its default threads: OMP_NUM_THREADS), then\n"
    "(<name>_vs_raw) a hand-written OpenCL kernel through the raw C API (a few work-items, each "
    "a\n"
    "contiguous chunk), and for scan and random (<name>_vs_copy) the host's copy bandwidth: a\n"
    "parallel memcpy of the same bytes. array_sort (Mkeys/s): anycl::sort of 2^24 random uint32\n"
    "keys (--quick: 2^20), restored untimed before each iteration, against a parallel LSD\n"
    "radix sort on the host (11-bit digits) and __gnu_parallel::sort (array_sort_vs_gnu; no raw\n"
    "OpenCL reference). Every path is checked on known data against a serial\n"
    "host computation: triad within 4e-7 relative, sum and dot within 1e-4 and each SpMV row\n"
    "within 1e-5 of the sum of magnitudes, the broadcast, the scan and the sort exactly, the\n"
    "random floats bit for bit against a host Philox4x32-10 (itself checked against Random123's\n"
    "known answers). Device results are read back with the raw C API.\n"
    "array_small_ops (us a statement): --launches statements c = array<float>(a * 2 + b) on\n"
    "1,000 floats, each a new array whose old buffer goes back to the memory pool, against the\n"
    "same statements in a context made with ANYCL_POOL=off (\"pool off\"); checked exactly.\n"
    "array_view_to_host, array_view_set (GB/s): to_host and set of the first half of the\n"
    "columns of a (8192, 8192) float matrix (--quick: (2048, 2048)), one rectangular transfer,\n"
    "against the dense copy a kernel makes and one contiguous transfer (\"gather\"); checked\n"
    "exactly.\n"
    "sgemm_1024, sgemm_2048, dgemm_1024 (GFLOP/s, --quick: sgemm_128, dgemm_128): C = A B of\n"
    "square row-major matrices through anycl::blas::gemm, against a direct clblast::Gemm on the\n"
    "same buffers (clblast) and OpenBLAS cblas_sgemm/dgemm on the host (<name>_vs_host); on\n"
    "a CPU device that computes in host memory anycl::blas itself calls OpenBLAS. <name>_opencl:\n"
    "anycl::blas with the host libraries off (CLBlast) against the direct clblast::Gemm. 64\n"
    "sampled elements of C checked against the host in double.\n"
    "\n";

// The FFT benchmarks.
constexpr const char* fft_help =
    "FFTs (ms per transform, waited for; lower is better): anycl::fft::plan::execute of a\n"
    "forward float FFT, out of place: fft_c2c complex-to-complex and fft_r2c real-to-complex of\n"
    "2^20 points, fft_batched 1024 complex-to-complex transforms of 1024 points (--quick: 2^12\n"
    "points, 64 x 256). Each against \"clfft\" (clfftEnqueueTransform called directly on the\n"
    "same buffers, with a plan of the same layout made through clFFT's own calls), then\n"
    "(<name>_vs_host) FFTW3f on the host with 2 threads (FFTW_MEASURE; FFTW_ESTIMATE below 2^16\n"
    "points). The check compares 16 bins of the first and last transform with a direct sum in\n"
    "double and the spectrum's energy with Parseval's identity.\n"
    "\n";

// The time to first result of a fresh process.
constexpr const char* first_result_help =
    "Time to first result of a fresh process (first_result), off by default (its cold runs\n"
    "take seconds): --first-result runs each kind 5 times, --first-result-runs N N times;\n"
    "--launches 0 skips the launch comparisons. anycl-bench starts itself again for every run;\n"
    "the child creates its context and queue (timed apart, not included), then times loading\n"
    "anycl_saxpy of cl_kernels/anycl/demo.cl, creating the kernel and two buffers, one launch\n"
    "and reading back the result, checked against the host. AnyCL uses kernel_loader; raw uses\n"
    "the C API on the same source text, or on a binary it saved after its first launch. Every\n"
    "child has its own POCL_CACHE_DIR. Cold: AnyCL cache empty, POCL_KERNEL_CACHE=0. AnyCL\n"
    "cache warm: a primed AnyCL cache (the child fails unless it hit), POCL_KERNEL_CACHE=0.\n"
    "POCL cache warm: ANYCL_CACHE=off, a primed POCL cache. Medians in ms, one line each:\n"
    "  first result, cold: anycl <ms> ms, raw <ms> ms, ratio <r>\n"
    "  first result, anycl cache warm: anycl <ms> ms, raw binary <ms> ms, ratio <r>\n"
    "  first result, pocl cache warm: anycl <ms> ms, raw <ms> ms, ratio <r>\n"
    "  first result, anycl cache warm vs pocl cache warm: anycl <ms> ms,\n"
    "    raw pocl cache <ms> ms, ratio <r>, speedup <s>\n"
    "(the last: AnyCL's warm cache against the raw C API on POCL's warm cache; speedup is\n"
    "raw / anycl). Progress and the medians of each phase go to stderr.\n"
    "\n";

// --quick, the output files, testing and exit codes.
constexpr const char* options_help =
    "--quick (for CI; under a minute on a 2-core CPU): 5 rounds of at least 0.05 s each, both\n"
    "transfer sizes, arrays 16 times smaller, and first_result with 1 run; options given\n"
    "explicitly win.\n"
    "Files (opened before anything is measured; an unwritable one is an error, exit 1):\n"
    "--csv FILE, --json-file FILE (the --json document), --svg FILE (a bar chart of the\n"
    "ratios with a line at 1.0). Flags after '--' go to Google Benchmark\n"
    "(e.g. -- --benchmark_min_time=0.1).\n"
    "Testing: ANYCL_BENCH_FAIL=NAME[,NAME...] (a benchmark, or a family such as\n"
    "transfer_write) alters the data AnyCL's path produced before its check compares it.\n"
    "Exit codes: 0 every benchmark passed its check; 1 one FAILED, or a runtime error; 2 bad\n"
    "usage.";

/// One flag (metavar null) or option (metavar names its value) of anycl-bench.
struct flag_row {
  const char* name;
  const char* metavar;
  const char* help;
};

constexpr flag_row flags[] = {
    {"json", nullptr, "print the comparisons as JSON on stdout instead of the lines"},
    {"json-file", "FILE", "also write the JSON document to FILE"},
    {"csv", "FILE", "also write the comparisons as CSV (header + one row each) to FILE"},
    {"svg", "FILE", "also draw the ratios as an SVG bar chart in FILE"},
    {"filter", "REGEX", "only benchmarks whose name matches REGEX (ECMAScript search)"},
    {"list", nullptr, "list the benchmarks (after --filter) with their references and checks"},
    {"quick", nullptr, "a short run for CI: 5 rounds of 0.05 s, first_result with 1 run"},
    {"launches", "N", "launches per benchmark iteration (default 10000; 0: skip the launch tests)"},
    {"repetitions", "N", "interleaved rounds; the median is reported (default 15, --quick 5)"},
    {"host-only", nullptr,
     "time only the enqueues (queue held behind a user event, finish untimed)"},
    {"first-result", nullptr, "also measure time to first result of a fresh process (5 runs)"},
    {"first-result-runs", "N",
     "runs of each first-result kind, median reported (default 0, --first-result 5, "
     "--quick 1)"},
};

}  // namespace

anycl::tools::cli make_cli() {
  anycl::tools::cli c("anycl-bench", "[options] [-- GOOGLE_BENCHMARK_FLAGS...]",
                      std::string(overview) + launch_help + transfer_help + array_help + fft_help +
                          first_result_help + options_help);
  for (const flag_row& f : flags) {
    if (f.metavar == nullptr)
      c.flag(f.name, f.help);
    else
      c.option(f.name, f.metavar, f.help);
  }
  return c;
}

}  // namespace anycl::bench
