// SPDX-License-Identifier: Apache-2.0
// Array layouts: the dense layout of a shape, the span of a view, collapsed axes, and the padded
// forms kernels take.
#include "arrays/layout.hpp"

#include <stdexcept>
#include <string>

namespace anycl::detail {

array_layout dense_layout(const anycl::shape& s) noexcept {
  array_layout l;
  l.extents = s;
  std::size_t stride = 1;
  for (unsigned i = s.dims(); i-- > 0;) {
    l.strides[i] = stride;
    stride *= s[i];
  }
  return l;
}

std::size_t layout_span(const array_layout& l) noexcept {
  if (l.extents.size() == 0) return 0;
  std::size_t last = l.offset;
  for (unsigned i = 0; i < l.extents.dims(); ++i) last += (l.extents[i] - 1) * l.strides[i];
  return last + 1;
}

std::vector<array_layout> collapsed(const std::vector<array_layout>& layouts) {
  const anycl::shape& s = layouts.front().extents;
  if (s.size() == 0) return layouts;
  std::vector<std::size_t> ext;
  std::vector<std::vector<std::size_t>> st(layouts.size());
  for (unsigned i = 0; i < s.dims(); ++i) {
    if (s[i] == 1) continue;
    // Axis i continues the previous one where a step along it is s[i] steps along axis i.
    bool merge = !ext.empty();
    for (std::size_t j = 0; merge && j < layouts.size(); ++j)
      merge = st[j].back() == layouts[j].strides[i] * s[i];
    for (std::size_t j = 0; j < layouts.size(); ++j) {
      if (merge)
        st[j].back() = layouts[j].strides[i];
      else
        st[j].push_back(layouts[j].strides[i]);
    }
    if (merge)
      ext.back() *= s[i];
    else
      ext.push_back(s[i]);
  }
  if (ext.empty()) {
    ext.push_back(1);
    for (auto& v : st) v.push_back(0);
  }
  std::vector<array_layout> out(layouts.size());
  for (std::size_t j = 0; j < layouts.size(); ++j) {
    out[j].extents = anycl::shape(ext);
    for (std::size_t i = 0; i < ext.size(); ++i) out[j].strides[i] = st[j][i];
    out[j].offset = layouts[j].offset;
  }
  return out;
}

void for_each_block(const std::vector<array_layout>& layouts,
                    const std::function<void(const std::vector<array_layout>&)>& fn) {
  const std::vector<array_layout> c = collapsed(layouts);
  const unsigned d = c.front().extents.dims();
  if (d <= kernel_dims) {
    fn(c);
    return;
  }
  const unsigned lead = d - kernel_dims;
  std::vector<std::size_t> tail(c.front().extents.extents().begin() + lead,
                                c.front().extents.extents().begin() + d);
  std::vector<array_layout> block(c.size());
  for (std::size_t j = 0; j < c.size(); ++j) {
    block[j].extents = anycl::shape(tail);
    for (unsigned i = 0; i < kernel_dims; ++i) block[j].strides[i] = c[j].strides[lead + i];
  }
  std::size_t count = 1;
  for (unsigned i = 0; i < lead; ++i) count *= c.front().extents[i];
  for (std::size_t b = 0; b < count; ++b) {
    for (std::size_t j = 0; j < c.size(); ++j) {
      std::size_t rest = b, off = c[j].offset;
      for (unsigned i = lead; i-- > 0;) {
        off += (rest % c[j].extents[i]) * c[j].strides[i];
        rest /= c[j].extents[i];
      }
      block[j].offset = off;
    }
    fn(block);
  }
}

namespace {

// The d values of `v` in the last d of N lanes, the leading lanes `fill`.
template <class Out, unsigned N, class V>
Out pad(const V& v, unsigned d, cl_ulong fill) {
  if (d > N)
    throw std::logic_error("anycl: a layout of " + std::to_string(d) + " axes for a kernel of " +
                           std::to_string(N));
  Out out;
  for (unsigned i = 0; i < N; ++i) out.s[i] = fill;
  for (unsigned i = 0; i < d; ++i) out.s[N - d + i] = v[i];
  return out;
}

}  // namespace

cl_ulong4 padded_extents(const array_layout& l) {
  return pad<cl_ulong4, 4>(l.extents, l.extents.dims(), 1);
}

cl_ulong4 padded_strides(const array_layout& l) {
  return pad<cl_ulong4, 4>(l.strides, l.extents.dims(), 0);
}

cl_ulong8 padded_extents8(const array_layout& l) {
  return pad<cl_ulong8, 8>(l.extents, l.extents.dims(), 1);
}

cl_ulong8 padded_strides8(const array_layout& l) {
  return pad<cl_ulong8, 8>(l.strides, l.extents.dims(), 0);
}

const char* index_type(unsigned dims) noexcept { return dims <= 4 ? "ulong4" : "ulong8"; }

const char* index_function(unsigned dims) noexcept {
  return dims <= 4 ? "anycl_strided_index" : "anycl_strided_index8";
}

const char* index_last_lane(unsigned dims) noexcept { return dims <= 4 ? "w" : "s7"; }

std::string run_index(const std::string& pos, const array_layout& l, const std::string& st) {
  const unsigned d = l.extents.dims();
  const std::size_t last = l.extents[d - 1] == 1 ? 0 : l.strides[d - 1];
  if (last == 0) return pos;
  if (last == 1) return pos + " + j";
  return pos + " + j * " + st + "." + index_last_lane(d);
}

index_vector index_of(const array_layout& l, unsigned dims, bool strides) {
  index_vector v;
  if (dims <= 4) {
    const cl_ulong4 p = strides ? padded_strides(l) : padded_extents(l);
    for (unsigned i = 0; i < 4; ++i) v.lanes.s[i] = p.s[i];
    v.bytes = sizeof p;
  } else {
    v.lanes = strides ? padded_strides8(l) : padded_extents8(l);
    v.bytes = sizeof v.lanes;
  }
  return v;
}

bool rect_of(const array_layout& l, std::size_t elem_bytes, rect_side& side, rect_region& region) {
  if (l.extents.size() == 0) return false;
  const array_layout c = collapsed({l}).front();
  const unsigned d = c.extents.dims();
  if (d < 2 || d > 3 || c.strides[d - 1] != 1) return false;
  const std::size_t width = c.extents[d - 1], rows = c.extents[d - 2], row = c.strides[d - 2];
  if (row < width) return false;
  side = rect_side{{c.offset * elem_bytes, 0, 0}, row * elem_bytes, 0};
  region = rect_region{width * elem_bytes, rows, 1};
  if (d == 3) {
    const std::size_t slice = c.strides[0];
    if (slice < rows * row || slice % row != 0) return false;
    side.slice_pitch = slice * elem_bytes;
    region[2] = c.extents[0];
  }
  return true;
}

}  // namespace anycl::detail
