// SPDX-License-Identifier: Apache-2.0
// Stream compaction and histograms, the compress and histogram forms of detail::index_builtin
// (anycl/indexing.hpp).
#pragma once

#include "anycl/indexing.hpp"

namespace anycl::detail {

/// `r.values` (flattened), or the flat indices when null, where `r.mask` is non-zero, in order,
/// as a new 1-D array. Blocks until the number of selected elements is known.
array_core compact(const index_request& r);
/// The r.bins uint64 counts of the histogram of r.mask's values (histogram.cpp).
array_core histogram(const index_request& r);

}  // namespace anycl::detail
