#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A GPU check in one command, for a machine that has a vendor's OpenCL driver but no package
# registry (and perhaps no ICD loader):
#   tools/device-check.sh pack [BUILD_DIR] [PACK_DIR]   here: the tools, the device test suites, the
#       kernels and the loader, CLBlast and clFFT libraries (from Debian's packages) in PACK_DIR
#       (default BUILD_DIR/device-check), stripped, under 64 MiB
#   tools/device-check.sh run [PACK_DIR]                there: finds the vendor's OpenCL library,
#       writes an OCL_ICD_VENDORS folder for it, runs anycl-info, the device suites and
#       anycl-bench --quick, and writes PACK_DIR/report.txt (logs in PACK_DIR/logs)
# Options of run, as environment variables: DEVICE_CHECK_SUITES (default "device array blas fft"),
# DEVICE_CHECK_FILTER (a Catch2 test spec for every suite), DEVICE_CHECK_BENCH (default
# "--quick"; "off" skips it), DEVICE_CHECK_TIMEOUT (seconds per step, default 600),
# DEVICE_CHECK_ICD_DIRS (extra folders to look for vendor libraries in), DEVICE_CHECK_SYSTEM_ICDS
# (the folder of installed .icd files, default /etc/OpenCL/vendors).
# Exit status of run: 0 when every step passed, 1 when one failed (the report says which), 2 on
# bad usage.
set -euo pipefail

usage() {
  sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

here=$(cd "$(dirname "$0")/.." && pwd)
limit_mib=64
suites_all="device array blas fft"

# --- pack ---------------------------------------------------------------------------------

# Copies the shared libraries of Debian package $1 into $2: the installed files (dpkg -L), else
# the package downloaded and unpacked (apt-get download, dpkg-deb -x).
unpack_package() {
  local pkg=$1 dest=$2 tmp deb
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    dpkg -L "$pkg" | grep -E '\.so(\.[0-9]+)*$' | while read -r f; do cp -a "$f" "$dest/"; done
    return
  fi
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) ||
    { echo "device-check: $pkg is neither installed nor downloadable (apt-get download)" >&2; exit 1; }
  deb=$(ls "$tmp"/"${pkg}"_*.deb | head -n1)
  dpkg-deb -x "$deb" "$tmp/root"
  find "$tmp/root" -name '*.so*' \( -type f -o -type l \) -exec cp -a {} "$dest/" \;
  rm -rf "$tmp"
}

