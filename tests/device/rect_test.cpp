// SPDX-License-Identifier: Apache-2.0
// Rectangular transfers (read_rect, write_rect, copy_rect) against a host loop over the same
// boxes, in 2-D and 3-D, with OpenCL's default pitches. Their bad inputs are catalogue row B-70
// (tests/reliability/catalogue_test.cpp).
#include <cstdint>
#include <numeric>
#include <vector>

#include "support/device_fixture.hpp"

using anycl::rect_region;
using anycl::rect_side;
using Catch::Matchers::Contains;

namespace {

std::vector<std::uint8_t> bytes(std::size_t n, unsigned seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 131 + seed * 17 + 3);
  return v;
}

// The host's copy of `region` from `src` at `s` to `dst` at `d`, pitches given in full.
void host_rect(const std::vector<std::uint8_t>& src, const rect_side& s,
               std::vector<std::uint8_t>& dst, const rect_side& d, const rect_region& region) {
  for (std::size_t z = 0; z < region[2]; ++z)
    for (std::size_t y = 0; y < region[1]; ++y)
      for (std::size_t x = 0; x < region[0]; ++x)
        dst[(d.origin[2] + z) * d.slice_pitch + (d.origin[1] + y) * d.row_pitch + d.origin[0] + x] =
            src[(s.origin[2] + z) * s.slice_pitch + (s.origin[1] + y) * s.row_pitch + s.origin[0] +
                x];
}

}  // namespace

TEST_CASE("rect: read_rect and write_rect move 2-D and 3-D boxes as a host loop does",
          "[rect][transfer]") {
  anycl::test::env e;
  // A buffer of 4 slices of 6 rows of 40 bytes; host memory of 3 slices of 5 rows of 24 bytes.
  const rect_side dev{{8, 1, 1}, 40, 240}, host{{2, 1, 0}, 24, 120};
  auto device_bytes = bytes(4 * 240, 1);
  auto buf = anycl::buffer::from(e.ctx, device_bytes);
  for (rect_region region : {rect_region{20, 4, 1}, rect_region{13, 3, 3}, rect_region{1, 1, 1}}) {
    INFO("region " << region[0] << " x " << region[1] << " x " << region[2]);
    std::vector<std::uint8_t> got(3 * 120, 0xEE), want = got;
    e.queue.read_rect(buf, dev, got.data(), host, region);
    host_rect(device_bytes, dev, want, host, region);
    CHECK(got == want);
    // Written back one byte higher in every row: the rest of the buffer is unchanged.
    const rect_side moved{{dev.origin[0] + 1, dev.origin[1], dev.origin[2]}, 40, 240};
    auto source = bytes(3 * 120, 2);
    e.queue.write_rect(buf, moved, source.data(), host, region);
    host_rect(source, host, device_bytes, moved, region);
    CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(buf)) == device_bytes);
  }
  // Zero pitches are packed: the region's width, and rows x the row pitch.
  std::vector<std::uint8_t> packed(5 * 2 * 3);
  e.queue.read_rect(buf, rect_side{{0, 0, 0}, 0, 0}, packed.data(), rect_side{}, {5, 2, 3});
  std::vector<std::uint8_t> want(packed.size());
  host_rect(device_bytes, rect_side{{0, 0, 0}, 5, 10}, want, rect_side{{0, 0, 0}, 5, 10},
            {5, 2, 3});
  CHECK(packed == want);
}

