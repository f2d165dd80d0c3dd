// SPDX-License-Identifier: Apache-2.0
// Images (1-D, 2-D and 3-D, and arrays of 1-D and 2-D layers) with typed formats, and samplers.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/export.hpp"
#include "anycl/kernel.hpp"

namespace anycl {

/// An image's pixel layout (cl_image_format): a channel order (CL_R, CL_RGBA, ...) and a channel
/// type (CL_UNORM_INT8, CL_FLOAT, ...), as OpenCL names them.
struct ANYCL_EXPORT image_format {
  cl_channel_order order = CL_RGBA;
  cl_channel_type type = CL_UNORM_INT8;

  /// Channels per pixel; std::invalid_argument for an order OpenCL does not define.
  std::size_t channels() const;
  /// Bytes per pixel; std::invalid_argument for an order or type OpenCL does not define.
  std::size_t pixel_size() const;
  /// "CL_RGBA/CL_UNORM_INT8" (a number for a value OpenCL does not define).
  std::string to_string() const;
  /// The format to_string() names: "CL_RGBA/CL_UNORM_INT8", in any case and with the "CL_"
  /// prefixes optional ("r/float"). std::invalid_argument listing the names otherwise.
  static image_format parse(std::string_view text);
  /// What a kernel reads and fill_image takes: 'f' (read_imagef: normalized and float types),
  /// 'i' (read_imagei: signed integers) or 'u' (read_imageui: unsigned integers).
  char read_kind() const;
  friend bool operator==(const image_format& a, const image_format& b) noexcept {
    return a.order == b.order && a.type == b.type;
  }
  friend bool operator!=(const image_format& a, const image_format& b) noexcept {
    return !(a == b);
  }
};

/// The image types (CL_MEM_OBJECT_IMAGE*).
enum class image_type { image1d, image1d_array, image2d, image2d_array, image3d };

/// An image's size in pixels: width, height (1-D: 1), depth (3-D only, else 1) and layers (arrays
/// only, else 1).
struct image_extent {
  std::size_t width = 1, height = 1, depth = 1, layers = 1;
};

/// A point or a size in an image, in pixels: x, y, z. A layer of an array is its last coordinate
/// (y of a 1-D array, z of a 2-D array), as OpenCL counts it.
using image_point = std::array<std::size_t, 3>;

/// Owns an image (clCreateImage). Copies share it, as buffers do.
class ANYCL_EXPORT image {
 public:
  image() noexcept = default;
  /// An uninitialised image. Checks before the driver: the devices support images
  /// (CL_DEVICE_IMAGE_SUPPORT) and `format` for `type` and `access` (clGetSupportedImageFormats),
  /// every extent is at least 1, fits the devices' limits (CL_DEVICE_IMAGE2D_MAX_WIDTH, ...) and
  /// is 1 where `type` has no such axis; std::invalid_argument naming what is wrong otherwise.
  image(const anycl::context& ctx, image_type type, const image_format& format,
        const image_extent& extent, memory_access access = memory_access::read_write);
  /// The same, filled from host memory (CL_MEM_COPY_HOST_PTR) laid out with `row_pitch` and
  /// `slice_pitch` bytes between rows and slices (0: tightly packed); a pitch smaller than its
  /// rows or slices, or null `data`, is std::invalid_argument.
  image(const anycl::context& ctx, image_type type, const image_format& format,
        const image_extent& extent, const void* data, std::size_t row_pitch = 0,
        std::size_t slice_pitch = 0, memory_access access = memory_access::read_write);

  /// The formats the context's devices support for `type` and `access`.
  static std::vector<image_format> supported_formats(const anycl::context& ctx, image_type type,
                                                     memory_access access);

  cl_mem get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }
  image_type type() const noexcept { return type_; }
  const image_format& format() const noexcept { return format_; }
  const image_extent& extent() const noexcept { return extent_; }
  std::size_t pixel_size() const { return format_.pixel_size(); }
  /// The whole image as a region for the queue's image commands.
  image_point region() const noexcept;

 private:
  detail::handle<cl_mem> h_;
  image_type type_ = image_type::image2d;
  image_format format_;
  image_extent extent_;
};

/// How a sampler treats coordinates outside the image (CL_ADDRESS_*).
enum class addressing_mode { none, clamp_to_edge, clamp, repeat, mirrored_repeat };
/// How a sampler picks pixels (CL_FILTER_*).
enum class filter_mode { nearest, linear };

/// Owns a sampler (clCreateSamplerWithProperties): how read_image* in a kernel reads an image.
class ANYCL_EXPORT sampler {
 public:
  sampler() noexcept = default;
  /// repeat and mirrored_repeat need normalized coordinates (std::invalid_argument otherwise).
  sampler(const anycl::context& ctx, bool normalized_coords, addressing_mode addressing,
          filter_mode filter);
  cl_sampler get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }
  bool normalized_coords() const noexcept { return normalized_; }
  addressing_mode addressing() const noexcept { return addressing_; }
  filter_mode filter() const noexcept { return filter_; }

 private:
  detail::handle<cl_sampler> h_;
  bool normalized_ = false;
  addressing_mode addressing_ = addressing_mode::clamp_to_edge;
  filter_mode filter_ = filter_mode::nearest;
};

/// Host access to a box of an image (command_queue::map_image, clEnqueueMapImage). Move-only;
/// the destructor unmaps and waits. Rows lie row_pitch() bytes apart, slices (or layers)
/// slice_pitch() bytes.
class mapped_image {
 public:
  mapped_image() = default;
  mapped_image(mapped_bytes m, std::size_t row_pitch, std::size_t slice_pitch) noexcept
      : m_(std::move(m)), row_pitch_(row_pitch), slice_pitch_(slice_pitch) {}
  void* data() const noexcept { return m_.get(); }
  std::size_t row_pitch() const noexcept { return row_pitch_; }
  std::size_t slice_pitch() const noexcept { return slice_pitch_; }
  /// The pixel at (x, y, z) of the box, as T.
  template <class T>
  T* pixel(std::size_t x, std::size_t y = 0, std::size_t z = 0) const noexcept {
    return reinterpret_cast<T*>(static_cast<char*>(data()) + z * slice_pitch_ + y * row_pitch_) + x;
  }
  event unmap() { return m_.unmap(); }

 private:
  mapped_bytes m_;
  std::size_t row_pitch_ = 0, slice_pitch_ = 0;
};

namespace detail {
template <>
struct param_kind<image> {
  static constexpr char value = 'i';
};
template <>
struct param_kind<sampler> {
  static constexpr char value = 's';
};
template <>
struct arg_traits<image> {
  static kernel_arg make(const image& i) noexcept { return memory_arg(i.get()); }
};
template <>
struct arg_traits<sampler> {
  static kernel_arg make(const sampler& s) noexcept {
    kernel_arg a;
    a.k = kernel_arg::kind::sampler;
    a.size = sizeof(cl_sampler);
    a.sampler = s.get();
    return a;
  }
};
}  // namespace detail

}  // namespace anycl
