// SPDX-License-Identifier: Apache-2.0
// The checks of images and their boxes, before the driver (catalogue row B-75).
#include "core/image_checks.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "anycl/device.hpp"
#include "core/check.hpp"

namespace anycl::detail {

cl_mem_object_type image_object_type(image_type type) {
  switch (type) {
    case image_type::image1d:
      return CL_MEM_OBJECT_IMAGE1D;
    case image_type::image1d_array:
      return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case image_type::image2d:
      return CL_MEM_OBJECT_IMAGE2D;
    case image_type::image2d_array:
      return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case image_type::image3d:
      return CL_MEM_OBJECT_IMAGE3D;
  }
  return CL_MEM_OBJECT_IMAGE2D;
}

const char* image_type_name(image_type type) {
  switch (type) {
    case image_type::image1d:
      return "1-D image";
    case image_type::image1d_array:
      return "1-D image array";
    case image_type::image2d:
      return "2-D image";
    case image_type::image2d_array:
      return "2-D image array";
    case image_type::image3d:
      return "3-D image";
  }
  return "image";
}

cl_image_desc image_desc(image_type type, const image_extent& extent) {
  cl_image_desc d{};
  d.image_type = image_object_type(type);
  d.image_width = extent.width;
  if (type == image_type::image2d || type == image_type::image2d_array ||
      type == image_type::image3d)
    d.image_height = extent.height;
  if (type == image_type::image3d) d.image_depth = extent.depth;
  if (type == image_type::image1d_array || type == image_type::image2d_array)
    d.image_array_size = extent.layers;
  return d;
}

image_point image_limits(image_type type, const image_extent& e) {
  switch (type) {
    case image_type::image1d:
      return {e.width, 1, 1};
    case image_type::image1d_array:
      return {e.width, e.layers, 1};
    case image_type::image2d:
      return {e.width, e.height, 1};
    case image_type::image2d_array:
      return {e.width, e.height, e.layers};
    case image_type::image3d:
      return {e.width, e.height, e.depth};
  }
  return {e.width, e.height, e.depth};
}

namespace {

// A device's largest extent along one axis, and the query that reports it.
struct axis_limit {
  std::size_t value = 1;
  const char* query = "";
};

// The device's largest width, height, depth and layer count for `type` (1 where it has no such
// axis). 1-D images share the 2-D width.
std::array<axis_limit, 4> image_axis_limits(const device& d, image_type type) {
  const bool three = type == image_type::image3d;
  const bool array = type == image_type::image1d_array || type == image_type::image2d_array;
  const auto q = [&](cl_device_info p, const char* name) {
    return axis_limit{d.info<std::size_t>(p), name};
  };
  std::array<axis_limit, 4> lim;
  lim[0] = three ? q(CL_DEVICE_IMAGE3D_MAX_WIDTH, "CL_DEVICE_IMAGE3D_MAX_WIDTH")
                 : q(CL_DEVICE_IMAGE2D_MAX_WIDTH, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
  lim[1] = three ? q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, "CL_DEVICE_IMAGE3D_MAX_HEIGHT")
                 : q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, "CL_DEVICE_IMAGE2D_MAX_HEIGHT");
  if (three) lim[2] = q(CL_DEVICE_IMAGE3D_MAX_DEPTH, "CL_DEVICE_IMAGE3D_MAX_DEPTH");
  if (array) lim[3] = q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, "CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");
  return lim;
}

void check_extent(const char* type_name, const char* axis, std::size_t value,
                  const axis_limit& limit, const std::string& device, bool has_axis) {
  if (!has_axis && value != 1)
    throw std::invalid_argument(
        cat("image: a ", type_name, " has no ", axis, " (", value, " given; leave it 1)"));
  if (value == 0) throw std::invalid_argument(cat("image: ", axis, " 0 (at least 1)"));
  if (value > limit.value)
    throw std::invalid_argument(cat("image: ", axis, " ", value, " exceeds '", device,
                                    "''s limit of ", limit.value, " for a ", type_name, " (",
                                    limit.query, ")"));
}

}  // namespace

