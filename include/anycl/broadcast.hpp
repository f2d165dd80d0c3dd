// SPDX-License-Identifier: Apache-2.0
// Broadcasting, as numpy's: the shape two shapes broadcast to, and views that stretch an array to
// a shape, add an axis of extent 1 or drop one, all without copies.
#pragma once

#include "anycl/array.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// The shape that arrays of shapes `a` and `b` broadcast to, by numpy's rule: aligned from the
/// last axis, each pair of extents equal or one of them 1, missing leading axes counting as 1.
/// `broadcast_shapes({3, 1}, {4})` is (3, 4). Throws std::invalid_argument naming both shapes and
/// the axis of the result where they disagree.
ANYCL_EXPORT anycl::shape broadcast_shapes(const anycl::shape& a, const anycl::shape& b);

/// `a` as a view of shape `s`, to which its shape broadcasts: along the axes it gains or
/// stretches from extent 1 its elements repeat (stride 0), so the view is read-only (writing it
/// throws, as numpy's is). Throws std::invalid_argument naming both shapes otherwise.
template <class T>
array<T> broadcast_to(const array<T>& a, const anycl::shape& s) {
  return array<T>(a.core().broadcast_to(s));
}

/// `a` with a new axis of extent 1 at `axis` (0..dims()), as a view: (3, 4) at axis 1 is
/// (3, 1, 4). Throws std::invalid_argument for an axis past dims() or an array of 8 dimensions.
template <class T>
array<T> expand_dims(const array<T>& a, unsigned axis) {
  return array<T>(a.core().expand_dims(axis));
}

/// `a` without its axes of extent 1, as a view; one axis stays when every extent is 1 (an array
/// has at least one dimension, where numpy would give a 0-d array).
template <class T>
array<T> squeeze(const array<T>& a) {
  return array<T>(a.core().squeeze());
}

/// `a` without `axis`, which must have extent 1, as a view. Throws std::invalid_argument for an
/// axis past dims(), an extent other than 1, or a 1-D array.
template <class T>
array<T> squeeze(const array<T>& a, unsigned axis) {
  return array<T>(a.core().squeeze(axis));
}

}  // namespace anycl