pack() {
  local build=${1:-$here/build}
  local out=${2:-$build/device-check}
  [ -d "$build" ] || { echo "device-check: no build folder $build (cmake --build build first)" >&2; exit 2; }
  local exe missing=()
  local exes=(tools/anycl-info/anycl-info tools/anycl-bench/anycl-bench tools/anycl-demo/anycl-demo
              tests/anycl-device-tests tests/anycl-array-tests tests/anycl-blas-tests
              tests/anycl-fft-tests)
  for exe in "${exes[@]}"; do [ -x "$build/$exe" ] || missing+=("$exe"); done
  if [ ${#missing[@]} -ne 0 ]; then
    echo "device-check: $build lacks ${missing[*]} (cmake --build $build -j2)" >&2
    exit 1
  fi
  rm -rf "$out"
  mkdir -p "$out/bin" "$out/lib" "$out/src/tests"
  for exe in "${exes[@]}"; do strip --strip-debug -o "$out/bin/$(basename "$exe")" "$build/$exe"; done
  local f
  for f in "$build"/libanycl.so*; do  # a shared-library build
    if [ -e "$f" ]; then cp -a "$f" "$out/lib/"; fi
  done
  cp -a "$here/cl_kernels" "$out/src/"
  cp -a "$here/tests/cl_kernels" "$out/src/tests/"
  for pkg in ocl-icd-libopencl1 libclblast1 libclfft2; do unpack_package "$pkg" "$out/lib"; done
  cp "$0" "$out/device-check.sh"
  local mib
  mib=$(du -sm "$out" | cut -f1)
  if [ "$mib" -gt "$limit_mib" ]; then
    echo "device-check: the pack is $mib MiB, over $limit_mib MiB" >&2
    exit 1
  fi
  echo "device-check: packed $out ($mib MiB); there: bash $out/device-check.sh run $out"
}

# --- run ----------------------------------------------------------------------------------

# Writes one .icd file per vendor OpenCL library found into $1; prints how many.
find_vendors() {
  local icd=$1 n=0 f lib dir
  mkdir -p "$icd"
  for f in "${DEVICE_CHECK_SYSTEM_ICDS:-/etc/OpenCL/vendors}"/*.icd; do
    [ -f "$f" ] || continue
    cp "$f" "$icd/" && n=$((n + 1))
  done
  if [ "$n" -eq 0 ]; then
    local dirs=(${DEVICE_CHECK_ICD_DIRS:-} /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib
                /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/nvidia /opt/rocm/lib)
    for lib in libnvidia-opencl.so.1 libamdocl64.so libintelocl.so libigdrcl.so; do
      for dir in "${dirs[@]}"; do
        if [ -e "$dir/$lib" ]; then
          echo "$dir/$lib" > "$icd/${lib%%.so*}.icd"
          n=$((n + 1))
          break
        fi
      done
    done
    if [ "$n" -eq 0 ] && command -v ldconfig >/dev/null; then
      lib=$(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl\.so\.1/ {print $NF; exit}')
      if [ -n "$lib" ]; then
        echo "$lib" > "$icd/libnvidia-opencl.icd"
        n=1
      fi
    fi
  fi
  echo "$n"
}

# step NAME COMMAND...: runs COMMAND with the step timeout, logs it, adds a line to the report.
step() {
  local name=$1 t0 rc=0
  shift
  t0=$(date +%s)
  mkdir -p "$pack_dir/pocl-cache/$name"
  POCL_CACHE_DIR=$pack_dir/pocl-cache/$name timeout "${DEVICE_CHECK_TIMEOUT:-600}" "$@" \
    > "$pack_dir/logs/$name.log" 2>&1 || rc=$?
  local secs=$(($(date +%s) - t0)) verdict=passed
  [ "$rc" -eq 0 ] || { verdict="FAILED (exit $rc)"; failed=$((failed + 1)); }
  [ "$rc" -eq 124 ] && verdict="FAILED (timed out after ${DEVICE_CHECK_TIMEOUT:-600} s)"
  printf '%-14s %-34s %5s s\n' "$name" "$verdict" "$secs" >> "$report"
  # Catch2's totals, or the last lines of a failure.
  if [ "$rc" -eq 0 ]; then
    grep -E '^(All tests passed|test cases:)' "$pack_dir/logs/$name.log" | sed 's/^/    /' >> "$report" || true
  else
    tail -n 25 "$pack_dir/logs/$name.log" | sed 's/^/    | /' >> "$report"
  fi
}

run() {
  pack_dir=$(cd "${1:-$here/build/device-check}" 2>/dev/null && pwd) ||
    { echo "device-check: no pack at ${1:-$here/build/device-check} (tools/device-check.sh pack)" >&2; exit 2; }
  [ -x "$pack_dir/bin/anycl-info" ] || { echo "device-check: $pack_dir is not a pack" >&2; exit 2; }
  local s
  for s in ${DEVICE_CHECK_SUITES:-$suites_all}; do
    case " $suites_all " in *" $s "*) ;; *) echo "device-check: unknown suite '$s' (have: $suites_all)" >&2; exit 2 ;; esac
  done
  report=$pack_dir/report.txt
  failed=0
  rm -rf "$pack_dir/logs" "$pack_dir/icd" "$pack_dir/pocl-cache" "$pack_dir/anycl-cache"
  mkdir -p "$pack_dir/logs"
  local vendors
  vendors=$(find_vendors "$pack_dir/icd")
  export OCL_ICD_VENDORS=$pack_dir/icd
  export LD_LIBRARY_PATH=$pack_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export ANYCL_CACHE_DIR=$pack_dir/anycl-cache ANYCL_TEST_SOURCE_DIR=$pack_dir/src
  {
    echo "AnyCL device check, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n) ($(uname -m))"
    echo "vendor libraries: $vendors in $OCL_ICD_VENDORS:"
    cat "$pack_dir"/icd/*.icd 2>/dev/null | sed 's/^/    /' || true
    echo
  } > "$report"
  if [ "$vendors" -eq 0 ]; then
    echo "no vendor OpenCL library found (looked in /etc/OpenCL/vendors and for libnvidia-opencl.so.1)" >> "$report"
    cat "$report"
    exit 1
  fi
  step info "$pack_dir/bin/anycl-info"
  for s in ${DEVICE_CHECK_SUITES:-$suites_all}; do
    step "$s" "$pack_dir/bin/anycl-$s-tests" ${DEVICE_CHECK_FILTER:+"$DEVICE_CHECK_FILTER"}
  done
  local bench=${DEVICE_CHECK_BENCH:---quick}
  # shellcheck disable=SC2086
  [ "$bench" = off ] || step bench "$pack_dir/bin/anycl-bench" $bench
  echo >> "$report"
  echo "anycl-info:" >> "$report"
  sed 's/^/    /' "$pack_dir/logs/info.log" >> "$report"
  if [ -f "$pack_dir/logs/bench.log" ]; then
    echo "anycl-bench $bench:" >> "$report"
    sed 's/^/    /' "$pack_dir/logs/bench.log" >> "$report"
  fi
  cat "$report"
  [ "$failed" -eq 0 ] || { echo "device-check: $failed step(s) failed; see $report" >&2; exit 1; }
}

case "${1:-}" in
  pack) shift; pack "$@" ;;
  run) shift; run "$@" ;;
  *) usage ;;
esac