void check_image_create(const context& ctx, image_type type, const image_format& format,
                        const image_extent& extent, memory_access access) {
  const char* name = image_type_name(type);
  format.pixel_size();  // throws for an order or type OpenCL does not define
  for (const device& d : ctx.devices()) {
    if (d.info<cl_bool>(CL_DEVICE_IMAGE_SUPPORT) != CL_TRUE)
      throw std::invalid_argument("image: device '" + d.name() +
                                  "' has no images (CL_DEVICE_IMAGE_SUPPORT is false)");
    const std::array<axis_limit, 4> lim = image_axis_limits(d, type);
    const bool has_height = type == image_type::image2d || type == image_type::image2d_array ||
                            type == image_type::image3d;
    check_extent(name, "width", extent.width, lim[0], d.name(), true);
    check_extent(name, "height", extent.height, lim[1], d.name(), has_height);
    check_extent(name, "depth", extent.depth, lim[2], d.name(), type == image_type::image3d);
    check_extent(name, "layer count", extent.layers, lim[3], d.name(),
                 type == image_type::image1d_array || type == image_type::image2d_array);
  }
  const auto formats = image::supported_formats(ctx, type, access);
  if (std::find(formats.begin(), formats.end(), format) == formats.end()) {
    std::string list;
    for (const image_format& f : formats) list += (list.empty() ? "" : ", ") + f.to_string();
    throw std::invalid_argument(cat("image: format ", format.to_string(),
                                    " is not supported for a ", name,
                                    " here; supported: ", list.empty() ? "none" : list));
  }
}

void check_box(const char* what, const image& img, const image_point& origin,
               const image_point& region) {
  if (!img) throw std::invalid_argument(std::string(what) + ": the image is empty");
  const image_point lim = img.region();
  for (int a = 0; a < 3; ++a) {
    const auto i = static_cast<std::size_t>(a);
    if (origin[i] > lim[i] || region[i] > lim[i] - origin[i])
      throw std::out_of_range(cat(what, ": box at (", origin[0], ", ", origin[1], ", ", origin[2],
                                  ") of (", region[0], ", ", region[1], ", ", region[2],
                                  ") exceeds the ", image_type_name(img.type()), " of (", lim[0],
                                  ", ", lim[1], ", ", lim[2], ")"));
  }
}

void check_host_pitches(const char* what, std::size_t pixel, image_type type,
                        const image_point& region, std::size_t row_pitch, std::size_t slice_pitch) {
  const std::size_t row = region[0] * pixel;
  if (row_pitch != 0 && row_pitch < row)
    throw std::invalid_argument(cat(what, ": row pitch ", row_pitch, " is below a row of ",
                                    region[0], " pixels (", row, " bytes)"));
  const std::size_t rows = row_pitch != 0 ? row_pitch : row;
  // A 1-D array's layers are its rows; other types' slices hold region[1] rows.
  const bool layered_rows = type == image_type::image1d_array;
  const std::size_t slice = layered_rows ? rows : rows * region[1];
  const bool has_slices = type == image_type::image1d_array || type == image_type::image2d_array ||
                          type == image_type::image3d;
  if (!has_slices && slice_pitch != 0)
    throw std::invalid_argument(cat(what, ": a slice pitch for a ", image_type_name(type),
                                    ", which has no slices (give 0)"));
  if (slice_pitch != 0 && slice_pitch < slice)
    throw std::invalid_argument(
        cat(what, ": slice pitch ", slice_pitch, " is below a slice of ", slice, " bytes"));
  if (slice_pitch != 0 && row_pitch != 0 && !layered_rows && slice_pitch % row_pitch != 0)
    throw std::invalid_argument(cat(what, ": slice pitch ", slice_pitch,
                                    " is not a multiple of the row pitch ", row_pitch));
}

}  // namespace anycl::detail