TEST_CASE("rect: copy_rect between buffers and within one, after its wait list",
          "[rect][transfer]") {
  anycl::test::env e;
  auto a_bytes = bytes(3 * 64, 3), b_bytes = bytes(2 * 100, 4);
  auto a = anycl::buffer::from(e.ctx, a_bytes), b = anycl::buffer::from(e.ctx, b_bytes);
  const rect_side from{{4, 1, 0}, 16, 64}, to{{10, 1, 0}, 25, 100};
  anycl::user_event gate(e.ctx);
  anycl::event done = e.queue.copy_rect(a, from, b, to, {9, 3, 2}, {gate});
  CHECK(done.status() != anycl::event_status::complete);  // waits for the gate
  gate.set_complete();
  done.wait();
  host_rect(a_bytes, from, b_bytes, to, {9, 3, 2});
  CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(b)) == b_bytes);
  // Within one buffer: the left half of each row to the right half, boxes side by side.
  const rect_side left{{0, 0, 0}, 16, 64}, right{{8, 0, 0}, 16, 64};
  e.queue.copy_rect(a, left, a, right, {8, 4, 3}).wait();
  host_rect(a_bytes, left, a_bytes, right, {8, 4, 3});
  CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(a)) == a_bytes);
  // Interleaved rows do not overlap either: even rows to odd rows (pitch 32, 2 rows of 16).
  const rect_side even{{0, 0, 0}, 32, 64}, odd{{16, 0, 0}, 32, 64};
  e.queue.copy_rect(a, even, a, odd, {16, 2, 3}).wait();
  host_rect(a_bytes, even, a_bytes, odd, {16, 2, 3});
  CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(a)) == a_bytes);
}

TEST_CASE("rect: a zero extent is a no-op that keeps its wait list", "[rect][transfer]") {
  anycl::test::env e;
  auto buf = anycl::buffer::from(e.ctx, bytes(64, 5));
  anycl::user_event gate(e.ctx);
  anycl::event done = e.queue.copy_rect(buf, {}, buf, {}, {0, 4, 1}, {gate});
  CHECK(done.status() != anycl::event_status::complete);
  gate.set_complete();
  done.wait();
  e.queue.read_rect(buf, {}, nullptr, {}, {4, 0, 1});  // no host memory needed
  e.queue.write_rect(buf, {}, nullptr, {}, {4, 1, 0});
  CHECK(e.queue.read(anycl::buffer_view<std::uint8_t>(buf)) == bytes(64, 5));
}

TEST_CASE("rect: on buffer views, boxes count from the view and stay inside it",
          "[rect][transfer]") {
  anycl::test::env e;
  // A view of 6 rows of 8 ints at int 20 of a 100-int buffer; its rows 1..3, ints 2..6.
  std::vector<int> all(100);
  std::iota(all.begin(), all.end(), 0);
  auto buf = anycl::buffer::from(e.ctx, all);
  anycl::buffer_view<int> v(buf, 20, 48);
  const rect_side box{{2 * sizeof(int), 1, 0}, 8 * sizeof(int), 0};
  const rect_region region{5 * sizeof(int), 3, 1};
  std::vector<int> got(15), want;
  e.queue.read_rect(v, box, got.data(), {}, region);
  for (int y = 1; y < 4; ++y)
    for (int x = 2; x < 7; ++x) want.push_back(20 + y * 8 + x);
  CHECK(got == want);
  // Written back negated, then copied to the same place of a second view of another buffer.
  for (int& x : got) x = -x;
  e.queue.write_rect(v, box, got.data(), {}, region);
  auto other = anycl::buffer::from(e.ctx, std::vector<int>(100, 7));
  anycl::buffer_view<int> w(other, 52, 48);
  e.queue.copy_rect(v, box, w, box, region).wait();
  std::vector<int> host = all, host_other(100, 7);
  for (int y = 1; y < 4; ++y)
    for (int x = 2; x < 7; ++x) {
      host[20 + y * 8 + x] = -(20 + y * 8 + x);
      host_other[52 + y * 8 + x] = -(20 + y * 8 + x);
    }
  CHECK(e.queue.read(anycl::buffer_view<int>(buf)) == host);
  CHECK(e.queue.read(anycl::buffer_view<int>(other)) == host_other);
  // A box inside the buffer but past the view's end is refused, naming the view.
  REQUIRE_THROWS_WHAT(e.queue.read_rect(v, rect_side{{0, 5, 0}, 8 * sizeof(int), 0}, got.data(), {},
                                        {8 * sizeof(int), 2, 1}),
                      std::out_of_range,
                      Contains("read_rect: the view box (origin {0, 5, 0}, region {32, 2, 1}, row "
                               "pitch 32, slice pitch 64) ends past the 192-byte view"));
  REQUIRE_THROWS_WHAT(e.queue.copy_rect(v, box, w, rect_side{{0, 6, 0}, 32, 0}, region),
                      std::out_of_range, Contains("copy_rect: the destination view box"));
}
