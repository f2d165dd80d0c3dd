// SPDX-License-Identifier: Apache-2.0
// The queue's image commands: read, write, copy, fill and map of boxes, checked before the driver
// (catalogue row B-75: POCL 3.1 reads into host rows narrower than the box's).
#include <stdexcept>
#include <string>

#include "anycl/command_queue.hpp"
#include "core/check.hpp"
#include "core/event_state.hpp"
#include "core/image_checks.hpp"
#include "core/queue_internal.hpp"

namespace anycl {

namespace {

bool empty_box(const image_point& region) {
  return region[0] == 0 || region[1] == 0 || region[2] == 0;
}

// The checks of a read or write: the box, host memory and its pitches.
void check_host_box(const char* what, const image& img, const image_point& origin,
                    const image_point& region, const void* host, std::size_t row_pitch,
                    std::size_t slice_pitch) {
  detail::check_box(what, img, origin, region);
  if (empty_box(region)) return;
  if (host == nullptr) throw std::invalid_argument(std::string(what) + ": null host pointer");
  detail::check_host_pitches(what, img.pixel_size(), img.type(), region, row_pitch, slice_pitch);
}

bool boxes_overlap(const image_point& a, const image_point& b, const image_point& region) {
  for (std::size_t i = 0; i < 3; ++i)
    if (a[i] >= b[i] + region[i] || b[i] >= a[i] + region[i]) return false;
  return true;
}

}  // namespace

namespace {
// A blocking read or write of a box between `img` and host memory, after its checks; `enqueue`
// makes the non-blocking call (its event is waited for and released on every path).
template <class Enqueue>
void host_transfer(const command_queue& q, const char* what, const char* call, const image& img,
                   const image_point& origin, const image_point& region, const void* host,
                   std::size_t row_pitch, std::size_t slice_pitch, const wait_list& waits,
                   Enqueue enqueue) {
  detail::require(q);
  detail::check_not_in_callback(what);
  check_host_box(what, img, origin, region, host, row_pitch, slice_pitch);
  if (empty_box(region)) return detail::wait_list_only(waits);
  cl_event ev = nullptr;
  ANYCL_CHECK(enqueue(&ev), call, "a box of ", region[0], " x ", region[1], " x ", region[2]);
  detail::wait_raw(call, ev);
}
}  // namespace

void command_queue::read_image(const image& img, const image_point& origin,
                               const image_point& region, void* dst, std::size_t row_pitch,
                               std::size_t slice_pitch, const wait_list& waits) const {
  host_transfer(*this, "read_image", "clEnqueueReadImage", img, origin, region, dst, row_pitch,
                slice_pitch, waits, [&](cl_event* ev) {
                  return clEnqueueReadImage(get(), img.get(), CL_FALSE, origin.data(),
                                            region.data(), row_pitch, slice_pitch, dst,
                                            waits.size(), waits.data(), ev);
                });
}

void command_queue::write_image(const image& img, const image_point& origin,
                                const image_point& region, const void* src, std::size_t row_pitch,
                                std::size_t slice_pitch, const wait_list& waits) const {
  host_transfer(*this, "write_image", "clEnqueueWriteImage", img, origin, region, src, row_pitch,
                slice_pitch, waits, [&](cl_event* ev) {
                  return clEnqueueWriteImage(get(), img.get(), CL_FALSE, origin.data(),
                                             region.data(), row_pitch, slice_pitch, src,
                                             waits.size(), waits.data(), ev);
                });
}

event command_queue::copy_image(const image& src, const image_point& src_origin, const image& dst,
                                const image_point& dst_origin, const image_point& region,
                                const wait_list& waits) const {
  detail::require(*this);
  detail::check_box("copy_image source", src, src_origin, region);
  detail::check_box("copy_image destination", dst, dst_origin, region);
  if (src.format() != dst.format())
    throw std::invalid_argument("copy_image: formats differ (" + src.format().to_string() + " to " +
                                dst.format().to_string() + ")");
  if (empty_box(region)) return marker(waits);
  if (src.get() == dst.get() && boxes_overlap(src_origin, dst_origin, region))
    throw std::invalid_argument("copy_image: the boxes overlap in the same image");
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueCopyImage(get(), src.get(), dst.get(), src_origin.data(), dst_origin.data(),
                                 region.data(), waits.size(), waits.data(), &ev),
              "clEnqueueCopyImage", "a box of ", region[0], " x ", region[1], " x ", region[2]);
  return event::adopt(ev);
}

event command_queue::fill_image_raw(const image& img, const void* color, char kind,
                                    const image_point& origin, const image_point& region,
                                    const wait_list& waits) const {
  detail::require(*this);
  detail::check_box("fill_image", img, origin, region);
  const char want = img.format().read_kind();
  if (kind != want)
    throw std::invalid_argument("fill_image: a " +
                                std::string(kind == 'f'   ? "cl_float4"
                                            : kind == 'i' ? "cl_int4"
                                                          : "cl_uint4") +
                                " color for a " + img.format().to_string() +
                                " image, which takes a " +
                                (want == 'f'   ? "cl_float4"
                                 : want == 'i' ? "cl_int4"
                                               : "cl_uint4"));
  if (empty_box(region)) return marker(waits);
  cl_event ev = nullptr;
  ANYCL_CHECK(clEnqueueFillImage(get(), img.get(), color, origin.data(), region.data(),
                                 waits.size(), waits.data(), &ev),
              "clEnqueueFillImage", "a box of ", region[0], " x ", region[1], " x ", region[2]);
  return event::adopt(ev);
}

event command_queue::fill_image(const image& img, const cl_float4& color, const image_point& origin,
                                const image_point& region, const wait_list& waits) const {
  return fill_image_raw(img, &color, 'f', origin, region, waits);
}
event command_queue::fill_image(const image& img, const cl_int4& color, const image_point& origin,
                                const image_point& region, const wait_list& waits) const {
  return fill_image_raw(img, &color, 'i', origin, region, waits);
}
event command_queue::fill_image(const image& img, const cl_uint4& color, const image_point& origin,
                                const image_point& region, const wait_list& waits) const {
  return fill_image_raw(img, &color, 'u', origin, region, waits);
}

mapped_image command_queue::map_image(const image& img, const image_point& origin,
                                      const image_point& region, map_access access,
                                      const wait_list& waits) const {
  detail::require(*this);
  detail::check_not_in_callback("command_queue::map_image (blocking)");
  detail::check_box("map_image", img, origin, region);
  if (empty_box(region)) {
    detail::wait_list_only(waits);
    return mapped_image();
  }
  std::size_t row_pitch = 0, slice_pitch = 0;
  cl_int status = CL_SUCCESS;
  void* p = clEnqueueMapImage(get(), img.get(), CL_TRUE, detail::map_flags(access), origin.data(),
                              region.data(), &row_pitch, &slice_pitch, waits.size(), waits.data(),
                              nullptr, &status);
  ANYCL_CHECK(status, "clEnqueueMapImage", "a box of ", region[0], " x ", region[1], " x ",
              region[2]);
  return mapped_image(mapped_bytes(*this, buffer::retain(img.get()), p), row_pitch, slice_pitch);
}

}  // namespace anycl
