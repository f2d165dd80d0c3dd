// SPDX-License-Identifier: Apache-2.0
// Kernel arguments written on a command line (`float:2`, `uint2:1,2`, `in:float:1024:range`,
// `out:int:16`, `local:int:64`): parsing, initial buffer contents and printing of values (the
// check against a kernel is arg_check.hpp). Used by anycl-run; everything here needs no device,
// and all but initial_contents() with file= and check_init_file() is pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

/// What a spec passes: a value, a __global/__constant buffer (in, out, inout) or __local memory.
enum class arg_kind { scalar, in, out, inout, local };

/// "in", "out", "inout", "local" or "scalar".
const char* kind_name(arg_kind k) noexcept;

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
  buffer_init init;                  ///< in and inout

  bool is_buffer() const noexcept {
    return kind == arg_kind::in || kind == arg_kind::out || kind == arg_kind::inout;
  }
  /// Bytes of the value, the buffer or the local memory.
  std::size_t bytes() const noexcept {
    return kind == arg_kind::scalar ? value.size() : count * type.size();
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
/// with INIT one of zero (the default), fill=V (or n comma-separated values for an n-vector),
/// range, random=SEED, file=PATH (the rest of the spec, colons included). Integers are decimal or
/// 0x-hexadecimal and must fit the type; floats are decimal, inf or nan. Throws
/// std::invalid_argument with a message quoting the spec.
arg_spec parse_arg_spec(std::string_view text);

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
