# SPDX-License-Identifier: Apache-2.0
# anycl-bench's time to first result of a fresh process (included from tests/CMakeLists.txt, which
# defines anycl_tool_test). One run of each kind: the contract lines' format, not the figures.
if(NOT TARGET anycl-bench)
  return()
endif()
set(bench $<TARGET_FILE:anycl-bench>)
set(num "[0-9]+\\.[0-9]+")
anycl_tool_test(tool-bench-first-result 0
  "first result, cold: anycl ${num} ms, raw ${num} ms, ratio ${num}\nfirst result, anycl cache warm: anycl ${num} ms, raw binary ${num} ms, ratio ${num}\nfirst result, pocl cache warm: anycl ${num} ms, raw ${num} ms, ratio ${num}\nfirst result, anycl cache warm vs pocl cache warm: anycl ${num} ms, raw pocl cache ${num} ms, ratio ${num}, speedup ${num}\n"
  CMD ${bench} --first-result-runs 1 --launches 0)
# Both sections in one JSON document.
anycl_tool_test(tool-bench-first-result-json 0
  "\"first_result_runs\": 1,.*\"name\": \"launch_empty\".*\"name\": \"first result, anycl cache warm\", \"unit\": \"ms\", \"anycl\": ${num}, \"reference\": \"raw binary\", \"reference_value\": ${num}, \"ratio\": ${num}, \"runs\": 1, \"anycl_setup\": ${num}"
  CMD ${bench} --json --launches 100 --repetitions 1 --first-result-runs 1)
anycl_tool_test(tool-bench-first-result-help 0 "first result, anycl cache warm: anycl <ms> ms, raw binary <ms> ms.*--first-result-runs N"
                CMD ${bench} --help)
anycl_tool_test(tool-bench-nothing-to-measure 2 "nothing to measure: --launches 0"
                CMD ${bench} --launches 0)
anycl_tool_test(tool-bench-first-result-bad-number 2
                "--first-result-runs needs a non-negative whole number"
                CMD ${bench} --first-result-runs many)
# A child that must find a warm AnyCL cache and does not fails loudly (here the cache folder can
# be neither read nor written, so the run misses and saves nothing).
anycl_tool_test(tool-bench-first-result-not-warm 1
  "expects a warm AnyCL cache \\(hits 1, misses 0, writes 0\\), got hits 0, misses 1"
  CMD ${bench} --first-result-child anycl-warm ${CMAKE_CURRENT_BINARY_DIR} 0 0
  ENV "ANYCL_CACHE_DIR=/dev/null/anycl-cache;POCL_KERNEL_CACHE=0")
