// SPDX-License-Identifier: Apache-2.0
// context_registry: what the array layer keeps per context (its kernels, its memory pool), found by
// the context's handle and held by weak references only, so it lives as long as an array of the
// context holds it and never in static storage.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "anycl/cl.hpp"

namespace anycl::detail {

template <class T>
class context_registry {
 public:
  /// The live entry of `ctx`, else the one `make()` returns (made outside the lock).
  template <class Make>
  std::shared_ptr<T> get(cl_context ctx, Make make) {
    if (std::shared_ptr<T> sp = find(ctx)) return sp;
    std::shared_ptr<T> made = make();
    std::lock_guard<std::mutex> lock(m_);
    for (auto i = entries_.begin(); i != entries_.end();)
      i = i->second.expired() ? entries_.erase(i) : std::next(i);
    std::weak_ptr<T>& slot = entries_[ctx];
    if (std::shared_ptr<T> raced = slot.lock()) return raced;  // another thread made one first
    slot = made;
    return made;
  }

  /// The live entry of `ctx`, or null.
  std::shared_ptr<T> find(cl_context ctx) {
    std::lock_guard<std::mutex> lock(m_);
    auto it = entries_.find(ctx);
    return it == entries_.end() ? nullptr : it->second.lock();
  }

 private:
  std::mutex m_;
  std::map<cl_context, std::weak_ptr<T>> entries_;
};

/// A registry that is never destroyed: arrays may outlive static destruction at exit.
template <class T>
context_registry<T>& registry_of() {
  static auto* r = new context_registry<T>();
  return *r;
}

}  // namespace anycl::detail
