// SPDX-License-Identifier: Apache-2.0
#include "cache/disk_cache.hpp"

#include <chrono>
#include <thread>

#include "anycl/event.hpp"
#include "cache/entry.hpp"
#include "cache/pending.hpp"
#include "cache/statistics.hpp"
#include "core/hooks.hpp"
#include "core/process.hpp"

namespace anycl::detail {
namespace {
/// Saves the binaries of a program built from source when its first launch completes: POCL
/// compiles the kernel at first launch and freezes the binary at the first CL_PROGRAM_BINARIES
/// query, so a binary taken right after clBuildProgram costs that compile again in every process
/// (docs/3-kernel-sources-and-cache.md).
struct save_on_launch : first_launch_hook, std::enable_shared_from_this<save_on_launch> {
  cl_program prog = nullptr;  // not owned: the program or a kernel of it is alive while armed
  cache_folder folder;
  std::vector<device> devices;
  std::vector<digest> keys;
  /// The build locks of `keys` when this process took them: released once the entries are
  /// written, the save is abandoned or cannot be set up, or the program is destroyed.
  std::unique_ptr<cache_locks> locks;

  /// What a completion callback needs: the hook, the program and the launch, held until the save
  /// is done or abandoned.
  struct job : pending_save {
    std::shared_ptr<save_on_launch> hook;
    program prog;
    event owner;  // keeps `launch` valid
    void abandon() noexcept override {
      if (hook && hook->locks) hook->locks->release();  // its launch failed: no save will come
      hook.reset();
      prog = program();
      owner = event();
    }
  };

  void launched(cl_event ev) noexcept override {
    if (in_forked_child()) return;
    try {
      auto j = std::make_shared<job>();
      j->hook = shared_from_this();
      j->prog = program::retain(prog);
      j->owner = event::retain(ev);
      j->launch = ev;
      begin_pending_write(j);
      if (clSetEventCallback(ev, CL_COMPLETE, &on_complete, j.get()) != CL_SUCCESS) {
        end_pending_write(j.get());
        if (locks) locks->release();
      }
    } catch (...) {  // no memory, or the retain failed: the entry is not written (the launch is
                     // unaffected), so waiting processes may build
      if (locks) locks->release();
    }
  }

  /// Saves in the driver's callback: POCL runs CL_COMPLETE callbacks before a dependent blocking
  /// read returns, so the entry is written before the caller sees its first result and before it
  /// can exit (a save on another thread raced process exit and crashed).
  static void CL_CALLBACK on_complete(cl_event, cl_int status, void* user) noexcept {
    auto* j = static_cast<job*>(user);
    std::shared_ptr<pending_save> claimed = claim_pending_write(j);
    if (!claimed) return;         // abandoned: it holds nothing any more
    if (status == CL_COMPLETE) {  // a failed launch proves nothing about the binary
      try {
        j->hook->save(j->prog);
      } catch (...) {  // a cache that cannot be written is never fatal
      }
    }
    if (j->hook->locks) j->hook->locks->release();  // written (or not): waiting processes go on
    end_pending_write(j);
  }

  void save(const program& p) const {
    auto built_for = p.devices();
    auto bins = p.binaries();
    for (std::size_t i = 0; i < devices.size(); ++i)
      for (std::size_t j = 0; j < built_for.size() && j < bins.size(); ++j)
        if (built_for[j] == devices[i] && !bins[j].empty()) cache_write(folder, keys[i], bins[j]);
  }
};

}  // namespace

std::optional<disk_cache> disk_cache::open(const std::string& dir) {
  const bool shared = cache_shared_by_env();
  const double wait = cache_wait_seconds();
  std::optional<cache_folder> folder = open_cache_folder(dir, shared);
  if (!folder) return std::nullopt;
  return disk_cache(std::move(*folder), wait);
}

disk_cache::lookup_result disk_cache::lookup(const std::vector<digest>& keys) const {
  lookup_result out;
  std::vector<std::optional<std::vector<unsigned char>>> bins(keys.size());
  auto read_missing = [&] {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (!bins[i]) bins[i] = cache_read(folder_, keys[i]);
      if (!bins[i]) return false;
    }
    return true;
  };
  bool all = read_missing();
  while (out.at_once < bins.size() && bins[out.at_once]) ++out.at_once;
  if (!all) {
    // Another process may be building the same entries: take their locks, or wait for them.
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(wait_));
    for (bool waited = false;; waited = true) {
      std::vector<digest> missing;
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (!bins[i]) missing.push_back(keys[i]);
      cache_locks::outcome o = out.locks->try_lock(folder_, missing);
      if (o == cache_locks::outcome::locked) {
        all = read_missing();  // written just before the lock was taken
        if (all) out.locks->release();
        if (all && !waited) out.at_once = static_cast<unsigned>(keys.size());
        break;
      }
      if (o != cache_locks::outcome::busy || std::chrono::steady_clock::now() >= deadline)
        break;  // build without the lock: ours, none to be had, or waited long enough
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
      if ((all = read_missing())) break;
    }
  }
  if (all) {
    out.binaries.emplace();
    for (auto& b : bins) out.binaries->push_back(std::move(*b));
  }
  return out;
}

void disk_cache::accepted(const lookup_result& found) noexcept {
  const auto got = found.binaries ? static_cast<unsigned>(found.binaries->size()) : 0U;
  count(cache_event::hit, found.at_once);
  count(cache_event::wait, got - found.at_once);
}

void disk_cache::reject(const std::vector<digest>& keys, const std::string& why) const {
  for (const auto& k : keys) cache_reject(folder_, k, why);
}

void disk_cache::save_after_first_launch(program& p, const std::vector<device>& devices,
                                         std::vector<digest> keys,
                                         std::unique_ptr<cache_locks> locks) const {
  auto hook = std::make_shared<save_on_launch>();
  hook->prog = p.get();
  hook->folder = folder_;
  hook->devices = devices;
  hook->keys = std::move(keys);
  hook->locks = std::move(locks);
  p.set_launch_hook(std::move(hook));
}

}  // namespace anycl::detail
