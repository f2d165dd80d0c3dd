// SPDX-License-Identifier: Apache-2.0
// Launch geometry: 1 to 3 dimensions of global size, optional local size and offset.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "anycl/export.hpp"

namespace anycl {

/// Sizes in 0 to 3 dimensions; 0 dimensions means "not given" (for a local size or an offset).
class ANYCL_EXPORT range {
 public:
  range() noexcept = default;
  range(std::size_t x) noexcept : v_{x, 1, 1}, dims_(1) {}  // NOLINT: a size converts implicitly
  range(std::size_t x, std::size_t y) noexcept : v_{x, y, 1}, dims_(2) {}
  range(std::size_t x, std::size_t y, std::size_t z) noexcept : v_{x, y, z}, dims_(3) {}
  /// Throws std::invalid_argument for more than 3 sizes.
  range(std::initializer_list<std::size_t> sizes);

  unsigned dims() const noexcept { return dims_; }
  std::size_t operator[](unsigned i) const noexcept { return v_[i]; }
  const std::size_t* data() const noexcept { return v_.data(); }

 private:
  std::array<std::size_t, 3> v_{1, 1, 1};
  unsigned dims_ = 0;
};

/// Where a kernel runs: a global size, optionally a local (work-group) size and a global offset,
/// each with the same number of dimensions. Throws std::invalid_argument for a global size with 0
/// dimensions, or a local size or offset whose dimension count differs.
class ANYCL_EXPORT nd_range {
 public:
  nd_range(range global, range local = {}, range offset = {});  // NOLINT: a size converts
  const range& global() const noexcept { return global_; }
  const range& local() const noexcept { return local_; }
  const range& offset() const noexcept { return offset_; }
  unsigned dims() const noexcept { return global_.dims(); }
  /// True if some global size is 0: the launch is a no-op.
  bool empty() const noexcept;

 private:
  range global_, local_, offset_;
};

/// The most work-items one launch may have before AnyCL refuses it (some drivers accept absurd
/// sizes and run practically forever). Default 2^40, or ANYCL_MAX_WORK_ITEMS; setting 0 restores
/// that.
ANYCL_EXPORT void set_max_work_items(std::uint64_t limit) noexcept;
ANYCL_EXPORT std::uint64_t max_work_items() noexcept;

}  // namespace anycl
