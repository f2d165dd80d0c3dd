// SPDX-License-Identifier: Apache-2.0
// The element types known at run time: one table of every type's OpenCL C name, size and kind,
// for the array layer, the user-kernel parameter lists and the command-line tools.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "anycl/half.hpp"

namespace anycl {

/// The real element types: the OpenCL C scalars char...ulong, float and double. Element-wise
/// expressions, reductions, scans, sort and random numbers take these.
template <class T>
inline constexpr bool is_real_element_v =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double>;

/// The complex element types, held as OpenCL C float2/double2 (real part first, as
/// std::complex lays them out): arrays of them store data for BLAS (anycl/blas.hpp) and FFT
/// (anycl/fft.hpp) and support the storage operations, not expressions or the algorithms.
template <class T>
inline constexpr bool is_complex_element_v =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// anycl::half (IEEE binary16): arrays of it take part in element-wise expressions (loaded and
/// stored as half, computed in float), casts and the storage operations; reduce or sort them
/// through anycl::cast<float>(...).
template <class T>
inline constexpr bool is_half_element_v = std::is_same_v<T, half>;

/// The element types of device arrays: the real ones, half and the complex ones.
template <class T>
inline constexpr bool is_array_element_v =
    is_real_element_v<T> || is_half_element_v<T> || is_complex_element_v<T>;

/// An array element type known at run time (c64 = std::complex<float>, c128 =
/// std::complex<double>, f16 = anycl::half). The order is that of `scalar_types`.
enum class scalar_type : unsigned char {
  i8,
  i16,
  i32,
  i64,
  u8,
  u16,
  u32,
  u64,
  f32,
  f64,
  c64,
  c128,
  f16
};

/// What kind of number a scalar_type holds: `half` is binary16, stored as half and computed in
/// float.
enum class scalar_kind : unsigned char {
  signed_integer,
  unsigned_integer,
  floating,
  complex,
  half
};

/// One row of the type table.
struct scalar_type_info {
  scalar_type type;
  const char* cl_name;  ///< the OpenCL C name: "char", ..., "double", "float2", "double2", "half"
  std::size_t size;     ///< bytes
  scalar_kind kind;
  /// OpenCL C's names of the smallest and largest value (<limits.h>, or -INFINITY and INFINITY
  /// for the floating types); empty for the complex types.
  const char* cl_lowest;
  const char* cl_highest;
};

/// Every scalar_type, in enum order: the real types first (the OpenCL C scalars a parameter list
/// or a tool's argument may name), then the complex ones and half.
inline constexpr std::array<scalar_type_info, 13> scalar_types{{
    {scalar_type::i8, "char", 1, scalar_kind::signed_integer, "CHAR_MIN", "CHAR_MAX"},
    {scalar_type::i16, "short", 2, scalar_kind::signed_integer, "SHRT_MIN", "SHRT_MAX"},
    {scalar_type::i32, "int", 4, scalar_kind::signed_integer, "INT_MIN", "INT_MAX"},
    {scalar_type::i64, "long", 8, scalar_kind::signed_integer, "LONG_MIN", "LONG_MAX"},
    {scalar_type::u8, "uchar", 1, scalar_kind::unsigned_integer, "0", "UCHAR_MAX"},
    {scalar_type::u16, "ushort", 2, scalar_kind::unsigned_integer, "0", "USHRT_MAX"},
    {scalar_type::u32, "uint", 4, scalar_kind::unsigned_integer, "0", "UINT_MAX"},
    {scalar_type::u64, "ulong", 8, scalar_kind::unsigned_integer, "0", "ULONG_MAX"},
    {scalar_type::f32, "float", 4, scalar_kind::floating, "-INFINITY", "INFINITY"},
    {scalar_type::f64, "double", 8, scalar_kind::floating, "-INFINITY", "INFINITY"},
    {scalar_type::c64, "float2", 8, scalar_kind::complex, "", ""},
    {scalar_type::c128, "double2", 16, scalar_kind::complex, "", ""},
    {scalar_type::f16, "half", 2, scalar_kind::half, "-INFINITY", "INFINITY"},
}};

/// The number of real types at the front of `scalar_types`.
inline constexpr std::size_t real_scalar_types = 10;

/// The row of `t`.
constexpr const scalar_type_info& scalar_info(scalar_type t) noexcept {
  return scalar_types[static_cast<std::size_t>(t)];
}
/// The OpenCL C name of a scalar type ("char", ..., "ulong", "float", "double"; "float2" and
/// "double2" for the complex types).
constexpr const char* cl_type_name(scalar_type t) noexcept { return scalar_info(t).cl_name; }
/// Its size in bytes.
constexpr std::size_t size_of(scalar_type t) noexcept { return scalar_info(t).size; }
/// True for f32 and f64.
constexpr bool is_floating(scalar_type t) noexcept {
  return scalar_info(t).kind == scalar_kind::floating;
}
/// True for c64 and c128.
constexpr bool is_complex(scalar_type t) noexcept {
  return scalar_info(t).kind == scalar_kind::complex;
}
/// True for f16.
constexpr bool is_half(scalar_type t) noexcept { return scalar_info(t).kind == scalar_kind::half; }
/// The OpenCL C type that holds an element in kernels that only move elements: "ushort" for half
/// (a half pointer is read only through vload_half), cl_type_name otherwise.
constexpr const char* cl_storage_name(scalar_type t) noexcept {
  return is_half(t) ? "ushort" : cl_type_name(t);
}
/// The OpenCL C type an element is computed in: "float" for half, cl_type_name otherwise.
constexpr const char* cl_value_name(scalar_type t) noexcept {
  return is_half(t) ? "float" : cl_type_name(t);
}
/// True for i8...i64 (and the floating types).
constexpr bool is_signed(scalar_type t) noexcept {
  return scalar_info(t).kind != scalar_kind::unsigned_integer;
}
/// The real type whose OpenCL C name is `name` ("int", "ulong", "float"...), or null.
constexpr const scalar_type_info* find_real_type(std::string_view name) noexcept {
  for (std::size_t i = 0; i < real_scalar_types; ++i)
    if (name == scalar_types[i].cl_name) return &scalar_types[i];
  return nullptr;
}

/// The real types' names as messages list them: "char, uchar, short, ushort, int, uint, long,
/// ulong, float, double".
inline std::string real_type_names() {
  std::string s;
  for (std::size_t i = 0; i < 4; ++i)
    s += std::string(scalar_types[i].cl_name) + ", " + scalar_types[i + 4].cl_name + ", ";
  return s + "float, double";
}

/// The scalar_type with the size and signedness of arithmetic type A (long long and the like
/// included).
template <class A>
constexpr scalar_type scalar_type_for() noexcept {
  if constexpr (std::is_floating_point_v<A>) {
    return sizeof(A) == 4 ? scalar_type::f32 : scalar_type::f64;
  } else if constexpr (std::is_signed_v<A>) {
    return sizeof(A) == 1   ? scalar_type::i8
           : sizeof(A) == 2 ? scalar_type::i16
           : sizeof(A) == 4 ? scalar_type::i32
                            : scalar_type::i64;
  } else {
    return sizeof(A) == 1   ? scalar_type::u8
           : sizeof(A) == 2 ? scalar_type::u16
           : sizeof(A) == 4 ? scalar_type::u32
                            : scalar_type::u64;
  }
}

/// The scalar_type of array element type T.
template <class T>
constexpr scalar_type scalar_type_of() noexcept {
  static_assert(is_array_element_v<T>,
                "AnyCL: array elements are int8_t...int64_t, uint8_t...uint64_t, float, double, "
                "anycl::half, std::complex<float> or std::complex<double>");
  if constexpr (std::is_same_v<T, half>)
    return scalar_type::f16;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return scalar_type::c64;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return scalar_type::c128;
  else
    return scalar_type_for<T>();
}

namespace detail {
/// Calls f with a value of the host type of real type `t` (int8_t ... double) and returns what it
/// returns. Callers pass real types; a complex type or half is taken as double.
template <class F>
decltype(auto) with_real_type(scalar_type t, F&& f) {
  switch (t) {
    case scalar_type::i8:
      return f(std::int8_t{});
    case scalar_type::i16:
      return f(std::int16_t{});
    case scalar_type::i32:
      return f(std::int32_t{});
    case scalar_type::i64:
      return f(std::int64_t{});
    case scalar_type::u8:
      return f(std::uint8_t{});
    case scalar_type::u16:
      return f(std::uint16_t{});
    case scalar_type::u32:
      return f(std::uint32_t{});
    case scalar_type::u64:
      return f(std::uint64_t{});
    case scalar_type::f32:
      return f(float{});
    case scalar_type::f64:
    case scalar_type::c64:
    case scalar_type::c128:
    case scalar_type::f16:
      break;
  }
  return f(double{});
}
}  // namespace detail

}  // namespace anycl
