#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The fault-injection sweep: runs anycl-fault-scenarios once under the fault shim to count the
# calls of every OpenCL entry point, then once per (entry point, n, status) with the n-th call of
# that entry point failing, and fails on any crash, hang or nonzero exit of the scenarios.
#
# usage: fault_sweep.sh SCENARIOS SHIM [WORK_DIR]
#   n:       1, 2, the middle call and the last call (deduplicated)
#   status:  create calls (clCreate*) get each of -5 CL_OUT_OF_RESOURCES, -6
#            CL_OUT_OF_HOST_MEMORY, -4 CL_MEM_OBJECT_ALLOCATION_FAILURE and -2
#            CL_DEVICE_NOT_AVAILABLE; the others one of them, rotating
# Environment:
#   FAULT_SWEEP_JOBS     runs at a time (default 2), each with a copy of the warm POCL cache
#   FAULT_SWEEP_TIMEOUT  seconds per run (default 60)
#   FAULT_SWEEP_ONLY     a regular expression: sweep only the entry points it matches
#   FAULT_SWEEP_PRELOAD  libraries to preload before the shim (the ASan runtime for an ASan build)
# The counting run uses the caller's POCL_CACHE_DIR (give the sweep a private one) and warms it;
# each job then works on its own copy (processes sharing a POCL cache get spurious build failures).
# Each run makes a fresh AnyCL disk cache of its own (anycl-fault-scenarios does, under TMPDIR), so
# every run loads kernels cold and then warm. Logs of failed runs are kept in WORK_DIR.
#
# Known defects of the libraries below AnyCL, where a failure is lost before AnyCL could see it:
# such runs are counted in the "3rd-party" column, listed, and do not fail the sweep. Each entry
# is "entry point:library that made the failing call:what happens".
known_defects=(
  "clEnqueueWriteBuffer:libclFFT:clfftBakePlan ignores the status of its upload of the plan's constant buffer (plan.cpp, ConstructAndEnqueueConstantBuffers unchecked) and returns success; the transform then reads uninitialised strides: wrong results, or on a CPU device writes past its buffers (heap corruption)"
  "clCreateKernel:libclFFT:clFFT prints 'compileKernels failed' and clfftBakePlan still returns success; when the kernel lost is the forward one, clfftEnqueueTransform then fails with CL_INVALID_KERNEL (AnyCL reports it), when it is the other direction's, the transform works and the failure is never reported"
  "clBuildProgram:libclFFT:FFTAction::compileKernels prints the failure and leaks the cl_program it created (LeakSanitizer, ASan builds only); clfftBakePlan returns success and clfftEnqueueTransform fails with CL_INVALID_PROGRAM, which AnyCL reports"
  "clGetDeviceInfo:libclFFT:StockhamGenerator::Kernel::GenerateKernel (in clfftBakePlan) ignores a failed CL_DEVICE_VENDOR query and goes on; the transform was still correct"
)
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 SCENARIOS SHIM [WORK_DIR]" >&2
  exit 2
fi
exe=$1
shim=$2
work=${3:-$(mktemp -d "${TMPDIR:-/tmp}/anycl-fault-sweep-XXXXXX")}
mkdir -p "$work"
jobs=${FAULT_SWEEP_JOBS:-2}
limit=${FAULT_SWEEP_TIMEOUT:-60}
only=${FAULT_SWEEP_ONLY:-.}
preload=$shim
[ -n "${FAULT_SWEEP_PRELOAD:-}" ] && preload="$FAULT_SWEEP_PRELOAD:$shim"
codes=(-5 -6 -4 -2)
start=$(date +%s)
unset FAULT_FN FAULT_NTH FAULT_CODE FAULT_EVERY FAULT_REPORT

# One run; its output goes to $2.log and the shim's report to $2.report. The shim is preloaded
# into the scenarios only (a preloaded `timeout` would write the report too).
run_once() {
  local pocl=$1 base=$2
  shift 2
  rm -f "$base.report"
  POCL_CACHE_DIR=$pocl timeout -k 5 "$limit" env FAULT_REPORT="$base.report" \
    LD_PRELOAD="$preload" "$@" "$exe" >"$base.log" 2>&1
}

