// SPDX-License-Identifier: Apache-2.0
// A fake OpenCL driver library that crashes (SIGSEGV) as soon as it is loaded, like a broken vendor
// driver: anycl-info must report it from a child process and list the other drivers without it.
#include <csignal>

namespace {
struct crash_when_loaded {
  crash_when_loaded() { std::raise(SIGSEGV); }
};
const crash_when_loaded crash;
}  // namespace
