// SPDX-License-Identifier: Apache-2.0
// Detects use after fork() and inspects the loader's vendor folder.
#include "core/process.hpp"

#include <dirent.h>
#include <pthread.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "anycl/error.hpp"

namespace anycl::detail {
namespace {
std::atomic<bool> opencl_used{false};
std::atomic<bool> forked_child{false};
std::once_flag atfork_once;

void on_fork_child() noexcept {
  if (opencl_used.load(std::memory_order_relaxed)) forked_child.store(true);
}
}  // namespace

void note_opencl_use() noexcept {
  if (opencl_used.load(std::memory_order_relaxed)) return;
  std::call_once(atfork_once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
  opencl_used.store(true);
}

bool in_forked_child() noexcept { return forked_child.load(std::memory_order_relaxed); }

void check_not_forked() {
  if (in_forked_child())
    throw used_after_fork(
        "OpenCL used in a child process forked after the parent initialised OpenCL: drivers hang "
        "there. Start the child with posix_spawn/exec, or fork before the first OpenCL call.");
}

std::size_t count_icd_files(const char* dir) noexcept {
  DIR* d = opendir(dir);
  if (d == nullptr) return 0;
  std::size_t n = 0;
  while (dirent* e = readdir(d)) {
    std::size_t len = std::strlen(e->d_name);
    if (len > 4 && std::strcmp(e->d_name + len - 4, ".icd") == 0) ++n;
  }
  closedir(d);
  return n;
}

}  // namespace anycl::detail