# 1. Count the calls without a fault (and warm the POCL cache).
run_once "${POCL_CACHE_DIR:-$work/pocl}" "$work/count"
rc=$?
if [ "$rc" -ne 0 ] || [ ! -s "$work/count.report" ]; then
  echo "fault sweep: the scenarios fail without a fault (exit $rc):" >&2
  cat "$work/count.log" >&2
  exit 1
fi
for ((k = 0; k < jobs; ++k)); do
  rm -rf "$work/pocl.$k"
  cp -a "${POCL_CACHE_DIR:-$work/pocl}" "$work/pocl.$k"
done

# 2. The runs: "name n code" lines.
declare -A calls
entries=()
: >"$work/cases"
rotation=0
while read -r name count _; do
  [ "$count" -gt 0 ] || continue
  [[ $name =~ $only ]] || continue
  entries+=("$name")
  calls[$name]=$count
  for n in $(printf '%s\n' 1 2 $(((count + 1) / 2)) "$count" | awk -v c="$count" '$1 <= c' |
    sort -un); do
    if [[ $name == clCreate* ]]; then
      for code in "${codes[@]}"; do echo "$name $n $code" >>"$work/cases"; done
    else
      echo "$name $n ${codes[$((rotation % 4))]}" >>"$work/cases"
      rotation=$((rotation + 1))
    fi
  done
done <"$work/count.report"

# Runs case $1 on job slot $2 and writes one result line to $work/res/$1:
# name n code outcome fired seen exceptions graceful caller
run_case() {
  local i=$1 slot=$2 name n code base rc why="" caller shim_fired summary seen ex gr
  read -r name n code < <(sed -n "$((i + 1))p" "$work/cases")
  base="$work/run.$slot"
  # A failed release never reaches the driver, so the object leaks there by design (LeakSanitizer
  # is told not to count it in an ASan build).
  local asan=${ASAN_OPTIONS:-}
  [[ $name == clRelease* ]] && asan="$asan:detect_leaks=0"
  run_once "$work/pocl.$slot" "$base" FAULT_FN="$name" FAULT_NTH="$n" FAULT_CODE="$code" \
    ASAN_OPTIONS="$asan"
  rc=$?
  shim_fired=$(awk -v f="$name" '$1 == f { print $3 }' "$base.report" 2>/dev/null)
  caller=$(awk -v f="$name" '$1 == f { print $4 }' "$base.report" 2>/dev/null)
  summary=$(grep '^summary:' "$base.log" | tail -n 1)
  seen=$(sed -n 's/.*faults fired \([0-9]*\),.*/\1/p' <<<"$summary")
  ex=$(sed -n 's/.*exceptions \([0-9]*\),.*/\1/p' <<<"$summary")
  gr=$(sed -n 's/.*graceful \([0-9]*\),.*/\1/p' <<<"$summary")
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    why="timeout after ${limit}s"
  elif [ "$rc" -gt 128 ]; then
    why="killed by signal $((rc - 128))"
  elif [ "$rc" -ne 0 ]; then
    case $rc in
      10) why="fault fired without an AnyCL exception" ;;
      11) why="an exception that is not an anycl::error escaped" ;;
      12) why="leaked handles" ;;
      13) why="library unusable after the fault" ;;
      14) why="wrong result" ;;
      15) why="AnyCL exception without a fault" ;;
      *) why="exit $rc" ;;
    esac
  elif [ -z "$summary" ] || [ -z "$shim_fired" ]; then
    why="no summary or no shim report"
  fi
  local outcome=ok
  if [ -n "$why" ]; then
    outcome=fail
    for k in "${known_defects[@]}"; do
      IFS=: read -r kname klib _ <<<"$k"
      if [ "$kname" = "$name" ] && [[ ${caller:-} == *"$klib"* ]]; then outcome="known:$klib"; fi
    done
    cp "$base.log" "$work/fail-$name-$n-${code#-}.log"
    printf '%s n=%s code=%s: %s (failing call made by %s; log: %s)\n' "$name" "$n" "$code" \
      "$why" "${caller:--}" "$work/fail-$name-$n-${code#-}.log" >"$work/res/$i.why"
  fi
  echo "$name $n $code $outcome ${shim_fired:-0} ${seen:-0} ${ex:-0} ${gr:-0}" >"$work/res/$i"
}

