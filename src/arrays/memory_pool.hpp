// SPDX-License-Identifier: Apache-2.0
// memory_pool: the caching allocator behind arrays and the algorithms' temporaries, one per
// context. A returned block keeps the event of the last command that used it, and is given out
// again only once that command is complete and nothing else holds the buffer, so a new array
// never sees a pending command's bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/context.hpp"
#include "anycl/event.hpp"
#include "anycl/memory_pool.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// Bytes of the size class that serves a request of `bytes`: 256 at least, then four classes per
/// power of two, so a block wastes under a fifth of itself.
ANYCL_INTERNAL std::size_t pool_class_size(std::size_t bytes) noexcept;

/// ANYCL_POOL: unset, empty or "on" = on, "off" = off; anything else throws std::invalid_argument.
ANYCL_INTERNAL bool pool_enabled_by_env();

class memory_pool {
 public:
  /// A buffer and the last command that used its bytes (empty when none).
  struct block {
    anycl::buffer buf;
    event ready;
  };

  memory_pool(const context& ctx, bool enabled);
  memory_pool(const memory_pool&) = delete;
  memory_pool& operator=(const memory_pool&) = delete;
  ~memory_pool() { trim(false); }

  /// A buffer of at least `bytes` (> 0): a held block of the request's size class whose last
  /// command is complete, else a new buffer of the class (the global-memory accounting has the
  /// pool trimmed before it refuses one). Throws as buffer's constructor does.
  anycl::buffer acquire(std::size_t bytes);
  /// Takes `b` back; `b.ready` is the last command that used it. Off, it releases the buffer.
  void release(block b) noexcept;
  /// Releases every held block and returns their bytes; with `wait`, after their last commands,
  /// so that the driver frees them now.
  std::uint64_t trim(bool wait) noexcept;
  pool_statistics statistics() const;

 private:
  anycl::buffer take_held(std::size_t bytes, std::size_t most);
  anycl::buffer create(std::size_t bytes);

  context ctx_;
  bool enabled_;
  std::uint64_t max_alloc_ = 0;  // the smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE of the context
  mutable std::mutex m_;
  std::multimap<std::size_t, block> held_;  // by buffer size
  pool_statistics stats_;
};

/// The pool of `ctx`, made on first use (ANYCL_POOL read then) and kept while a holder lives.
std::shared_ptr<memory_pool> pool_for(const context& ctx);

/// A temporary buffer of an algorithm, taken from its context's pool and given back when it goes,
/// with the last command that used it: record() each command that does.
class scratch_buffer {
 public:
  scratch_buffer(const command_queue& q, std::size_t bytes)
      : pool_(pool_for(q.context())), buf_(pool_->acquire(bytes)) {}
  scratch_buffer(scratch_buffer&&) noexcept = default;
  scratch_buffer& operator=(scratch_buffer&&) = delete;
  ~scratch_buffer() {
    if (pool_) pool_->release({std::move(buf_), std::move(last_)});
  }

  const anycl::buffer& buffer() const noexcept { return buf_; }
  /// `e` is the latest command using the buffer; returns it.
  const event& record(const event& e) {
    last_ = e;
    return e;
  }

 private:
  std::shared_ptr<memory_pool> pool_;
  anycl::buffer buf_;
  event last_;
};

}  // namespace anycl::detail
