// SPDX-License-Identifier: Apache-2.0
// What the disk cache did in this process (anycl::cache_stats), counted by its parts.
#pragma once

namespace anycl::detail {

enum class cache_event { hit, miss, reject, write, write_failure, wait };
/// Adds `n` to the count of `e`; thread-safe.
void count(cache_event e, unsigned n = 1) noexcept;

}  // namespace anycl::detail
