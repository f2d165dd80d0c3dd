// SPDX-License-Identifier: Apache-2.0
// Array layouts as the array layer's kernels take them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/rect.hpp"

namespace anycl::detail {

/// The row-major, gap-free layout of `s` at offset 0.
array_layout dense_layout(const anycl::shape& s) noexcept;
/// One past the furthest element of `l` (0 when empty), for bounds checks.
std::size_t layout_span(const array_layout& l) noexcept;
/// Layouts of equal extents with their axes of extent 1 dropped and each pair of neighbouring axes
/// merged where every layout allows it: the same elements in the same row-major order, in as few
/// dimensions as can be (at least one). A dense layout becomes 1-D.
std::vector<array_layout> collapsed(const std::vector<array_layout>& layouts);
/// The box of a rectangular transfer (command_queue::read_rect, write_rect) that holds the
/// elements of `l`, of `elem_bytes` each, packed on the host in row-major order: where `l`
/// collapses to 2 or 3 axes, the last of stride 1, with rows and slices that do not overlap.
/// False for any other layout (a contiguous one included: it needs no box).
bool rect_of(const array_layout& l, std::size_t elem_bytes, rect_side& side, rect_region& region);
/// The library kernels address at most 4 dimensions (the ulong4 of anycl_strided_index).
constexpr unsigned kernel_dims = 4;
/// Calls `fn` with `layouts` (equal extents) collapsed, when that leaves at most kernel_dims
/// axes, else once for each index of the leading axes beyond them, with those axes fixed: the
/// blocks a 4-D kernel can address, in row-major order.
void for_each_block(const std::vector<array_layout>& layouts,
                    const std::function<void(const std::vector<array_layout>&)>& fn);
/// The extents and strides of a layout of at most 4 dimensions padded to 4 (leading extents 1,
/// strides 0), as anycl_strided_index() in loop.h takes them; std::logic_error for more.
cl_ulong4 padded_extents(const array_layout& l);
cl_ulong4 padded_strides(const array_layout& l);
/// The same padded to 8, as anycl_strided_index8() takes them (any layout).
cl_ulong8 padded_extents8(const array_layout& l);
cl_ulong8 padded_strides8(const array_layout& l);

/// The index vector a generated kernel takes for a layout of `dims` axes: a ulong4 and
/// anycl_strided_index() up to 4, a ulong8 and anycl_strided_index8() beyond.
struct index_vector {
  cl_ulong8 lanes{};
  std::size_t bytes = 0;  ///< 32 or 64
};
const char* index_type(unsigned dims) noexcept;
const char* index_function(unsigned dims) noexcept;
/// The lane of the last axis in that vector: "w" or "s7".
const char* index_last_lane(unsigned dims) noexcept;
/// The index of element `k + j` of a run along the last axis of a layout of `dims` axes whose
/// element k is at `pos`: the last-axis stride (of `l`, named `st` in the kernel) is written in
/// when it is 0 or 1, so that such runs read one element or contiguous ones.
std::string run_index(const std::string& pos, const array_layout& l, const std::string& st);
/// `l`'s extents (`strides` false) or strides, padded to the vector of `dims` axes (>= l's).
index_vector index_of(const array_layout& l, unsigned dims, bool strides);

}  // namespace anycl::detail
