#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs anycl-mpi-bench under mpiexec with 1, 2 and 4 ranks (or the counts given) and prints each
# benchmark's time (the slowest rank's, per iteration), the speed-up over the first count, and the
# ideal speed-up. For kmeans and reduce the total size is fixed (strong scaling); the allreduce
# rows reduce 2^20 floats on every rank whatever the count, so they show times only. With
# BENCH_ARGS="--benchmark_repetitions=N" each time is the median of N.
#
#   tools/anycl-mpi-bench/scaling.sh [BENCH [RANKS...]]
#   BENCH  the executable (default build/tools/anycl-mpi-bench/anycl-mpi-bench)
#   RANKS  rank counts (default 1 2 4)
# Environment: BENCH_ARGS (more arguments, e.g. --quick), MPIEXEC (default mpiexec), OUT (folder
# for the CSV files, default a temporary one); POCL_DEVICES defaults to "pthread pthread".
set -eu
bench=${1:-build/tools/anycl-mpi-bench/anycl-mpi-bench}
[ $# -gt 0 ] && shift
ranks=${*:-1 2 4}
mpiexec=${MPIEXEC:-mpiexec}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
flags=""
if "$mpiexec" --version 2>/dev/null | grep -q "Open MPI\|OpenRTE"; then
  flags="--allow-run-as-root --oversubscribe"  # Open MPI: as root, more ranks than cores
fi
export POCL_DEVICES="${POCL_DEVICES:-pthread pthread}"
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$out/pocl-cache}"  # each rank takes rank<r> below it
for np in $ranks; do
  # shellcheck disable=SC2086  # flags and BENCH_ARGS are lists of words
  "$mpiexec" -n "$np" $flags "$bench" ${BENCH_ARGS:-} --benchmark_out="$out/np$np.csv" \
    --benchmark_out_format=csv >"$out/np$np.log" 2>&1 ||
    { echo "scaling.sh: $np rank(s) failed, see $out/np$np.log" >&2; cat "$out/np$np.log" >&2; exit 1; }
done
echo "anycl-mpi-bench: $(grep -m1 'rank 0 on' "$out/np$(echo $ranks | cut -d' ' -f1).log" | sed 's/.*rank 0 on //'), $(nproc) cores; CSV in $out"
# Each CSV: a header line "name,iterations,real_time,...", then one row per benchmark.
for np in $ranks; do
  awk -F, -v np="$np" '
    $1 == "name" { for (i = 1; i <= NF; ++i) if ($i == "real_time") t = i; next }
    t { name = $1; gsub(/"/, "", name); sub(/\/iterations:[0-9]+/, "", name)
        sub(/\/manual_time/, "", name); row[++n] = name; time[n] = $t; if (name ~ /_median$/) m = 1 }
    END { for (i = 1; i <= n; ++i)  # with --benchmark_repetitions: the medians only
            if (!m || sub(/_median$/, "", row[i])) print row[i], np, time[i] }
  ' "$out/np$np.csv"
done | sort -s -k1,1 | awk '
  BEGIN { printf "%-18s %5s %12s %9s %6s\n", "benchmark", "ranks", "time (ms)", "speed-up", "ideal" }
  { if (!($1 in base)) { base[$1] = $3; np0[$1] = $2 }
    if ($1 ~ /^allreduce/ || $3 <= 0)  # not strong scaling: the same floats on every rank
      printf "%-18s %5d %12.3f %9s %6s\n", $1, $2, $3, "-", "-"
    else
      printf "%-18s %5d %12.3f %8.2fx %5.1fx\n", $1, $2, $3, base[$1] / $3, $2 / np0[$1] }
'
