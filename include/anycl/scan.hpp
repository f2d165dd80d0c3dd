// SPDX-License-Identifier: Apache-2.0
// Prefix scans of device arrays: inclusive and exclusive, built-in or custom associative operators.
#pragma once

#include <string>

#include "anycl/array.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// The built-in scan operators. min and max compare with `<` as std::min and std::max do (a NaN
/// is kept or skipped as they would); plus and multiplies wrap around for unsigned types.
enum class scan_operator { plus, multiplies, min, max };

/// An associative operator for inclusive_scan and exclusive_scan: a built-in one, or an OpenCL C
/// expression in `a` (the earlier part of the sequence) and `b` (the later) with its identity, e.g.
/// `scan_op{"max(a, b)", "-INFINITY"}` for floats. Both are pasted into a generated kernel where
/// `a` and `b` have the array's element type and the result is converted to it; the operator need
/// not be commutative but must be associative (the elements are combined in chunks).
class ANYCL_EXPORT scan_op {
 public:
  /// A built-in operator (implicit, so `scan_operator::max` can be passed where a scan_op is).
  scan_op(scan_operator op = scan_operator::plus) noexcept : builtin_(op) {}  // NOLINT
  /// A custom operator. Throws std::invalid_argument when `expression` or `identity` is empty or
  /// holds a line break or backslash (they go into a `#define`); an expression OpenCL C rejects
  /// throws anycl::build_error when the scan is first run.
  scan_op(std::string expression, std::string identity);

  bool is_builtin() const noexcept { return expression_.empty(); }
  scan_operator builtin() const noexcept { return builtin_; }
  const std::string& expression() const noexcept { return expression_; }
  const std::string& identity() const noexcept { return identity_; }

 private:
  scan_operator builtin_ = scan_operator::plus;
  std::string expression_;
  std::string identity_;
};

namespace detail {
/// The untyped scans behind the templates below: `out`[k] = in[0] op ... op in[k] (inclusive) or
/// `init` op in[0] op ... op in[k-1] (exclusive, `init` holds size_of(type) bytes; null for
/// inclusive). Throws std::invalid_argument for empty arrays, different element types or sizes.
ANYCL_EXPORT event scan(const array_core& in, const array_core& out, const scan_op& op,
                        const void* init, const char* what);
}  // namespace detail

/// out[k] = in[0] op in[1] op ... op in[k] over the elements in row-major order (N-D arrays are
/// scanned as their flattened row-major sequence; `out` needs the same number of elements, any
/// shape). `in` and `out` may be the same array (in place) and may be strided views (those go
/// through a dense temporary); partly overlapping views are scanned through a temporary too.
/// Runs as three kernels of anycl/scan.cl (stream totals, their scan, the scan of each stream).
/// Returns the event of the last command, also recorded on both arrays (empty for 0 elements).
/// Throws std::invalid_argument when the sizes differ or an array is default-constructed, and
/// anycl::build_error for a custom operator OpenCL C rejects.
template <class T>
event inclusive_scan(const array<T>& in, const array<T>& out, const scan_op& op = {}) {
  static_assert(is_real_element_v<T>,
                "AnyCL: anycl::inclusive_scan works on real element types (complex arrays hold "
                "data for BLAS and FFT)");
  return detail::scan(in.core(), out.core(), op, nullptr, "inclusive_scan");
}

/// out[0] = init, out[k] = init op in[0] op ... op in[k-1] (as std::exclusive_scan); otherwise as
/// inclusive_scan.
template <class T>
event exclusive_scan(const array<T>& in, const array<T>& out, T init, const scan_op& op = {}) {
  static_assert(is_real_element_v<T>,
                "AnyCL: anycl::exclusive_scan works on real element types (complex arrays hold "
                "data for BLAS and FFT)");
  return detail::scan(in.core(), out.core(), op, &init, "exclusive_scan");
}

}  // namespace anycl
