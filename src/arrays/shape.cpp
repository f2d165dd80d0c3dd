// SPDX-License-Identifier: Apache-2.0
// shape: the extents of an array, 1 to 8 dimensions.
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/array.hpp"

namespace anycl {

namespace {

std::size_t checked_product(const std::size_t* e, unsigned n) {
  std::size_t p = 1;
  for (unsigned i = 0; i < n; ++i) {
    if (e[i] != 0 && p > std::numeric_limits<std::size_t>::max() / e[i])
      throw std::overflow_error("shape: the element count overflows size_t");
    p *= e[i];
  }
  return p;
}

}  // namespace

shape::shape(std::initializer_list<std::size_t> extents)
    : shape(std::vector<std::size_t>(extents)) {}

shape::shape(const std::vector<std::size_t>& extents) {
  if (extents.empty() || extents.size() > max_dims)
    throw std::invalid_argument("shape: an array has 1 to 8 dimensions, not " +
                                std::to_string(extents.size()));
  dims_ = static_cast<unsigned>(extents.size());
  for (unsigned i = 0; i < dims_; ++i) e_[i] = extents[i];
  checked_product(e_.data(), dims_);
}

std::size_t shape::size() const noexcept {
  std::size_t p = 1;
  for (unsigned i = 0; i < dims_; ++i) p *= e_[i];
  return p;
}

std::string shape::str() const {
  std::string s = "(";
  for (unsigned i = 0; i < dims_; ++i) {
    if (i) s += ", ";
    s += std::to_string(e_[i]);
  }
  return s + ")";
}

}  // namespace anycl
