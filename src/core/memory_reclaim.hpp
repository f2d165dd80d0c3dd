// SPDX-License-Identifier: Apache-2.0
// The hook through which a buffer that the global-memory accounting would refuse first asks the
// layers above (the array layer's memory pool) to release what they hold in its context.
#pragma once

#include <cstdint>

#include "anycl/cl.hpp"

namespace anycl::detail {

/// Releases what is cached in `ctx` and returns its bytes (0 when nothing). Never throws.
using memory_reclaimer = std::uint64_t (*)(cl_context ctx) noexcept;

/// Sets the one reclaimer (the array layer's; later calls replace it).
void set_memory_reclaimer(memory_reclaimer r) noexcept;

}  // namespace anycl::detail
