// SPDX-License-Identifier: Apache-2.0
#include "cache/statistics.hpp"

#include <atomic>
#include <cstdint>

#include "anycl/kernel_loader.hpp"

namespace anycl::detail {
namespace {
std::atomic<std::uint64_t> counts[6];
}

void count(cache_event e, unsigned n) noexcept { counts[static_cast<int>(e)] += n; }

}  // namespace anycl::detail

namespace anycl {

cache_statistics cache_stats() noexcept {
  auto get = [](detail::cache_event e) { return detail::counts[static_cast<int>(e)].load(); };
  using e = detail::cache_event;
  return {get(e::hit),   get(e::miss),          get(e::reject),
          get(e::write), get(e::write_failure), get(e::wait)};
}

void reset_cache_stats() noexcept {
  for (auto& c : detail::counts) c = 0;
}

}  // namespace anycl
