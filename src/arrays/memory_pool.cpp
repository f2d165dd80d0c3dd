// SPDX-License-Identifier: Apache-2.0
#include "arrays/memory_pool.hpp"

#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "anycl/device.hpp"
#include "anycl/error.hpp"
#include "arrays/context_registry.hpp"
#include "core/memory_reclaim.hpp"

namespace anycl::detail {

std::size_t pool_class_size(std::size_t bytes) noexcept {
  if (bytes <= 256) return 256;
  std::size_t step = 64;  // a quarter of the power of two at or below `bytes`
  while (step <= bytes / 8) step *= 2;
  if (bytes > std::numeric_limits<std::size_t>::max() - (step - 1)) return bytes;
  return (bytes + step - 1) / step * step;
}

bool pool_enabled_by_env() {
  const char* v = std::getenv("ANYCL_POOL");
  if (v == nullptr || *v == '\0') return true;
  const std::string s = v;
  if (s == "on") return true;
  if (s == "off") return false;
  throw std::invalid_argument("ANYCL_POOL='" + s +
                              "' is not a pool setting: use on (arrays reuse freed buffers of "
                              "their context) or off (every array and temporary is a new buffer)");
}

namespace {

// A held block can go out again once its last command is complete and the pool's is the only
// reference: drivers retain a buffer while commands use it, and a handle copied out of an array
// (array::buffer()) keeps it too, so such a block is never reused. A failed query throws.
enum class reuse { now, later, never };

reuse reusable(const memory_pool::block& b) {
  if (b.ready) {
    cl_int status = CL_COMPLETE;
    const cl_int err = clGetEventInfo(b.ready.get(), CL_EVENT_COMMAND_EXECUTION_STATUS,
                                      sizeof status, &status, nullptr);
    if (err != CL_SUCCESS)
      throw_api_error("clGetEventInfo", err,
                      "the memory pool's check of a held block's last command");
    if (status < 0) return reuse::never;
    if (status != CL_COMPLETE) return reuse::later;
  }
  cl_uint refs = 0;
  const cl_int err =
      clGetMemObjectInfo(b.buf.get(), CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
  if (err != CL_SUCCESS)
    throw_api_error("clGetMemObjectInfo", err, "the memory pool's check of a held block");
  return refs == 1 ? reuse::now : reuse::never;
}

}  // namespace

anycl::buffer memory_pool::take_held(std::size_t bytes, std::size_t most) {
  std::vector<block> dropped;  // released after the lock
  std::lock_guard<std::mutex> lock(m_);
  for (auto it = held_.lower_bound(bytes); it != held_.end() && it->first <= most;) {
    reuse r = reuse::never;
    try {
      r = reusable(it->second);
    } catch (...) {
      // The block whose state is unknown goes back to the driver.
      stats_.blocks_held -= 1;
      stats_.bytes_held -= it->first;
      dropped.push_back(std::move(it->second));
      held_.erase(it);
      throw;
    }
    if (r == reuse::later) {
      ++it;
      continue;
    }
    stats_.blocks_held -= 1;
    stats_.bytes_held -= it->first;
    block b = std::move(it->second);
    it = held_.erase(it);
    if (r == reuse::never) {
      dropped.push_back(std::move(b));
      continue;
    }
    stats_.hits += 1;
    stats_.blocks_in_use += 1;
    stats_.bytes_in_use += b.buf.size();
    return std::move(b.buf);
  }
  return {};
}

memory_pool::memory_pool(const context& ctx, bool enabled) : ctx_(ctx), enabled_(enabled) {
  for (const device& d : ctx_.devices()) {
    const std::uint64_t m = d.max_alloc();
    if (max_alloc_ == 0 || m < max_alloc_) max_alloc_ = m;
  }
}

anycl::buffer memory_pool::create(std::size_t bytes) {
  anycl::buffer buf(ctx_, bytes);
  std::lock_guard<std::mutex> lock(m_);
  stats_.misses += 1;
  stats_.blocks_in_use += 1;
  stats_.bytes_in_use += buf.size();
  return buf;
}

anycl::buffer memory_pool::acquire(std::size_t bytes) {
  if (!enabled_) return create(bytes);
  // A class past CL_DEVICE_MAX_MEM_ALLOC_SIZE is cut to it, so a request that fits gets a block.
  std::size_t want = pool_class_size(bytes);
  if (want > max_alloc_ && bytes <= max_alloc_) want = static_cast<std::size_t>(max_alloc_);
  anycl::buffer held = take_held(bytes, want);
  if (held.get() != nullptr) return held;
  return create(want);
}

void memory_pool::release(block b) noexcept {
  if (b.buf.get() == nullptr) return;
  const std::size_t size = b.buf.size();
  std::lock_guard<std::mutex> lock(m_);
  stats_.blocks_in_use -= 1;
  stats_.bytes_in_use -= size;
  if (!enabled_) return;
  try {
    held_.emplace(size, std::move(b));
  } catch (...) {
    return;  // out of host memory: the buffer goes back to the driver instead
  }
  stats_.blocks_held += 1;
  stats_.bytes_held += size;
}

std::uint64_t memory_pool::trim(bool wait) noexcept {
  std::multimap<std::size_t, block> out;
  {
    std::lock_guard<std::mutex> lock(m_);
    out.swap(held_);
    stats_.bytes_trimmed += stats_.bytes_held;
    stats_.blocks_held = 0;
    stats_.bytes_held = 0;
  }
  std::uint64_t bytes = 0;
  for (auto& [size, b] : out) {
    bytes += size;
    if (!wait || !b.ready) continue;
    try {
      b.ready.wait();
    } catch (...) {
      // a failed command: its buffer is released all the same
    }
  }
  return bytes;
}

pool_statistics memory_pool::statistics() const {
  std::lock_guard<std::mutex> lock(m_);
  pool_statistics s = stats_;
  s.enabled = enabled_;
  return s;
}

namespace {

std::uint64_t trim_pool_of(cl_context ctx) noexcept {
  std::shared_ptr<memory_pool> pool = registry_of<memory_pool>().find(ctx);
  return pool ? pool->trim(true) : 0;
}

void require_context(const context& ctx, const char* what) {
  if (!ctx)
    throw std::invalid_argument(std::string(what) + ": the context is empty (default-constructed)");
}

}  // namespace

std::shared_ptr<memory_pool> pool_for(const context& ctx) {
  return registry_of<memory_pool>().get(ctx.get(), [&] {
    auto pool = std::make_shared<memory_pool>(ctx, pool_enabled_by_env());
    set_memory_reclaimer(&trim_pool_of);
    return pool;
  });
}

}  // namespace anycl::detail

namespace anycl {

pool_statistics pool_stats(const context& ctx) {
  detail::require_context(ctx, "pool_stats");
  if (auto pool = detail::registry_of<detail::memory_pool>().find(ctx.get()))
    return pool->statistics();
  pool_statistics s;
  s.enabled = detail::pool_enabled_by_env();
  return s;
}

std::uint64_t trim_pool(const context& ctx) {
  detail::require_context(ctx, "trim_pool");
  auto pool = detail::registry_of<detail::memory_pool>().find(ctx.get());
  return pool ? pool->trim(true) : 0;
}

}  // namespace anycl
