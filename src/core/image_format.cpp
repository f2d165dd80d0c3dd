// SPDX-License-Identifier: Apache-2.0
// Image formats described: channels, pixel sizes and OpenCL's names for orders and types, one
// table for both directions (to_string and parse).
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>

#include "anycl/image.hpp"

namespace anycl {

namespace {

template <class T>
struct named {
  T value;
  const char* name;
};

#define ANYCL_NAMED(x) \
  { x, #x }
constexpr named<cl_channel_order> orders[] = {
    ANYCL_NAMED(CL_R),         ANYCL_NAMED(CL_A),     ANYCL_NAMED(CL_RG),
    ANYCL_NAMED(CL_RA),        ANYCL_NAMED(CL_RGB),   ANYCL_NAMED(CL_RGBA),
    ANYCL_NAMED(CL_BGRA),      ANYCL_NAMED(CL_ARGB),  ANYCL_NAMED(CL_INTENSITY),
    ANYCL_NAMED(CL_LUMINANCE), ANYCL_NAMED(CL_Rx),    ANYCL_NAMED(CL_RGx),
    ANYCL_NAMED(CL_RGBx),      ANYCL_NAMED(CL_DEPTH), ANYCL_NAMED(CL_sRGB),
    ANYCL_NAMED(CL_sRGBx),     ANYCL_NAMED(CL_sRGBA), ANYCL_NAMED(CL_sBGRA),
    ANYCL_NAMED(CL_ABGR)};
constexpr named<cl_channel_type> types[] = {ANYCL_NAMED(CL_SNORM_INT8),
                                            ANYCL_NAMED(CL_SNORM_INT16),
                                            ANYCL_NAMED(CL_UNORM_INT8),
                                            ANYCL_NAMED(CL_UNORM_INT16),
                                            ANYCL_NAMED(CL_UNORM_SHORT_565),
                                            ANYCL_NAMED(CL_UNORM_SHORT_555),
                                            ANYCL_NAMED(CL_UNORM_INT_101010),
                                            ANYCL_NAMED(CL_SIGNED_INT8),
                                            ANYCL_NAMED(CL_SIGNED_INT16),
                                            ANYCL_NAMED(CL_SIGNED_INT32),
                                            ANYCL_NAMED(CL_UNSIGNED_INT8),
                                            ANYCL_NAMED(CL_UNSIGNED_INT16),
                                            ANYCL_NAMED(CL_UNSIGNED_INT32),
                                            ANYCL_NAMED(CL_HALF_FLOAT),
                                            ANYCL_NAMED(CL_FLOAT),
                                            ANYCL_NAMED(CL_UNORM_INT24),
                                            ANYCL_NAMED(CL_UNORM_INT_101010_2)};
#undef ANYCL_NAMED

template <class T, std::size_t N>
std::string name_of(const named<T> (&table)[N], T value) {
  for (const named<T>& e : table)
    if (e.value == value) return e.name;
  return std::to_string(value);
}

// `a` equals `b` ignoring case, with b's "CL_" prefix optional in `a`.
bool same_name(std::string_view a, std::string_view b) {
  auto equal = [](std::string_view x, std::string_view y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(x[i])) !=
          std::tolower(static_cast<unsigned char>(y[i])))
        return false;
    return true;
  };
  return equal(a, b) || equal(a, b.substr(3));
}

// The value `text` names in `table`; std::invalid_argument listing the names otherwise.
template <class T, std::size_t N>
T value_of(const named<T> (&table)[N], std::string_view text, const char* what) {
  std::string list;
  for (const named<T>& e : table) {
    if (same_name(text, e.name)) return e.value;
    list += (list.empty() ? "" : ", ") + std::string(e.name + 3);
  }
  throw std::invalid_argument("image_format: unknown channel " + std::string(what) + " '" +
                              std::string(text) + "'; " + what + "s: " + list);
}

std::size_t channel_bytes(cl_channel_type t) {
  switch (t) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8:
      return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT:
      return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT:
      return 4;
    default:
      return 0;  // packed types: a pixel, not a channel
  }
}

}  // namespace

std::size_t image_format::channels() const {
  switch (order) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE:
    case CL_DEPTH:
      return 1;
    case CL_RG:
    case CL_RA:
    case CL_Rx:
      return 2;
    case CL_RGB:
    case CL_RGx:
    case CL_sRGB:
      return 3;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
    case CL_RGBx:
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA:
      return 4;
    default:
      throw std::invalid_argument("image_format: channel order " + std::to_string(order) +
                                  " is not one OpenCL defines");
  }
}

std::size_t image_format::pixel_size() const {
  if (type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555) return 2;
  if (type == CL_UNORM_INT_101010 || type == CL_UNORM_INT_101010_2 || type == CL_UNORM_INT24)
    return 4;
  const std::size_t bytes = channel_bytes(type);
  if (bytes == 0)
    throw std::invalid_argument("image_format: channel type " + std::to_string(type) +
                                " is not one OpenCL defines");
  return channels() * bytes;
}

std::string image_format::to_string() const {
  return name_of(orders, order) + "/" + name_of(types, type);
}

image_format image_format::parse(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument("image_format: '" + std::string(text) +
                                "' is not ORDER/TYPE (e.g. CL_RGBA/CL_UNORM_INT8 or r/float)");
  image_format f;
  f.order = value_of(orders, text.substr(0, slash), "order");
  f.type = value_of(types, text.substr(slash + 1), "type");
  return f;
}

char image_format::read_kind() const {
  switch (type) {
    case CL_SIGNED_INT8:
    case CL_SIGNED_INT16:
    case CL_SIGNED_INT32:
      return 'i';
    case CL_UNSIGNED_INT8:
    case CL_UNSIGNED_INT16:
    case CL_UNSIGNED_INT32:
      return 'u';
    default:
      return 'f';
  }
}

}  // namespace anycl
