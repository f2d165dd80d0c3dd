// SPDX-License-Identifier: Apache-2.0
// Broadcasting by numpy's rule: the shape two shapes broadcast to, and the views that stretch an
// array to a shape (stride 0 on its stretched and added axes), add an axis or drop one.
#include "arrays/broadcast.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/require.hpp"

namespace anycl {

namespace detail {

namespace {

std::vector<std::size_t> extents_of(const anycl::shape& s) {
  return {s.extents().begin(), s.extents().begin() + s.dims()};
}

}  // namespace

anycl::shape broadcast_shapes(const anycl::shape& a, const anycl::shape& b, const char* what) {
  const unsigned d = std::max(a.dims(), b.dims());
  std::vector<std::size_t> out(d);
  for (unsigned i = 0; i < d; ++i) {
    // Axis i of the result is axis i - (d - dims) of each shape, extent 1 where that is missing.
    const std::size_t ea = i + a.dims() >= d ? a[i + a.dims() - d] : 1;
    const std::size_t eb = i + b.dims() >= d ? b[i + b.dims() - d] : 1;
    if (ea != eb && ea != 1 && eb != 1)
      throw std::invalid_argument(std::string(what) + ": shapes " + a.str() + " and " + b.str() +
                                  " do not broadcast (axis " + std::to_string(i) +
                                  " of the result: extents " + std::to_string(ea) + " and " +
                                  std::to_string(eb) + ")");
    out[i] = ea == 1 ? eb : ea;
  }
  return anycl::shape(out);
}

bool broadcasts_to(const anycl::shape& from, const anycl::shape& to) noexcept {
  if (from.dims() > to.dims()) return false;
  const unsigned lead = to.dims() - from.dims();
  for (unsigned i = 0; i < from.dims(); ++i)
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  return true;
}

array_layout broadcast_layout(const array_layout& l, const anycl::shape& s, const char* what) {
  const unsigned d = s.dims(), ld = l.extents.dims();
  if (!broadcasts_to(l.extents, s))
    throw std::invalid_argument(std::string(what) + ": an array of shape " + l.extents.str() +
                                " does not broadcast to " + s.str() +
                                " (numpy's rule: each extent equal or 1, aligned from the last)");
  array_layout out;
  out.extents = s;
  out.offset = l.offset;
  for (unsigned i = d - ld; i < d; ++i) {
    const std::size_t e = l.extents[i - (d - ld)];
    out.strides[i] = e == 1 && s[i] != 1 ? 0 : l.strides[i - (d - ld)];
  }
  return out;
}

array_core array_core::broadcast_to(const anycl::shape& s) const {
  require_array(*this, "anycl::broadcast_to");
  return with_layout(broadcast_layout(layout_, s, "anycl::broadcast_to"));
}

array_core array_core::expand_dims(unsigned axis) const {
  require_array(*this, "anycl::expand_dims");
  const unsigned d = layout_.extents.dims();
  if (axis > d)
    throw std::invalid_argument("anycl::expand_dims: axis " + std::to_string(axis) +
                                " for an array of " + std::to_string(d) +
                                " dimensions (the new axis goes at 0.." + std::to_string(d) + ")");
  if (d == shape::max_dims)
    throw std::invalid_argument("anycl::expand_dims: " + layout_.extents.str() + " already has " +
                                std::to_string(shape::max_dims) +
                                " dimensions, the most an array has");
  std::vector<std::size_t> ext = extents_of(layout_.extents);
  ext.insert(ext.begin() + axis, 1);
  array_layout l = layout_;
  l.extents = anycl::shape(ext);
  for (unsigned i = d; i > axis; --i) l.strides[i] = layout_.strides[i - 1];
  l.strides[axis] = 0;
  return with_layout(l);
}

array_core array_core::squeeze() const {
  require_array(*this, "anycl::squeeze");
  array_core a = *this;
  for (unsigned i = layout_.extents.dims(); i-- > 0;)
    if (a.layout_.extents[i] == 1 && a.layout_.extents.dims() > 1) a = a.squeeze(i);
  return a;
}

array_core array_core::squeeze(unsigned axis) const {
  require_array(*this, "anycl::squeeze");
  const unsigned d = layout_.extents.dims();
  if (axis >= d)
    throw std::invalid_argument("anycl::squeeze: axis " + std::to_string(axis) +
                                " of an array with " + std::to_string(d) + " dimension" +
                                (d == 1 ? "" : "s"));
  if (layout_.extents[axis] != 1)
    throw std::invalid_argument("anycl::squeeze: axis " + std::to_string(axis) + " of " +
                                layout_.extents.str() + " has extent " +
                                std::to_string(layout_.extents[axis]) + ", not 1");
  if (d == 1)
    throw std::invalid_argument("anycl::squeeze: " + layout_.extents.str() +
                                " has one axis, and an array keeps at least one");
  std::vector<std::size_t> ext = extents_of(layout_.extents);
  ext.erase(ext.begin() + axis);
  array_layout l;
  l.extents = anycl::shape(ext);
  l.offset = layout_.offset;
  for (unsigned i = 0, k = 0; i < d; ++i)
    if (i != axis) l.strides[k++] = layout_.strides[i];
  return with_layout(l);
}

}  // namespace detail

anycl::shape broadcast_shapes(const anycl::shape& a, const anycl::shape& b) {
  return detail::broadcast_shapes(a, b, "anycl::broadcast_shapes");
}

}  // namespace anycl
