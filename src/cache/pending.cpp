// SPDX-License-Identifier: Apache-2.0
#include "cache/pending.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "anycl/kernel_loader.hpp"
#include "core/process.hpp"

namespace anycl::detail {
namespace {
/// Saves begun by launches and not yet done. Never destroyed: a save may still be running on a
/// driver thread while the process exits.
struct pending_writes {
  struct entry {
    std::shared_ptr<pending_save> save;
    bool claimed = false;  // its callback is running it
  };
  std::mutex m;
  std::condition_variable cv;  // a save ended or was abandoned
  std::vector<entry> active;
  // Abandoned saves whose callback may still come: kept so that it finds them.
  std::vector<std::shared_ptr<pending_save>> abandoned;

  bool is_active(const pending_save* s) const {
    return std::any_of(active.begin(), active.end(),
                       [&](const entry& e) { return e.save.get() == s; });
  }
};
pending_writes& pending() {
  static auto* p = new pending_writes;
  return *p;
}

/// Abandons the unclaimed saves in `saves` whose launch failed (after waiting for the launch
/// when `wait` is set): their callbacks may never run.
void abandon_failed(const std::vector<std::shared_ptr<pending_save>>& saves, bool wait) noexcept {
  auto& p = pending();
  for (const auto& s : saves) {
    cl_event ev = s->launch;
    if (wait) clWaitForEvents(1, &ev);  // its failure shows in the status below
    cl_int exec = CL_COMPLETE;
    if (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, nullptr) ==
            CL_SUCCESS &&
        exec >= 0)
      continue;
    {
      std::lock_guard<std::mutex> lock(p.m);
      auto it = std::find_if(p.active.begin(), p.active.end(),
                             [&](const pending_writes::entry& e) { return e.save == s; });
      if (it == p.active.end() || it->claimed) continue;
      p.active.erase(it);
      try {
        p.abandoned.push_back(s);
      } catch (...) {  // no memory: the callback, if it ever came, would find nothing
        continue;
      }
    }
    s->abandon();
    p.cv.notify_all();
  }
}

/// The unclaimed saves now pending.
std::vector<std::shared_ptr<pending_save>> unclaimed() {
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  std::vector<std::shared_ptr<pending_save>> out;
  for (const auto& e : p.active)
    if (!e.claimed) out.push_back(e.save);
  return out;
}

/// At exit, lets saves begun by completed launches finish (bounded, so that a stuck driver cannot
/// hang the exit).
struct wait_at_exit {
  ~wait_at_exit() {
    if (in_forked_child()) return;
    try {
      abandon_failed(unclaimed(), false);
    } catch (...) {  // no memory for the list: the bounded wait below still ends
    }
    auto& p = pending();
    std::unique_lock<std::mutex> lock(p.m);
    p.cv.wait_for(lock, std::chrono::seconds(10), [&] { return p.active.empty(); });
  }
};

}  // namespace

void begin_pending_write(std::shared_ptr<pending_save> save) {
  static wait_at_exit waiter;
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  p.active.push_back({std::move(save), false});
}

std::shared_ptr<pending_save> claim_pending_write(pending_save* save) noexcept {
  auto& p = pending();
  std::lock_guard<std::mutex> lock(p.m);
  for (auto& e : p.active)
    if (e.save.get() == save) {
      e.claimed = true;
      return e.save;
    }
  auto it = std::find_if(p.abandoned.begin(), p.abandoned.end(),
                         [&](const std::shared_ptr<pending_save>& s) { return s.get() == save; });
  if (it != p.abandoned.end()) p.abandoned.erase(it);
  return nullptr;
}

void end_pending_write(pending_save* save) noexcept {
  auto& p = pending();
  std::shared_ptr<pending_save> last;  // released after the lock
  {
    std::lock_guard<std::mutex> lock(p.m);
    auto it = std::find_if(p.active.begin(), p.active.end(),
                           [&](const pending_writes::entry& e) { return e.save.get() == save; });
    if (it == p.active.end()) return;
    last = std::move(it->save);
    p.active.erase(it);
  }
  p.cv.notify_all();
}

}  // namespace anycl::detail

namespace anycl {

void wait_for_cache_writes() {
  auto& p = detail::pending();
  std::vector<std::shared_ptr<detail::pending_save>> started;
  {
    std::lock_guard<std::mutex> lock(p.m);
    for (const auto& e : p.active) started.push_back(e.save);
  }
  // Waits for each launch; the saves of failed ones are abandoned (their callbacks may never run).
  detail::abandon_failed(started, true);
  std::unique_lock<std::mutex> lock(p.m);
  p.cv.wait(lock, [&] {
    return std::none_of(started.begin(), started.end(),
                        [&](const auto& s) { return p.is_active(s.get()); });
  });
}

}  // namespace anycl
