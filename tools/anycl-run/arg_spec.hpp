// SPDX-License-Identifier: Apache-2.0
// Kernel arguments written on a command line (`float:2`, `uint2:1,2`, `in:float:1024:range`,
// `out:int:16`, `local:int:64`, `svm:int:8`, `image2d:r/float:64,32:range`,
// `sampler:clamp:linear`): parsing, initial buffer contents and printing of values (the check
// against a kernel is arg_check.hpp). Used by anycl-run; everything here needs no device,
// and all but initial_contents() with file= and check_init_file() is pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/image.hpp"
#include "anycl/kernel.hpp"
#include "anycl/scalar_type.hpp"

namespace anycl::tools {

/// The OpenCL C scalar types a spec may name: the real types of the library's table (half is left
/// out: the host has no half type).
using anycl::scalar_type;

/// A scalar or vector type of OpenCL C: `float`, `uint2`, `float3`, `char16`.
struct element_type {
  scalar_type scalar = scalar_type::i32;
  unsigned width = 1;  ///< 1 (a scalar), 2, 3, 4, 8 or 16

  std::size_t scalar_size() const noexcept;
  /// sizeof in OpenCL C: a 3-vector takes the room of a 4-vector.
  std::size_t size() const noexcept { return scalar_size() * slots(); }
  /// Components in memory: width, except 4 for a 3-vector (the 4th is padding).
  unsigned slots() const noexcept { return width == 3 ? 4 : width; }
  /// The OpenCL C name, e.g. "uint2".
  std::string name() const;
};

/// Parses an OpenCL C type name such as "float" or "uint4". Throws std::invalid_argument for an
/// unknown name or a vector width other than 2, 3, 4, 8, 16.
element_type parse_element_type(std::string_view name);

/// What a spec passes: a value, a __global/__constant buffer (in, out, inout), __local memory,
/// a coarse-grained SVM allocation, an image or a sampler.
enum class arg_kind { scalar, in, out, inout, local, svm, image, sampler };

/// "in", "out", "inout", "local", "svm", "image", "sampler" or "scalar".
const char* kind_name(arg_kind k) noexcept;

/// An image spec's type, format and size. Its pixels are elements of a host type: one scalar per
/// channel, of the channel type's storage (CL_UNORM_INT8: uchar, CL_FLOAT: float).
struct image_spec {
  anycl::image_type type = anycl::image_type::image2d;
  anycl::image_format format;
  anycl::image_extent extent;
};

/// "image1d", "image1d_array", "image2d", "image2d_array" or "image3d": the spec's word, and the
/// OpenCL C type's name without "_t".
const char* image_type_word(anycl::image_type t) noexcept;

/// The SIZES an image spec gave: W; W,H; W,H,D; W,LAYERS or W,H,LAYERS by its type.
std::vector<std::size_t> image_sizes(const image_spec& s);

/// A sampler spec's modes.
struct sampler_spec {
  anycl::addressing_mode addressing = anycl::addressing_mode::clamp_to_edge;
  anycl::filter_mode filter = anycl::filter_mode::nearest;
  bool normalized = false;
  /// "clamp_to_edge:nearest:unnormalized", the spec's own words.
  std::string to_string() const;
};

/// How a buffer starts (the INIT of `in:` and `inout:`).
enum class init_kind { zero, fill, range, random, file };

struct buffer_init {
  init_kind kind = init_kind::zero;
  std::vector<unsigned char> fill;  ///< init_kind::fill: one element, type.size() bytes
  std::uint64_t seed = 0;           ///< init_kind::random
  std::string path;                 ///< init_kind::file
  std::string text;                 ///< as written, e.g. "fill=1.5"; empty for the default
};

/// One parsed argument spec.
struct arg_spec {
  std::string text;  ///< as written
  arg_kind kind = arg_kind::scalar;
  element_type type;                 ///< the value's type, or the buffer's element type
  std::vector<unsigned char> value;  ///< scalar: the type.size() bytes passed to the kernel
  std::size_t count = 0;             ///< buffers and local memory: elements, at least 1
  buffer_init init;                  ///< in, inout, svm and image
  image_spec image;                  ///< arg_kind::image; count is its pixels, type a pixel's
  sampler_spec sampler;              ///< arg_kind::sampler

