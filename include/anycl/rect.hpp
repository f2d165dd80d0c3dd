// SPDX-License-Identifier: Apache-2.0
// Rectangular transfers (clEnqueue{Read,Write,Copy}BufferRect): a 3-D box of bytes in a buffer or
// in host memory laid out in rows and slices, as OpenCL describes it.
#pragma once

#include <array>
#include <cstddef>

namespace anycl {

/// A box's extents: {bytes of a row, rows, slices}. A zero extent makes the transfer a no-op.
using rect_region = std::array<std::size_t, 3>;

/// One side of a rectangular transfer: where its box starts, as {byte in the row, row, slice},
/// and the memory's layout: bytes from a row to the next, and from a slice to the next. A pitch
/// of 0 means packed, as in OpenCL: the region's row width, and rows x the row pitch. A row
/// pitch is at least the region's width; a slice pitch at least its rows x the row pitch, and a
/// multiple of the row pitch.
struct rect_side {
  std::array<std::size_t, 3> origin{};
  std::size_t row_pitch = 0;
  std::size_t slice_pitch = 0;
};

}  // namespace anycl