rm -rf "$work/res"
mkdir -p "$work/res"
total=$(wc -l <"$work/cases")
declare -A slot_of
free_slots=()
for ((k = 0; k < jobs; ++k)); do free_slots+=("$k"); done
for ((i = 0; i < total; ++i)); do
  if [ ${#free_slots[@]} -eq 0 ]; then
    wait -n -p done_pid
    free_slots+=("${slot_of[$done_pid]}")
    unset "slot_of[$done_pid]"
  fi
  slot=${free_slots[0]}
  free_slots=("${free_slots[@]:1}")
  run_case "$i" "$slot" &
  slot_of[$!]=$slot
done
wait

# 3. The summary.
declare -A runs fired threw graceful atexit third failures
for name in "${entries[@]}"; do
  runs[$name]=0 fired[$name]=0 threw[$name]=0 graceful[$name]=0 atexit[$name]=0 third[$name]=0
  failures[$name]=0
done
failed_list=()
known_list=()
for ((i = 0; i < total; ++i)); do
  read -r name n code outcome f seen ex gr <"$work/res/$i"
  runs[$name]=$((${runs[$name]} + 1))
  fired[$name]=$((${fired[$name]} + f))
  case $outcome in
    ok)
      threw[$name]=$((${threw[$name]} + ex))
      graceful[$name]=$((${graceful[$name]} + gr))
      # A fault that fired after main returned (at exit) is not seen by the scenarios.
      [ "$f" -gt "$seen" ] && atexit[$name]=$((${atexit[$name]} + f - seen))
      ;;
    known:*)
      third[$name]=$((${third[$name]} + 1))
      known_list+=("$(cat "$work/res/$i.why")")
      ;;
    *)
      failures[$name]=$((${failures[$name]} + 1))
      failed_list+=("$(cat "$work/res/$i.why")")
      ;;
  esac
done

line() { printf '%-36s %6s %5s %6s %10s %9s %8s %10s %9s\n' "$@"; }
table() {
  line "entry point" calls runs fired exceptions graceful at-exit 3rd-party failures
  for name in "${entries[@]}"; do
    if [ "$1" = refcount ] && [[ $name != clRetain* && $name != clRelease* ]]; then continue; fi
    if [ "$1" = calls ] && [[ $name == clRetain* || $name == clRelease* ]]; then continue; fi
    line "$name" "${calls[$name]}" "${runs[$name]}" "${fired[$name]}" "${threw[$name]}" \
      "${graceful[$name]}" "${atexit[$name]}" "${third[$name]}" "${failures[$name]}"
  done
}
sum() {
  local -n a=$1
  local s=0
  for name in "${entries[@]}"; do s=$((s + ${a[$name]})); done
  echo "$s"
}
echo
table calls
echo
echo "retain and release (a failed release goes to the cleanup-error handler):"
table refcount
echo
if [ ${#known_list[@]} -ne 0 ]; then
  echo "known defects below AnyCL (not failures of the sweep):"
  printf '  %s\n' "${known_list[@]}"
  for k in "${known_defects[@]}"; do
    IFS=: read -r kname klib kwhat <<<"$k"
    printf '  %s in %s: %s\n' "$kname" "$klib" "$kwhat"
  done
fi
echo "fault sweep: ${#entries[@]} entry points, $total runs, $(sum fired) faults fired," \
  "$(sum threw) AnyCL exceptions, $(sum graceful) handled gracefully, $(sum atexit) at exit," \
  "$(sum third) known third-party defects, $(sum failures) failures, $jobs jobs," \
  "$(($(date +%s) - start)) s"
if [ ${#failed_list[@]} -ne 0 ]; then
  echo "failures:"
  printf '  %s\n' "${failed_list[@]}"
  exit 1
fi
exit 0
