#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Usage: pocl_seed.sh SEED COMMAND [ARGS...]
# Runs COMMAND with its own POCL_CACHE_DIR filled first from the folder SEED, then adds the programs
# it compiled to SEED. CLBlast and clFFT build their kernels themselves, out of reach of AnyCL's
# disk cache, so without this every BLAS or FFT test process compiled the same programs again.
# POCL's cache is never shared: each process gets hard links to the seed's files in a folder of
# its own (POCL replaces files by renaming, never writes into them), and a program is published
# whole, by renaming a finished copy into SEED, so a process never sees half of one.
set -u
shopt -s nullglob
seed=$1
shift
dir=${POCL_CACHE_DIR:?pocl_seed.sh needs POCL_CACHE_DIR}
mkdir -p "$seed" "$dir"

# POCL's layout: <2 letters>/<rest of the program's hash>/ holds a program and its kernels.
for prog in "$seed"/??/*/; do
  prog=${prog%/}
  rel=${prog#"$seed"/}
  [ -e "$dir/$rel" ] || { mkdir -p "$dir/${rel%/*}" && cp -al "$prog" "$dir/$rel"; } 2>/dev/null
done

"$@"
rc=$?

for prog in "$dir"/??/*/; do
  prog=${prog%/}
  rel=${prog#"$dir"/}
  [ -e "$seed/$rel" ] && continue
  tmp="$seed/${rel%/*}/.part-$$-${rel#*/}"
  mkdir -p "$seed/${rel%/*}" &&
    cp -al "$prog" "$tmp" 2>/dev/null &&
    mv -T "$tmp" "$seed/$rel" 2>/dev/null
  rm -rf "$tmp"
done
exit $rc
