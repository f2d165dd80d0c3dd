// SPDX-License-Identifier: Apache-2.0
// Rectangular transfers (clEnqueue{Read,Write,Copy}BufferRect): each side's pitches resolved and
// checked, each buffer side's box checked against its buffer, and a copy within one buffer
// refused where the boxes overlap, all before the driver, with messages that name the numbers.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "anycl/command_queue.hpp"
#include "core/check.hpp"
#include "core/event_state.hpp"
#include "core/queue_internal.hpp"
#include "core/size_math.hpp"

namespace anycl {
namespace {

std::string box_text(const rect_side& s, const rect_region& r) {
  return "origin {" + std::to_string(s.origin[0]) + ", " + std::to_string(s.origin[1]) + ", " +
         std::to_string(s.origin[2]) + "}, region {" + std::to_string(r[0]) + ", " +
         std::to_string(r[1]) + ", " + std::to_string(r[2]) + "}, row pitch " +
         std::to_string(s.row_pitch) + ", slice pitch " + std::to_string(s.slice_pitch);
}

// `s` with OpenCL's defaults for zero pitches, checked against the region as OpenCL requires.
rect_side resolved(const char* what, const char* side, rect_side s, const rect_region& r) {
  if (s.row_pitch == 0) s.row_pitch = r[0];
  if (s.slice_pitch == 0 && !detail::mul_add(r[1], s.row_pitch, 0, s.slice_pitch))
    throw std::out_of_range(std::string(what) + ": the " + side + " slice pitch overflows");
  std::size_t rows_bytes = 0;
  const bool fits = detail::mul_add(r[1], s.row_pitch, 0, rows_bytes);
  if (s.row_pitch < r[0] || !fits || s.slice_pitch < rows_bytes || s.slice_pitch % s.row_pitch != 0)
    throw std::invalid_argument(std::string(what) + ": the " + side + " pitches do not hold the " +
                                "region (" + box_text(s, r) + "; a row pitch needs at least the " +
                                "region's width, a slice pitch at least rows x row pitch and a " +
                                "multiple of the row pitch)");
  return s;
}

// The byte offset of the box's first byte, and one past its last, in its memory.
struct byte_span {
  std::size_t begin = 0, end = 0;
  bool fits = false;
};

byte_span span_of(const rect_side& s, const rect_region& r) {
  byte_span b;
  std::size_t last = 0;
  b.fits = detail::mul_add(s.origin[2], s.slice_pitch, s.origin[0], b.begin) &&
           detail::mul_add(s.origin[1], s.row_pitch, b.begin, b.begin) &&
           detail::mul_add(r[2] - 1, s.slice_pitch, r[0], last) &&
           detail::mul_add(r[1] - 1, s.row_pitch, last, last) &&
           detail::mul_add(1, b.begin, last, b.end);
  return b;
}

// A buffer side, resolved and checked against its buffer.
rect_side buffer_side(const char* what, const char* side, const rect_side& s, const rect_region& r,
                      const buffer& buf) {
  const rect_side out = resolved(what, side, s, r);
  const byte_span b = span_of(out, r);
  if (!b.fits || b.end > buf.size())
    throw std::out_of_range(std::string(what) + ": the " + side + " box (" + box_text(out, r) +
                            ") ends past the " + std::to_string(buf.size()) + "-byte buffer");
  return out;
}

// Whether two boxes of one buffer, with equal pitches, share a byte: as boxes where each lies
// within its rows and slices, else (conservatively) as byte ranges.
bool overlap(const rect_side& a, const rect_side& b, const rect_region& r) {
  const std::size_t rows = a.slice_pitch / a.row_pitch;
  bool boxes = true;
  for (const rect_side* s : {&a, &b})
    boxes = boxes && s->origin[0] + r[0] <= a.row_pitch && s->origin[1] + r[1] <= rows;
  if (!boxes) {
    const byte_span x = span_of(a, r), y = span_of(b, r);
    return x.begin < y.end && y.begin < x.end;
  }
  for (int d = 0; d < 3; ++d)
    if (a.origin[d] + r[d] <= b.origin[d] || b.origin[d] + r[d] <= a.origin[d]) return false;
  return true;
}

bool empty(const rect_region& r) { return r[0] == 0 || r[1] == 0 || r[2] == 0; }

}  // namespace

namespace {

// A blocking transfer's two sides, checked (`what` names the call in messages), after the
// queue, callback and zero-extent checks; false for a zero extent (the wait list is then waited).
bool host_transfer_sides(const command_queue& q, const char* what, const buffer& buf,
                         const rect_side& buf_side, const void* host, const rect_side& host_side,
                         const rect_region& region, const wait_list& waits, rect_side& b,
                         rect_side& h) {
  detail::require(q);
  detail::check_not_in_callback((std::string("command_queue::") + what + " (blocking)").c_str());
  if (empty(region)) {
    detail::wait_list_only(waits);
    return false;
  }
  b = buffer_side(what, "buffer", buf_side, region, buf);
  h = resolved(what, "host", host_side, region);
  if (host == nullptr) throw std::invalid_argument(std::string(what) + ": null host pointer");
  return true;
}

}  // namespace

void command_queue::read_rect(const buffer& src, const rect_side& src_side, void* dst,
                              const rect_side& host_side, const rect_region& region,
                              const wait_list& waits) const {
  rect_side b, h;
  if (!host_transfer_sides(*this, "read_rect", src, src_side, dst, host_side, region, waits, b, h))
    return;
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueReadBufferRect(get(), src.get(), CL_TRUE, b.origin.data(), h.origin.data(),
                                      region.data(), b.row_pitch, b.slice_pitch, h.row_pitch,
                                      h.slice_pitch, dst, waits.size(), waits.data(), &ev),
              "clEnqueueReadBufferRect", box_text(b, region), " of a ", src.size(), "-byte buffer");
  detail::wait_raw("clEnqueueReadBufferRect", ev);
}

