// SPDX-License-Identifier: Apache-2.0
// Must not compile: a reduction of half values (reduce anycl::cast<float>(x) instead; CTest checks
// the static_assert text).
#include "anycl/anycl.hpp"

float total(const anycl::array<anycl::half>& h) { return anycl::sum(h * h); }
