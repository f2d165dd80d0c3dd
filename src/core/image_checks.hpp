// SPDX-License-Identifier: Apache-2.0
// What image creation and the queue's image commands check before the driver: formats, extents
// against the devices' limits, boxes against images and host pitches against their boxes.
#pragma once

#include <cstddef>

#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/image.hpp"

namespace anycl::detail {

cl_mem_object_type image_object_type(image_type type);
/// "2-D image", "1-D image array", ...
const char* image_type_name(image_type type);
/// The cl_image_desc of an image of `type` and `extent` (no pitches, no buffer).
cl_image_desc image_desc(image_type type, const image_extent& extent);
/// The image's size as OpenCL's coordinates count it: x, y (or the layer of a 1-D array), z (or
/// the layer of a 2-D array); 1 for an axis the type lacks.
image_point image_limits(image_type type, const image_extent& extent);

/// std::invalid_argument unless the context's devices support images, `format` for `type` and
/// `access`, and `extent` (at least 1, within the devices' limits, 1 on axes `type` lacks).
void check_image_create(const context& ctx, image_type type, const image_format& format,
                        const image_extent& extent, memory_access access);
/// std::out_of_range unless the box at `origin` of `region` lies in `img` (`what` names it).
void check_box(const char* what, const image& img, const image_point& origin,
               const image_point& region);
/// std::invalid_argument unless host pitches hold the box `region` of `pixel` bytes a pixel (0:
/// packed) for an image of `type`.
void check_host_pitches(const char* what, std::size_t pixel, image_type type,
                        const image_point& region, std::size_t row_pitch, std::size_t slice_pitch);

}  // namespace anycl::detail
