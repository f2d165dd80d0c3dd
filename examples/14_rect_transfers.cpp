// SPDX-License-Identifier: Apache-2.0
// Rectangular transfers: tiles of a picture held in one buffer read and written without copying
// whole rows, and a sub-volume copied between two 3-D volumes on the device, each checked
// against the same work done on the host.
//
//   14_rect_transfers
#include <anycl/anycl.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <vector>

int main() try {
  anycl::command_queue q(anycl::select_device());
  const anycl::context ctx = q.context();

  // A 640 x 480 grey picture, one byte a pixel, rows 640 bytes apart.
  const std::size_t width = 640, height = 480, tile = 64;
  std::vector<std::uint8_t> picture(width * height);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x)
      picture[y * width + x] = static_cast<std::uint8_t>((x * 3 + y * 5) % 251);
  anycl::buffer image = anycl::buffer::from(ctx, picture);

  // Invert each 64 x 64 tile on the diagonal: read it packed, change it, write it back.
  std::vector<std::uint8_t> t(tile * tile), want = picture;
  for (std::size_t k = 0; (k + 1) * tile <= height; ++k) {
    const anycl::rect_side at{{k * tile, k * tile, 0}, width, 0};
    q.read_rect(image, at, t.data(), {}, {tile, tile, 1});
    for (std::uint8_t& p : t) p = static_cast<std::uint8_t>(255 - p);
    q.write_rect(image, at, t.data(), {}, {tile, tile, 1});
    for (std::size_t y = k * tile; y < (k + 1) * tile; ++y)
      for (std::size_t x = k * tile; x < (k + 1) * tile; ++x)
        want[y * width + x] = static_cast<std::uint8_t>(255 - want[y * width + x]);
  }
  const bool tiles_ok = q.read(anycl::buffer_view<const std::uint8_t>(image)) == want;
  std::printf("inverted %zu tiles of %zu x %zu on the diagonal of a %zu x %zu picture: %s\n",
              height / tile, tile, tile, width, height, tiles_ok ? "ok" : "WRONG");

  // Two volumes of 32 x 32 x 32 floats; the 8 x 10 x 12 box at (4, 5, 6) of the first goes to
  // (20, 0, 1) of the second, on the device.
  const std::size_t n = 32, row = n * sizeof(float), slice = n * row;
  std::vector<float> a(n * n * n), b(n * n * n, -1.0f);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  anycl::buffer va = anycl::buffer::from(ctx, a), vb = anycl::buffer::from(ctx, b);
  q.copy_rect(va, anycl::rect_side{{4 * sizeof(float), 5, 6}, row, slice}, vb,
              anycl::rect_side{{20 * sizeof(float), 0, 1}, row, slice}, {8 * sizeof(float), 10, 12})
      .wait();
  for (std::size_t z = 0; z < 12; ++z)
    for (std::size_t y = 0; y < 10; ++y)
      for (std::size_t x = 0; x < 8; ++x)
        b[(1 + z) * n * n + y * n + 20 + x] = a[(6 + z) * n * n + (5 + y) * n + 4 + x];
  const bool box_ok = q.read(anycl::buffer_view<const float>(vb)) == b;
  std::printf("copied an 8 x 10 x 12 box between 32^3 volumes: %s\n", box_ok ? "ok" : "WRONG");
  if (!tiles_ok || !box_ok) return 1;
  std::printf("rect transfers: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "14_rect_transfers: %s\n", e.what());
  return 1;
}
