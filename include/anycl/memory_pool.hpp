// SPDX-License-Identifier: Apache-2.0
// The array layer's memory pool: arrays and the algorithms' temporaries take their buffers from a
// caching allocator per context, so that a loop of small operations does not create and release a
// buffer per step. ANYCL_POOL=off turns it off.
#pragma once

#include <cstdint>

#include "anycl/context.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// What a context's memory pool holds and has done (all zero for a context without arrays).
struct pool_statistics {
  bool enabled = false;             ///< false under ANYCL_POOL=off: every block is a new buffer
  std::uint64_t hits = 0;           ///< blocks given out again from those held
  std::uint64_t misses = 0;         ///< blocks given out as new buffers
  std::uint64_t blocks_in_use = 0;  ///< blocks given out and not yet returned
  std::uint64_t bytes_in_use = 0;   ///< their bytes (their size classes, not the bytes asked for)
  std::uint64_t blocks_held = 0;    ///< returned blocks kept for reuse
  std::uint64_t bytes_held = 0;     ///< their bytes
  std::uint64_t bytes_trimmed = 0;  ///< bytes of held blocks released to the driver so far
};

/// The statistics of the pool of `ctx`. The pool lives as long as an array (or a temporary of an
/// algorithm) of the context; without one the result is all zero, with `enabled` set as
/// ANYCL_POOL says. Throws std::invalid_argument for an empty context or a bad ANYCL_POOL.
ANYCL_EXPORT pool_statistics pool_stats(const context& ctx);

/// Releases the blocks `ctx`'s pool holds (none in use is touched) and returns their bytes. The
/// pool also trims itself before a buffer of the context would be refused for want of global
/// memory, and when its context's last array goes. Throws std::invalid_argument for an empty
/// context.
ANYCL_EXPORT std::uint64_t trim_pool(const context& ctx);

}  // namespace anycl
