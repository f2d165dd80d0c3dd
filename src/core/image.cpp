// SPDX-License-Identifier: Apache-2.0
// Images and samplers: every size, format and mode checked before the
// driver (catalogue row B-75: POCL 3.1 takes row pitches too small for a read, and any value as
// a sampler's addressing mode).
#include "anycl/image.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "anycl/device.hpp"
#include "core/buffer_create.hpp"
#include "core/check.hpp"
#include "core/image_checks.hpp"
#include "core/process.hpp"

namespace anycl {

// --- image ---
std::vector<image_format> image::supported_formats(const anycl::context& ctx, image_type type,
                                                   memory_access access) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("image::supported_formats: the context is empty");
  const cl_mem_object_type t = detail::image_object_type(type);
  const cl_mem_flags flags = detail::flags_of(access);
  cl_uint n = 0;
  ANYCL_CHECK(clGetSupportedImageFormats(ctx.get(), flags, t, 0, nullptr, &n),
              "clGetSupportedImageFormats", detail::image_type_name(type));
  std::vector<cl_image_format> raw(n);
  if (n != 0)
    ANYCL_CHECK(clGetSupportedImageFormats(ctx.get(), flags, t, n, raw.data(), nullptr),
                "clGetSupportedImageFormats", detail::image_type_name(type));
  std::vector<image_format> out;
  for (const cl_image_format& f : raw)
    out.push_back({f.image_channel_order, f.image_channel_data_type});
  return out;
}

image::image(const anycl::context& ctx, image_type type, const image_format& format,
             const image_extent& extent, memory_access access)
    : image(ctx, type, format, extent, nullptr, 0, 0, access) {}

image::image(const anycl::context& ctx, image_type type, const image_format& format,
             const image_extent& extent, const void* data, std::size_t row_pitch,
             std::size_t slice_pitch, memory_access access)
    : type_(type), format_(format), extent_(extent) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("image: the context is empty");
  detail::check_image_create(ctx, type, format, extent, access);
  cl_image_desc desc = detail::image_desc(type, extent);
  cl_mem_flags flags = detail::flags_of(access);
  if (data != nullptr) {
    const image_point whole = region();
    detail::check_host_pitches("image", format.pixel_size(), type, whole, row_pitch, slice_pitch);
    desc.image_row_pitch = row_pitch;
    desc.image_slice_pitch = slice_pitch;
    flags |= CL_MEM_COPY_HOST_PTR;
  } else if (row_pitch != 0 || slice_pitch != 0) {
    throw std::invalid_argument("image: pitches given without host data");
  }
  const cl_image_format f{format.order, format.type};
  cl_int status = CL_SUCCESS;
  cl_mem raw = clCreateImage(ctx.get(), flags, &f, &desc, const_cast<void*>(data), &status);
  ANYCL_CHECK(status, "clCreateImage", detail::image_type_name(type), " ", format.to_string(), " ",
              extent.width, " x ", extent.height, " x ", extent.depth, ", ", extent.layers,
              " layers");
  h_ = detail::handle<cl_mem>::adopt(raw);
}

image_point image::region() const noexcept { return detail::image_limits(type_, extent_); }

// --- sampler ---
sampler::sampler(const anycl::context& ctx, bool normalized_coords, addressing_mode addressing,
                 filter_mode filter)
    : normalized_(normalized_coords), addressing_(addressing), filter_(filter) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("sampler: the context is empty");
  if (!normalized_coords &&
      (addressing == addressing_mode::repeat || addressing == addressing_mode::mirrored_repeat))
    throw std::invalid_argument(
        "sampler: repeat and mirrored_repeat addressing need normalized coordinates (OpenCL "
        "leaves them undefined otherwise)");
  const cl_addressing_mode a[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                  CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  // Every property given: POCL 3.1 refuses a null list (CL_INVALID_VALUE).
  const cl_sampler_properties props[] = {
      CL_SAMPLER_NORMALIZED_COORDS,
      static_cast<cl_sampler_properties>(normalized_coords ? CL_TRUE : CL_FALSE),
      CL_SAMPLER_ADDRESSING_MODE,
      a[static_cast<int>(addressing)],
      CL_SAMPLER_FILTER_MODE,
      static_cast<cl_sampler_properties>(filter == filter_mode::linear ? CL_FILTER_LINEAR
                                                                       : CL_FILTER_NEAREST),
      0};
  cl_int status = CL_SUCCESS;
  cl_sampler raw = clCreateSamplerWithProperties(ctx.get(), props, &status);
  ANYCL_CHECK(status, "clCreateSamplerWithProperties",
              normalized_coords ? "normalized" : "unnormalized", " coordinates");
  h_ = detail::handle<cl_sampler>::adopt(raw);
}

}  // namespace anycl
