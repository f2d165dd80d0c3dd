#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Usage: pocl_seed_test.sh SCRIPT WORK
# Tests pocl_seed.sh (SCRIPT) in the folder WORK with stand-in commands that write programs the
# way POCL lays them out: a program is published whole, temporary files are not, the next process
# gets hard links in a folder of its own, what it changes there stays out of the seed, the exit
# code passes through, and a missing POCL_CACHE_DIR is an error that names it.
set -u
script=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
seed=$work/seed
fail() {
  echo "pocl_seed_test: $*" >&2
  exit 1
}

POCL_CACHE_DIR=$work/first bash "$script" "$seed" bash -c '
  mkdir -p "$POCL_CACHE_DIR/AB/CDEF/k/0-0-0" &&
  echo code > "$POCL_CACHE_DIR/AB/CDEF/k/0-0-0/k.so" &&
  echo half > "$POCL_CACHE_DIR/tempfile_x"
  exit 3'
rc=$?
[ $rc -eq 3 ] || fail "the command's exit code 3 came back as $rc"
[ "$(cat "$seed/AB/CDEF/k/0-0-0/k.so" 2>/dev/null)" = code ] || fail "the program was not published"
[ ! -e "$seed/tempfile_x" ] || fail "a temporary file was published"

POCL_CACHE_DIR=$work/second bash "$script" "$seed" bash -c '
  so=$POCL_CACHE_DIR/AB/CDEF/k/0-0-0/k.so
  [ "$(stat -c %h "$so")" -ge 2 ] || { echo "not a hard link of the seed: $so" >&2; exit 1; }
  rm -rf "$POCL_CACHE_DIR/AB/CDEF/k" && mkdir -p "$POCL_CACHE_DIR/AB/CDEF/other"' ||
  fail "the second process did not start from the seed"
[ -f "$seed/AB/CDEF/k/0-0-0/k.so" ] || fail "a change in a process's folder reached the seed"
[ ! -e "$seed/AB/CDEF/other" ] || fail "a program already in the seed was published again"
if ls -A "$seed/AB" | grep -q '^\.part'; then fail "a partial copy was left in the seed"; fi

out=$(env -u POCL_CACHE_DIR bash "$script" "$seed" true 2>&1) && fail "ran without POCL_CACHE_DIR"
case $out in
  *"needs POCL_CACHE_DIR"*) ;;
  *) fail "without POCL_CACHE_DIR it said: $out" ;;
esac
echo "pocl_seed_test: ok"