void command_queue::write_rect(const buffer& dst, const rect_side& dst_side, const void* src,
                               const rect_side& host_side, const rect_region& region,
                               const wait_list& waits) const {
  rect_side b, h;
  if (!host_transfer_sides(*this, "write_rect", dst, dst_side, src, host_side, region, waits, b, h))
    return;
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueWriteBufferRect(get(), dst.get(), CL_TRUE, b.origin.data(), h.origin.data(),
                                       region.data(), b.row_pitch, b.slice_pitch, h.row_pitch,
                                       h.slice_pitch, src, waits.size(), waits.data(), &ev),
              "clEnqueueWriteBufferRect", box_text(b, region), " of a ", dst.size(),
              "-byte buffer");
  detail::wait_raw("clEnqueueWriteBufferRect", ev);
}

rect_side command_queue::view_box_bytes(const char* what, const char* side, std::size_t offset,
                                        std::size_t bytes, const rect_side& s,
                                        const rect_region& region) {
  if (empty(region)) return s;
  rect_side out = resolved(what, side, s, region);
  const byte_span b = span_of(out, region);
  if (!b.fits || b.end > bytes)
    throw std::out_of_range(std::string(what) + ": the " + side + " box (" + box_text(out, region) +
                            ") ends past the " + std::to_string(bytes) + "-byte view");
  out.origin[0] += offset;  // the view's start, in the buffer; the box stays inside it
  return out;
}

event command_queue::copy_rect(const buffer& src, const rect_side& src_side, const buffer& dst,
                               const rect_side& dst_side, const rect_region& region,
                               const wait_list& waits) const {
  detail::require(*this);
  if (empty(region)) return marker(waits);
  const rect_side s = buffer_side("copy_rect", "source", src_side, region, src);
  const rect_side d = buffer_side("copy_rect", "destination", dst_side, region, dst);
  if (src.get() == dst.get()) {
    if (s.row_pitch != d.row_pitch || s.slice_pitch != d.slice_pitch)
      throw std::invalid_argument(
          "copy_rect: within one buffer the pitches must be equal (source " + box_text(s, region) +
          "; destination " + box_text(d, region) + ")");
    if (overlap(s, d, region))
      throw std::invalid_argument("copy_rect: the source box (" + box_text(s, region) +
                                  ") and the destination box at origin {" +
                                  std::to_string(d.origin[0]) + ", " + std::to_string(d.origin[1]) +
                                  ", " + std::to_string(d.origin[2]) +
                                  "} overlap in the same buffer");
  }
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueCopyBufferRect(get(), src.get(), dst.get(), s.origin.data(), d.origin.data(),
                                      region.data(), s.row_pitch, s.slice_pitch, d.row_pitch,
                                      d.slice_pitch, waits.size(), waits.data(), &ev),
              "clEnqueueCopyBufferRect", box_text(s, region), " to ", box_text(d, region));
  return event::adopt(ev);
}

}  // namespace anycl
