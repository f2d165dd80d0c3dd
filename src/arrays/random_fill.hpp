// SPDX-License-Identifier: Apache-2.0
// The fill behind random_generator, and the Philox blocks a fill consumes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "anycl/random.hpp"
#include "arrays/launch_plan.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// The Philox counters (128-bit blocks) a fill of `n` elements of `t` consumes: ceil(n / 4) for
/// 32-bit elements, ceil(n / 2) for 64-bit ones.
ANYCL_INTERNAL std::uint64_t random_blocks(scalar_type t, std::size_t n) noexcept;

/// The work-items' unit: groups of 8 blocks, ceil(random_blocks / 8).
ANYCL_INTERNAL std::uint64_t random_groups(scalar_type t, std::size_t n) noexcept;

/// The fill behind random_generator, with an explicit launch plan (plan.cpu selects the chunked
/// or the grid-stride loop over groups of 8 blocks, whatever the device): for tests that check the
/// results never depend on the launch shape. Parameters are checked by the caller; a plan that
/// leaves groups unwritten (cpu: global * chunk below random_groups) throws
/// std::invalid_argument.
ANYCL_INTERNAL void random_fill(const array_core& a, random_distribution d, std::uint64_t seed,
                                std::uint64_t offset, double p0, double p1,
                                const launch_plan& plan);

}  // namespace anycl::detail