  bool is_buffer() const noexcept {
    return kind == arg_kind::in || kind == arg_kind::out || kind == arg_kind::inout;
  }
  /// Buffers, SVM and images: memory made for the run, with bytes() of contents.
  bool holds_memory() const noexcept {
    return is_buffer() || kind == arg_kind::svm || kind == arg_kind::image;
  }
  /// Bytes of the value, the buffer, the local memory, the SVM or the image's pixels (a sampler:
  /// none).
  std::size_t bytes() const noexcept {
    return kind == arg_kind::scalar    ? value.size()
           : kind == arg_kind::sampler ? 0
                                       : count * type.size();
  }
};

/// The grammar parse_arg_spec accepts, for help texts.
extern const char* const arg_spec_help;

/// Parses one spec:
///   TYPE:VALUE                      a value; n-vectors take n comma-separated values
///   in:TYPE:COUNT[:INIT]            a buffer the kernel reads
///   inout:TYPE:COUNT[:INIT]         a buffer the kernel reads and writes (printed afterwards)
///   out:TYPE:COUNT                  a buffer of zeros the kernel writes (printed afterwards)
///   local:TYPE:COUNT                __local memory for COUNT elements per work-group
///   svm:TYPE:COUNT[:INIT]           a coarse-grained SVM allocation (printed afterwards)
///   IMAGE:FORMAT:SIZES[:INIT]       an image: IMAGE is image1d (SIZES W), image2d (W,H),
///                                   image3d (W,H,D), image1d_array (W,LAYERS) or
///                                   image2d_array (W,H,LAYERS); FORMAT as image_format::parse
///                                   reads it (r/float, CL_RGBA/CL_UNORM_INT8)
///   sampler:ADDRESSING:FILTER[:COORDS]  a sampler (COORDS normalized or unnormalized)
/// with INIT one of zero (the default), fill=V (or n comma-separated values for an n-vector),
/// range, random=SEED, file=PATH (the rest of the spec, colons included). Integers are decimal or
/// 0x-hexadecimal and must fit the type; floats are decimal, inf or nan. Throws
/// std::invalid_argument with a message quoting the spec.
arg_spec parse_arg_spec(std::string_view text);

/// INIT `text` for elements of `type` (the grammar above); std::invalid_argument without the
/// spec's prefix.
buffer_init parse_init(std::string_view text, const element_type& type);

/// The IMAGE:FORMAT:SIZES[:INIT] spec whose `head` names an image type, its rest after the first
/// ':' in `rest`, into `s`; nothing when `head` is no image type's word. Throws
/// std::invalid_argument without the spec's prefix.
bool parse_image_spec(arg_spec& s, std::string_view head, std::string_view rest);

/// The ADDRESSING:FILTER[:COORDS] of a sampler spec into `s` (kind set to sampler).
void parse_sampler_spec(arg_spec& s, std::string_view rest);

/// A buffer's initial bytes (count * type.size()): zeros; fill; range (component k of the buffer,
/// 3-vector padding skipped, holds k, wrapped to the width of integer types); random (SplitMix64
/// from SEED, one draw per component: integers uniform in 0..99, floats uniform in [0, 1)); or the
/// raw bytes of file=PATH. Throws std::runtime_error when the file cannot be read or its size is
/// not exactly count * type.size() bytes.
std::vector<unsigned char> initial_contents(const arg_spec& spec);

/// For file=PATH: throws std::runtime_error, as initial_contents() would, unless PATH is a
/// regular file of exactly spec.bytes() bytes; reads nothing. Other INITs pass.
void check_init_file(const arg_spec& spec);

/// One element at `p` as text: "3", "-1.5", "(1,2,3,4)" for a vector. Floats print in the
/// shortest form that reads back exactly. With `json`: a JSON number, or an array for a vector;
/// inf and nan, which JSON lacks, become the strings "inf", "-inf", "nan".
std::string format_element(const element_type& type, const unsigned char* p, bool json = false);

/// Sizes for --global or --local: 1 to 3 comma-separated positive whole numbers. Throws
/// std::invalid_argument naming `flag`.
std::vector<std::size_t> parse_sizes(std::string_view text, std::string_view flag);

}  // namespace anycl::tools
