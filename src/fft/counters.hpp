// SPDX-License-Identifier: Apache-2.0
// Counts of AnyCL's calls into clFFT, for tests. Private to the library and its tests.
#pragma once

#include <cstddef>

#include "core/internal.hpp"

namespace anycl::detail {

/// How many times AnyCL called into clFFT, clfftSetup and clfftTeardown in this process, and the
/// guards alive now: lets tests prove that refused input reached no clFFT call and that setup and
/// teardown pair up. Not API.
struct fft_counters {
  std::size_t calls = 0, setups = 0, teardowns = 0, guards = 0;
};
ANYCL_INTERNAL fft_counters fft_library_counters();

}  // namespace anycl::detail
