# SPDX-License-Identifier: Apache-2.0
# anycl-bench's tests (included from tests/CMakeLists.txt, which defines anycl_tool_test): --quick
# (the CI run) with its CSV, JSON and SVG files checked against each other, --filter, forced
# correctness failures, time to first result, the array family, and bad usage. They check formats
# and agreement, never the figures.
if(NOT TARGET anycl-bench)
  return()
endif()
set(bench $<TARGET_FILE:anycl-bench>)
set(num "[0-9]+\\.[0-9]+")

# Runs anycl-bench ARGS with --csv/--json-file/--svg files in a folder of its own and checks them
# with bench/check_outputs.cmake (see there for EXPECT_NAMES, EXPECT_INCLUDES, EXPECT_FAILED).
function(anycl_bench_output_test name rc)
  cmake_parse_arguments(T "STDOUT_JSON;POCL_SEED" ""
                        "ARGS;ENV;EXPECT_NAMES;EXPECT_INCLUDES;EXPECT_FAILED" ${ARGN})
  anycl_pocl_seed_prefix(run "${T_POCL_SEED}")
  # Each list goes as one quoted -D argument, so its items stay together.
  add_test(NAME ${name}
    COMMAND ${run} ${CMAKE_COMMAND} "-DBENCH=${bench}" "-DARGS=${T_ARGS}" -DRC=${rc}
            -DDIR=${CMAKE_CURRENT_BINARY_DIR}/bench-out/${name} "-DEXPECT_NAMES=${T_EXPECT_NAMES}"
            "-DEXPECT_INCLUDES=${T_EXPECT_INCLUDES}" "-DEXPECT_FAILED=${T_EXPECT_FAILED}"
            -DSTDOUT_JSON=${T_STDOUT_JSON}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench/check_outputs.cmake)
  anycl_test_cache_env(anycl_cache ${name})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "POCL_CACHE_DIR=${CMAKE_BINARY_DIR}/pocl-cache/${name};${anycl_cache};${T_ENV}"
    FIXTURES_REQUIRED pocl_cache_dirs TIMEOUT 600)
endfunction()

# --- every benchmark at --quick's sizes, first_result with one run; one round, not five (the
# figures are not checked; tool-bench-filter runs --quick's five interleaved rounds) ---
anycl_bench_output_test(tool-bench-quick 0 POCL_SEED ARGS --quick --repetitions 1
  EXPECT_INCLUDES launch_empty launch_one_buffer command_buffer_replay
                  command_buffer_replay_vs_emulated
                  transfer_write_1MiB transfer_write_64MiB transfer_read_1MiB transfer_read_64MiB
                  transfer_write_1MiB_vs_memcpy transfer_write_64MiB_vs_memcpy
                  transfer_read_1MiB_vs_memcpy transfer_read_64MiB_vs_memcpy
                  host_round_trip_64MiB
                  array_triad array_triad_vs_raw array_scan array_scan_vs_raw array_scan_vs_copy
                  array_random array_random_vs_raw array_random_vs_copy array_random_normal
                  array_sort array_sort_vs_gnu
                  array_sum array_sum_vs_raw array_dot array_dot_vs_raw array_spmv
                  array_spmv_vs_raw array_broadcast array_sum_expr array_argmax array_take
                  array_compress array_histogram array_view_to_host array_view_set
                  sgemm_128 dgemm_128 sgemm_128_opencl dgemm_128_opencl sgemm_128_vs_host
                  dgemm_128_vs_host
                  fft_c2c fft_c2c_vs_host fft_r2c fft_r2c_vs_host
                  fft_batched fft_batched_vs_host
                  "first result, cold" "first result, anycl cache warm"
                  "first result, pocl cache warm"
                  "first result, anycl cache warm vs pocl cache warm")

