#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs everything AnyCL needs to build, test and run on Debian 12; safe to run again.
set -euo pipefail

packages=(
  cmake g++ ninja-build ccache pkg-config      # build
  doxygen                                      # the API reference and its docs-doxygen test
  opencl-headers ocl-icd-opencl-dev            # OpenCL headers and the ICD loader
  pocl-opencl-icd                              # an OpenCL driver for the CPU
  libclblast-dev libclfft-dev                  # BLAS and FFT on OpenCL
  libfftw3-dev                                 # FFTW3f: the fft benchmarks' host reference
  catch2 libbenchmark-dev                      # tests and benchmarks
  libopenblas-dev                              # OpenBLAS: anycl::blas on CPU devices (loaded at run
                                               # time, not linked) and anycl-bench's host gemm
  clinfo                                       # checks the OpenCL installation
  libopenmpi-dev openmpi-bin                   # anycl::mpi and its tests (optional part)
  oclgrind                                     # second platform for tests and the reliability
                                               # suite (adds no .icd: tests use OCL_ICD_VENDORS)
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root or install sudo" >&2; exit 1; }
  sudo=sudo
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