# --- --filter selects by benchmark name; --json on stdout is the --json-file document ---
anycl_bench_output_test(tool-bench-filter 0 ARGS --quick --filter ^transfer_read_1MiB$
  EXPECT_NAMES transfer_read_1MiB transfer_read_1MiB_vs_memcpy)
anycl_bench_output_test(tool-bench-filter-json-stdout 0 STDOUT_JSON
  ARGS --quick --json --filter ^transfer_write_1MiB$
  EXPECT_NAMES transfer_write_1MiB transfer_write_1MiB_vs_memcpy)
anycl_tool_test(tool-bench-filter-text 0
  "^transfer_read_1MiB: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\ntransfer_read_1MiB_vs_memcpy: anycl ${num} GB/s, memcpy ${num} GB/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^transfer_read_1MiB$ --repetitions 1)

# --- a correctness check that fails: FAILED everywhere, never timed, exit 1 ---
# transfer_write_1MiB fails (ANYCL_BENCH_FAIL names its family); launch_empty, also selected,
# still passes and is timed.
anycl_bench_output_test(tool-bench-forced-failure 1
  ARGS --quick --filter ^transfer_write_1MiB$|^launch_empty$
  ENV ANYCL_BENCH_FAIL=transfer_write
  EXPECT_INCLUDES launch_empty transfer_write_1MiB transfer_write_1MiB_vs_memcpy
  EXPECT_FAILED transfer_write_1MiB)
anycl_tool_test(tool-bench-forced-failure-text 1
  "transfer_read_64MiB: FAILED: anycl: wrong data at element 8388608 of 16777216: 0x[0-9a-f]+, expected 0x[0-9a-f]+ \\(forced by ANYCL_BENCH_FAIL\\)\ntransfer_read_64MiB_vs_memcpy: FAILED: .*anycl-bench: FAILED: transfer_read_64MiB \\(not timed"
  CMD ${bench} --quick --filter ^transfer_read_64MiB$
  ENV ANYCL_BENCH_FAIL=transfer_read_64MiB)
# An AnyCL first-result child alters its result: the child fails, so does first_result.
anycl_bench_output_test(tool-bench-first-result-forced-failure 1
  ARGS --filter ^first_result$ --first-result-runs 1
  ENV ANYCL_BENCH_FAIL=first_result
  EXPECT_NAMES "first result, cold" "first result, anycl cache warm"
               "first result, pocl cache warm" "first result, anycl cache warm vs pocl cache warm"
  EXPECT_FAILED first_result)

# --- the array family (--quick sizes): one benchmark's lines, a forced failure, the registry. A run
# with a raw OpenCL reference builds its program through POCL alone: from the POCL seed. ---
anycl_tool_test(tool-bench-array-triad 0
  "^array_triad: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_triad_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_triad$ --repetitions 1)
anycl_tool_test(tool-bench-array-scan 0
  "^array_scan: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_scan_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\narray_scan_vs_copy: anycl ${num} GB/s, copy ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_scan$ --repetitions 1)
anycl_tool_test(tool-bench-array-random 0
  "^array_random: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_random_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\narray_random_vs_copy: anycl ${num} GB/s, copy ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_random$ --repetitions 1)
anycl_tool_test(tool-bench-array-random-normal 0
  "^array_random_normal: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_random_normal$ --repetitions 1)
# Keys per second; the only reference is the host's parallel sort.
anycl_tool_test(tool-bench-array-sum 0
  "^array_sum: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_sum_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_sum$ --repetitions 1)
anycl_tool_test(tool-bench-array-dot 0
  "^array_dot: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_dot_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_dot$ --repetitions 1)
anycl_tool_test(tool-bench-array-broadcast 0
  "^array_broadcast: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^array_broadcast$ --repetitions 1)
# A wrong difference fails (every path is compared exactly with the host's).
anycl_tool_test(tool-bench-array-broadcast-forced-failure 1
  "array_broadcast: FAILED: anycl: wrong difference at element 2097152 of 4194304: .*\\(forced by ANYCL_BENCH_FAIL\\)"
  CMD ${bench} --quick --filter ^array_broadcast$
  ENV ANYCL_BENCH_FAIL=array_broadcast)
anycl_tool_test(tool-bench-array-sum-expr 0
  "^array_sum_expr: anycl ${num} GB/s, dot ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_sum_expr$ --repetitions 1)
anycl_tool_test(tool-bench-array-argmax 0
  "^array_argmax: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^array_argmax$ --repetitions 1)
anycl_tool_test(tool-bench-array-spmv 0
  "^array_spmv: anycl ${num} GB/s, host ${num} GB/s, ratio ${num}\narray_spmv_vs_raw: anycl ${num} GB/s, raw ${num} GB/s, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^array_spmv$ --repetitions 1)
# AnyCL's sum, dot product and SpMV results are altered: each fails its check.
anycl_bench_output_test(tool-bench-array-reduce-spmv-forced-failure 1
  POCL_SEED ARGS --quick --repetitions 1 --filter ^array_sum$|^array_dot$|^array_spmv$
  ENV ANYCL_BENCH_FAIL=array_sum,array_dot,array_spmv
  EXPECT_NAMES array_sum array_dot array_spmv array_sum_vs_raw array_dot_vs_raw array_spmv_vs_raw
  EXPECT_FAILED array_sum array_dot array_spmv)
anycl_tool_test(tool-bench-array-sort 0
  "^array_sort: anycl ${num} Mkeys/s, host ${num} Mkeys/s, ratio ${num}\narray_sort_vs_gnu: anycl ${num} Mkeys/s, gnu ${num} Mkeys/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^array_sort$ --repetitions 1)
anycl_tool_test(tool-bench-array-sort-forced-failure 1
  "array_sort: FAILED: anycl: wrong key at element 524288 of 1048576: [0-9]+, expected [0-9]+ \\(forced by ANYCL_BENCH_FAIL\\)"
  CMD ${bench} --quick --filter ^array_sort$
  ENV ANYCL_BENCH_FAIL=array_sort)
# AnyCL's scan result is altered: FAILED on every line of array_scan, exit 1; array_random, also
# selected, passes and is timed.
anycl_bench_output_test(tool-bench-array-forced-failure 1
  POCL_SEED ARGS --quick --repetitions 1 --filter ^array_scan$|^array_random$
  ENV ANYCL_BENCH_FAIL=array_scan
  EXPECT_NAMES array_scan array_random array_scan_vs_raw array_random_vs_raw array_scan_vs_copy
               array_random_vs_copy
  EXPECT_FAILED array_scan)
anycl_tool_test(tool-bench-array-forced-failure-text 1
  "array_scan: FAILED: anycl: wrong prefix sum at element 2097152 of 4194304: [0-9]+, expected [0-9]+ \\(forced by ANYCL_BENCH_FAIL\\)\narray_scan_vs_raw: FAILED: .*array_scan_vs_copy: FAILED: .*anycl-bench: FAILED: array_scan \\(not timed"
  POCL_SEED CMD ${bench} --quick --filter ^array_scan$
  ENV ANYCL_BENCH_FAIL=array_scan)
# A wrong random stream fails too (every path is compared bit for bit with the host's).
anycl_tool_test(tool-bench-array-random-forced-failure 1
  "array_random: FAILED: anycl: wrong random float at element 2097152 of 4194304: .*\\(forced by ANYCL_BENCH_FAIL\\)"
  POCL_SEED CMD ${bench} --quick --filter ^array_random$
  ENV ANYCL_BENCH_FAIL=array_random)
# Normal floats: within the row's tolerance of the host's serial stream, or FAILED.
anycl_tool_test(tool-bench-array-random-normal-forced-failure 1
  "array_random_normal: FAILED: anycl: wrong normal float at element 2097152 of 4194304: .*\\(forced by ANYCL_BENCH_FAIL\\)"
  POCL_SEED CMD ${bench} --quick --filter ^array_random_normal$
  ENV ANYCL_BENCH_FAIL=array_random_normal)
anycl_tool_test(tool-bench-array-list 0
  "array_triad: GB/s, higher is better\n  measures: d = b \\+ s \\* c on 2\\^22 floats.*  array_triad_vs_raw -> raw: [^\n]*\narray_sum: GB/s, higher is better\n  measures: anycl::sum\\(b\\) of 2\\^22 floats.*  array_sum -> host: [^\n]*reduction[^\n]*\n  array_sum_vs_raw -> raw: [^\n]*\narray_dot: GB/s, higher is better\n  measures: anycl::dot\\(b, c\\) of two 2\\^22-float.*  array_dot_vs_raw -> raw: [^\n]*\narray_scan: GB/s, higher is better\n  measures: anycl::inclusive_scan\\(in, out\\) of 2\\^22 uint32.*  array_scan -> host: [^\n]*(OpenMP|serial)[^\n]*\n  array_scan_vs_raw -> raw: [^\n]*\n  array_scan_vs_copy -> copy: .*array_random: GB/s.*  array_random_vs_copy -> copy: [^\n]*\narray_random_normal: GB/s, higher is better\n  measures: random_generator::normal fills 2\\^22 [^\n]*\n  check: [^\n]*\n  array_random_normal -> host: [^\n]*\narray_sort: Mkeys/s, higher is better\n  measures: anycl::sort\\(keys\\) of 2\\^20 [^\n]*no raw OpenCL reference[^\n]*\n  check: [^\n]*\n  array_sort -> host: [^\n]*radix[^\n]*\n  array_sort_vs_gnu -> gnu: [^\n]*\narray_spmv: GB/s, higher is better\n  measures: anycl::spmv\\(A, x, y\\)[^\n]* of 2\\^16 rows[^\n]*\n  check: [^\n]*\n  array_spmv -> host: [^\n]*\n  array_spmv_vs_raw -> raw: [^\n]*\narray_broadcast: GB/s, higher is better\n  measures: d = m - row with m a \\(1024, 4096\\) float matrix[^\n]*\n  check: [^\n]*exactly\n  array_broadcast -> host: [^\n]*simd[^\n]*\narray_sum_expr: GB/s, higher is better\n  measures: anycl::sum\\(b \\* c\\) of two 2\\^22-float arrays[^\n]*\n  check: [^\n]*\n  array_sum_expr -> dot: [^\n]*\narray_argmax: GB/s, higher is better\n  measures: anycl::argmax\\(b\\) of 2\\^22 floats[^\n]*\n  check: [^\n]*\n  array_argmax -> host: [^\n]*max_element[^\n]*\narray_take: GB/s, higher is better\n  measures: anycl::take\\(b, idx\\) of 2\\^22 floats[^\n]*\n  check: [^\n]*\n  array_take -> host: [^\n]*idx\\[k\\][^\n]*\narray_compress: GB/s, higher is better\n  measures: anycl::compress\\(b > 0.5f, b\\) of 2\\^22 floats[^\n]*\n  check: [^\n]*\n  array_compress -> host: [^\n]*offset[^\n]*\narray_histogram: GB/s, higher is better\n  measures: anycl::histogram\\(b, 256, 0, 1\\) of 2\\^22 floats[^\n]*\n  check: [^\n]*\n  array_histogram -> host: [^\n]*row of counts[^\n]*\narray_small_ops: us, lower is better\n  measures: 10000 statements c = array<float>\\(a \\* 2 \\+ b\\) on 1000 floats[^\n]*\n  check: [^\n]*\n  array_small_ops -> pool off: [^\n]*ANYCL_POOL=off[^\n]*\narray_view_to_host: GB/s, higher is better\n  measures: to_host of the view \\(2048, 1024\\) of a \\(2048, 2048\\) float matrix[^\n]*\n  check: [^\n]*\n  array_view_to_host -> gather: [^\n]*\narray_view_set: GB/s, higher is better\n  measures: set of the view[^\n]*\n  check: [^\n]*\n  array_view_set -> gather: [^\n]*\n$"
  CMD ${bench} --list --quick --filter ^array_)
# to_host and set of a strided view, rectangular against a kernel's copy; a wrong element fails.
anycl_tool_test(tool-bench-array-view 0
  "^array_view_to_host: anycl ${num} GB/s, gather ${num} GB/s, ratio ${num}\narray_view_set: anycl ${num} GB/s, gather ${num} GB/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^array_view_ --repetitions 1)
anycl_tool_test(tool-bench-array-view-forced-failure 1
  "array_view_to_host: anycl ${num} GB/s, gather ${num} GB/s, ratio ${num}\narray_view_set: FAILED: anycl: wrong element \\(1024, 0\\): .*\\(forced by ANYCL_BENCH_FAIL\\)"
  CMD ${bench} --quick --filter ^array_view_ --repetitions 1
  ENV ANYCL_BENCH_FAIL=array_view_set)
# command_buffer_replay: native replay against launches and an emulated replay; a wrong sum fails.
anycl_tool_test(tool-bench-command-buffer 0
  "^command_buffer_replay: anycl ${num} us, launches ${num} us, ratio ${num}\ncommand_buffer_replay_vs_emulated: anycl ${num} us, emulated ${num} us, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^command_buffer_replay$ --repetitions 1)
anycl_tool_test(tool-bench-command-buffer-forced-failure 1
  "command_buffer_replay: FAILED: anycl: wrong element 512: 5051, expected 5050 \\(forced by ANYCL_BENCH_FAIL\\)"
  CMD ${bench} --quick --filter ^command_buffer_replay$ --repetitions 1
  ENV ANYCL_BENCH_FAIL=command_buffer_replay)
# host_round_trip: zero-copy against copies; a wrong element fails.
anycl_tool_test(tool-bench-host-round-trip 0
  "^host_round_trip_64MiB: anycl ${num} GB/s, copy ${num} GB/s, ratio ${num}\nanycl-bench: device"
  CMD ${bench} --quick --filter ^host_round_trip --repetitions 1)
anycl_tool_test(tool-bench-host-round-trip-forced-failure 1
  "host_round_trip_64MiB: FAILED: anycl: wrong element 8388608: .*\\(forced by ANYCL_BENCH_FAIL\\)"
  CMD ${bench} --quick --filter ^host_round_trip --repetitions 1
  ENV ANYCL_BENCH_FAIL=host_round_trip)
# array_small_ops: the pool on against off, and its check fails when the result is wrong.
anycl_tool_test(tool-bench-small-ops 0
  "^array_small_ops: anycl ${num} us, pool off ${num} us, ratio ${num}\n"
  POCL_SEED CMD ${bench} --launches 200 --repetitions 1 --filter ^array_small_ops$)
anycl_tool_test(tool-bench-small-ops-forced-failure 1
  "array_small_ops: FAILED: anycl: wrong element 500 of c = a \\* 2 \\+ b: .*\\(forced by ANYCL_BENCH_FAIL\\)"
  POCL_SEED CMD ${bench} --launches 200 --repetitions 1 --filter ^array_small_ops$
  ENV ANYCL_BENCH_FAIL=array_small_ops)

# --- the fft family (--quick sizes): the lines of all three, a forced failure ---
anycl_tool_test(tool-bench-fft 0
  "^fft_c2c: anycl ${num} ms, clfft ${num} ms, ratio ${num}\nfft_r2c: anycl ${num} ms, clfft ${num} ms, ratio ${num}\nfft_batched: anycl ${num} ms, clfft ${num} ms, ratio ${num}\nfft_c2c_vs_host: anycl ${num} ms, host ${num} ms, ratio ${num}\nfft_r2c_vs_host: anycl ${num} ms, host ${num} ms, ratio ${num}\nfft_batched_vs_host: anycl ${num} ms, host ${num} ms, ratio ${num}\nanycl-bench: device"
  POCL_SEED CMD ${bench} --quick --filter ^fft_ --repetitions 1)
anycl_tool_test(tool-bench-fft-forced-failure 1
  "fft_r2c: FAILED: anycl: wrong bin [0-9]+ of transform 0: .*\\(forced by ANYCL_BENCH_FAIL\\)\nfft_r2c_vs_host: FAILED: .*anycl-bench: FAILED: fft_r2c \\(not timed"
  POCL_SEED CMD ${bench} --quick --repetitions 1 --filter ^fft_r2c$
  ENV ANYCL_BENCH_FAIL=fft_r2c)

# --- time to first result: one run of each kind; the contract lines' format, not the figures ---
anycl_tool_test(tool-bench-first-result 0
  "first result, cold: anycl ${num} ms, raw ${num} ms, ratio ${num}\nfirst result, anycl cache warm: anycl ${num} ms, raw binary ${num} ms, ratio ${num}\nfirst result, pocl cache warm: anycl ${num} ms, raw ${num} ms, ratio ${num}\nfirst result, anycl cache warm vs pocl cache warm: anycl ${num} ms, raw pocl cache ${num} ms, ratio ${num}, speedup ${num}\n"
  CMD ${bench} --first-result-runs 1 --launches 0 --filter first_result)
# Both sections in one JSON document.
anycl_tool_test(tool-bench-first-result-json 0
  "\"first_result_runs\": 1,.*\"name\": \"launch_empty\".*\"name\": \"first result, anycl cache warm\", \"unit\": \"ms\", \"anycl\": ${num}, \"reference\": \"raw binary\", \"reference_value\": ${num}, \"ratio\": ${num}, \"runs\": 1, \"anycl_setup\": ${num}"
  CMD ${bench} --json --launches 100 --repetitions 1 --first-result-runs 1
      --filter ^launch_empty$|^first_result$ -- --benchmark_min_time=0.05)
anycl_tool_test(tool-bench-first-result-help 0 "first result, anycl cache warm: anycl <ms> ms, raw binary <ms> ms.*--first-result-runs N"
                CMD ${bench} --help)
# A child that must find a warm AnyCL cache and does not fails loudly (here the cache folder can
# be neither read nor written, so the run misses and saves nothing).
anycl_tool_test(tool-bench-first-result-not-warm 1
  "expects a warm AnyCL cache \\(hits 1, misses 0, writes 0\\), got hits 0, misses 1"
  CMD ${bench} --first-result-child anycl-warm ${CMAKE_CURRENT_BINARY_DIR} 0 0
  ENV "ANYCL_CACHE_DIR=/dev/null/anycl-cache;POCL_KERNEL_CACHE=0")

# --- the registry and the help ---
anycl_tool_test(tool-bench-list 0
  "launch_empty: us, lower is better\n  measures: .*transfer_write_64MiB: GB/s, higher is better\n  measures: host-to-device write of 64MiB.*  transfer_write_64MiB_vs_memcpy -> memcpy: .*first_result: ms, lower is better \\(off: needs --first-result"
  CMD ${bench} --list)
anycl_tool_test(tool-bench-list-filter 0 "^transfer_read_1MiB: GB/s[^\n]*\n  measures: [^\n]*\n  check: [^\n]*\n  transfer_read_1MiB -> raw: [^\n]*\n  transfer_read_1MiB_vs_memcpy -> memcpy: [^\n]*\n$"
  CMD ${bench} --list --filter ^transfer_read_1MiB)
anycl_tool_test(tool-bench-help 0
  "ANYCL_BENCH_FAIL=NAME.*Exit codes: 0.*--json-file FILE.*--csv FILE.*--svg FILE.*--filter REGEX.*--list.*--quick"
  CMD ${bench} --help)

# --- bad usage (exit 2) and unwritable files (exit 1, before anything is measured) ---
anycl_tool_test(tool-bench-bad-filter 2 "--filter: bad regular expression '\\(transfer': .*usage: anycl-bench"
                CMD ${bench} --filter "(transfer")
anycl_tool_test(tool-bench-filter-matches-nothing 2
  "nothing to measure: --filter 'no_such_benchmark' matches no benchmark; benchmarks: launch_empty, launch_one_buffer, command_buffer_replay, transfer_write_1MiB"
  CMD ${bench} --filter no_such_benchmark)
anycl_tool_test(tool-bench-nothing-to-measure 2
  "nothing to measure: --filter '\\^launch' selects only benchmarks these options turn off \\(--launches 0 skips"
  CMD ${bench} --launches 0 --filter ^launch)
anycl_tool_test(tool-bench-first-result-bad-number 2
                "--first-result-runs needs a non-negative whole number"
                CMD ${bench} --first-result-runs many)
anycl_tool_test(tool-bench-bad-repetitions 2 "--repetitions needs a non-negative whole number, got '-1'"
                CMD ${bench} --repetitions=-1)
anycl_tool_test(tool-bench-zero-repetitions 2 "--repetitions must be at least 1"
                CMD ${bench} --repetitions 0)
anycl_tool_test(tool-bench-json-file-missing-value 2 "--json-file needs a value \\(FILE\\)"
                CMD ${bench} --json-file)
anycl_tool_test(tool-bench-json-positional 2
  "unexpected argument 'out.json' \\(a JSON file is written with --json-file FILE"
  CMD ${bench} --json out.json)
anycl_tool_test(tool-bench-unwritable-csv 1
  "^anycl-bench: cannot write --csv file '/nonexistent-anycl-dir/out.csv': No such file or directory\n$"
  CMD ${bench} --csv /nonexistent-anycl-dir/out.csv)
anycl_tool_test(tool-bench-unwritable-json-file 1
  "cannot write --json-file file '/dev/null/out.json': Not a directory"
  CMD ${bench} --json-file /dev/null/out.json)
anycl_tool_test(tool-bench-unwritable-svg 1
  "cannot write --svg file '${CMAKE_CURRENT_BINARY_DIR}': Is a directory"
  CMD ${bench} --svg ${CMAKE_CURRENT_BINARY_DIR})

# --- the BLAS family: gemm in GFLOP/s against CLBlast on the same buffers and OpenBLAS (AnyCL
# on OpenBLAS itself on POCL); the _opencl rows: AnyCL on CLBlast against CLBlast ---
anycl_tool_test(tool-bench-gemm 0
  "^sgemm_128: anycl ${num} GFLOP/s, clblast ${num} GFLOP/s, ratio ${num}\ndgemm_128: anycl ${num} GFLOP/s, clblast ${num} GFLOP/s, ratio ${num}\nsgemm_128_opencl: anycl ${num} GFLOP/s, clblast ${num} GFLOP/s, ratio ${num}\ndgemm_128_opencl: anycl ${num} GFLOP/s, clblast ${num} GFLOP/s, ratio ${num}\n"
  POCL_SEED CMD ${bench} --quick --filter gemm --repetitions 1)
# AnyCL's sgemm result is altered: sgemm_128 fails its check, dgemm_128 still runs.
anycl_bench_output_test(tool-bench-gemm-forced-failure 1 POCL_SEED
  ARGS --quick --repetitions 1 --filter gemm
  ENV ANYCL_BENCH_FAIL=sgemm_128
  EXPECT_INCLUDES sgemm_128 dgemm_128
  EXPECT_FAILED sgemm_128)
