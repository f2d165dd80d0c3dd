// SPDX-License-Identifier: Apache-2.0
// Images and samplers: every image type written and read back (whole, and boxes through padded
// host rows), copies, fills and maps, and kernels reading through samplers, checked against host
// computations. Bad inputs are catalogue row B-75 (tests/reliability/catalogue_test.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "support/device_fixture.hpp"

namespace {

using anycl::image_point;
using anycl::image_type;
using Catch::Matchers::Contains;

const anycl::image_format rgba8{CL_RGBA, CL_UNORM_INT8};
const anycl::image_format r_float{CL_R, CL_FLOAT};
const anycl::image_format r_uint{CL_R, CL_UNSIGNED_INT32};
const anycl::image_format rgba_float{CL_RGBA, CL_FLOAT};

// Bytes 0..n-1 of a recognisable pattern.
std::vector<std::uint8_t> pattern(std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>((i * 131 + i / 7) & 0xff);
  return v;
}

// The box at `o` of `r` of a packed image of `lim` pixels of `px` bytes, with rows `row` and
// slices `slice` bytes apart in the result (the host's own extraction).
std::vector<std::uint8_t> host_box(const std::vector<std::uint8_t>& all, const image_point& lim,
                                   std::size_t px, const image_point& o, const image_point& r,
                                   std::size_t row, std::size_t slice) {
  std::vector<std::uint8_t> out(r[2] * slice + (r[1] - 1) * row + r[0] * px, 0);
  for (std::size_t z = 0; z < r[2]; ++z)
    for (std::size_t y = 0; y < r[1]; ++y)
      for (std::size_t x = 0; x < r[0] * px; ++x)
        out[z * slice + y * row + x] =
            all[((o[2] + z) * lim[1] + o[1] + y) * lim[0] * px + o[0] * px + x];
  return out;
}

}  // namespace

TEST_CASE("image: every type round-trips, whole and as boxes through padded rows", "[image]") {
  anycl::test::env e;
  struct shape {
    image_type type;
    anycl::image_extent extent;
  };
  const shape shapes[] = {
      {image_type::image1d, {37, 1, 1, 1}},  {image_type::image1d_array, {19, 1, 1, 5}},
      {image_type::image2d, {23, 17, 1, 1}}, {image_type::image2d_array, {11, 9, 1, 4}},
      {image_type::image3d, {13, 7, 5, 1}},
  };
  for (const shape& s : shapes) {
    for (const anycl::image_format& f : {rgba8, r_float}) {
      INFO("type " << static_cast<int>(s.type) << ", format " << f.to_string());
      const std::size_t px = f.pixel_size();
      anycl::image probe(e.ctx, s.type, f, s.extent);
      const image_point lim = probe.region();
      const auto data = pattern(lim[0] * lim[1] * lim[2] * px);
      anycl::image img(e.ctx, s.type, f, s.extent, data.data());
      std::vector<std::uint8_t> back(data.size());
      e.queue.read_image(img, {0, 0, 0}, lim, back.data());
      CHECK(back == data);
      // A box at (1, .., ..) of about half the image, through rows padded by 8 bytes.
      const image_point o{1, lim[1] > 1 ? 1u : 0u, lim[2] > 1 ? 1u : 0u};
      const image_point r{lim[0] / 2, std::max<std::size_t>(lim[1] / 2, 1),
                          std::max<std::size_t>(lim[2] / 2, 1)};
      const std::size_t row = r[0] * px + 8;
      const bool slices = s.type != image_type::image1d && s.type != image_type::image2d;
      // A 1-D array's layers are its rows: the slice pitch separates them.
      const bool layered = s.type == image_type::image1d_array;
      const std::size_t slice = layered ? row : row * r[1];
      const std::size_t bytes = layered ? row * r[1] : slice * r[2];
      std::vector<std::uint8_t> box(bytes, 0);
      e.queue.read_image(img, o, r, box.data(), row, slices ? slice : 0);
      auto want = host_box(data, lim, px, o, r, row, slice);
      want.resize(bytes);
      for (std::size_t i = 0; i < box.size(); ++i)
        if (i % row >= r[0] * px) box[i] = want[i] = 0;  // the padding is not the image's
      CHECK(box == want);
      // Written back shifted by one pixel: the host computes where every byte lands.
      anycl::image copy(e.ctx, s.type, f, s.extent, data.data());
      e.queue.write_image(copy, {0, 0, 0}, r, box.data(), row, slices ? slice : 0);
      e.queue.read_image(copy, {0, 0, 0}, lim, back.data());
      auto expect = data;
      for (std::size_t z = 0; z < r[2]; ++z)
        for (std::size_t y = 0; y < r[1]; ++y)
          for (std::size_t x = 0; x < r[0] * px; ++x)
            expect[(z * lim[1] + y) * lim[0] * px + x] = box[z * slice + y * row + x];
      CHECK(back == expect);
    }
  }
}

TEST_CASE("image: copies, fills and maps of boxes match the host", "[image]") {
  anycl::test::env e;
  const std::size_t w = 16, h = 12;
  std::vector<float> a(w * h);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i) * 0.5f;
  anycl::image src(e.ctx, image_type::image2d, r_float, {w, h, 1, 1}, a.data());
  anycl::image dst(e.ctx, image_type::image2d, r_float, {w, h, 1, 1});
  e.queue.fill_image(dst, cl_float4{{-1.0f, 0, 0, 0}}, {0, 0, 0}, {w, h, 1});
  e.queue.copy_image(src, {2, 3, 0}, dst, {5, 1, 0}, {6, 4, 1});
  // A copy within one image, boxes apart.
  e.queue.copy_image(src, {0, 0, 0}, src, {8, 8, 0}, {4, 4, 1});
  std::vector<float> want(w * h, -1.0f), want_src = a;
  for (std::size_t y = 0; y < 4; ++y)
    for (std::size_t x = 0; x < 6; ++x) want[(1 + y) * w + 5 + x] = a[(3 + y) * w + 2 + x];
  for (std::size_t y = 0; y < 4; ++y)
    for (std::size_t x = 0; x < 4; ++x) want_src[(8 + y) * w + 8 + x] = a[y * w + x];
  std::vector<float> got(w * h);
  e.queue.read_image(dst, {0, 0, 0}, {w, h, 1}, got.data());
  CHECK(got == want);
  e.queue.read_image(src, {0, 0, 0}, {w, h, 1}, got.data());
  CHECK(got == want_src);
  {
    anycl::mapped_image m = e.queue.map_image(dst, {4, 2, 0}, {3, 5, 1});
    REQUIRE(m.row_pitch() >= 3 * sizeof(float));
    for (std::size_t y = 0; y < 5; ++y)
      for (std::size_t x = 0; x < 3; ++x) {
        CHECK(*m.pixel<float>(x, y) == want[(2 + y) * w + 4 + x]);
        *m.pixel<float>(x, y) = 100.0f + static_cast<float>(y * 3 + x);
        want[(2 + y) * w + 4 + x] = 100.0f + static_cast<float>(y * 3 + x);
      }
  }
  e.queue.read_image(dst, {0, 0, 0}, {w, h, 1}, got.data());
  CHECK(got == want);
  // Integer formats fill with integer colours.
  anycl::image u(e.ctx, image_type::image2d, r_uint, {w, h, 1, 1});
  e.queue.fill_image(u, cl_uint4{{4000000000u, 0, 0, 0}}, {0, 0, 0}, {w, h, 1});
  std::vector<std::uint32_t> ui(w * h);
  e.queue.read_image(u, {0, 0, 0}, {w, h, 1}, ui.data());
  CHECK(ui == std::vector<std::uint32_t>(w * h, 4000000000u));
}

TEST_CASE("image: kernels read through samplers and write pixels", "[image]") {
  anycl::test::env e;
  anycl::program prog = anycl::test::build(e.ctx, "tests/cl_kernels/images.cl");
  const std::size_t w = 9, h = 7;
  std::vector<float> a(w * h);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 37) % 101);
  anycl::image img(e.ctx, image_type::image2d, r_float, {w, h, 1, 1}, a.data(), 0, 0,
                   anycl::memory_access::read_only);
  auto sample =
      prog.function<anycl::image, anycl::sampler, float, float, anycl::buffer_view<float>>(
          "sample");
  anycl::buffer out(e.ctx, w * h * sizeof(float));
  const auto at = [&](long x, long y) {  // clamp to edge
    x = std::clamp(x, 0L, static_cast<long>(w) - 1);
    y = std::clamp(y, 0L, static_cast<long>(h) - 1);
    return a[static_cast<std::size_t>(y) * w + static_cast<std::size_t>(x)];
  };
  // Nearest at pixel centres: the image itself.
  anycl::sampler nearest(e.ctx, false, anycl::addressing_mode::clamp_to_edge,
                         anycl::filter_mode::nearest);
  sample(e.queue, anycl::nd_range{{w, h}}, img, nearest, 0.5f, 0.5f, out).wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(out)) == a);
  // Linear on the corners between pixels: the mean of four, clamped at the edges.
  anycl::sampler linear(e.ctx, false, anycl::addressing_mode::clamp_to_edge,
                        anycl::filter_mode::linear);
  sample(e.queue, anycl::nd_range{{w, h}}, img, linear, 1.0f, 1.0f, out).wait();
  const std::vector<float> got = e.queue.read(anycl::buffer_view<float>(out));
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const long X = static_cast<long>(x), Y = static_cast<long>(y);
      const float want = (at(X, Y) + at(X + 1, Y) + at(X, Y + 1) + at(X + 1, Y + 1)) / 4.0f;
      INFO("pixel " << x << ", " << y);
      CHECK(std::fabs(got[y * w + x] - want) <= 1e-3f * (1.0f + std::fabs(want)));
    }
  // write_imagef into an RGBA float image.
  anycl::image painted(e.ctx, image_type::image2d, rgba_float, {w, h, 1, 1},
                       anycl::memory_access::write_only);
  prog.function<anycl::image>("paint")(e.queue, anycl::nd_range{{w, h}}, painted).wait();
  std::vector<cl_float4> px(w * h);
  e.queue.read_image(painted, {0, 0, 0}, {w, h, 1}, px.data());
  for (std::size_t y = 0; y < h; ++y)
    for (std::size_t x = 0; x < w; ++x) {
      const cl_float4& p = px[y * w + x];
      CHECK(p.s[0] == static_cast<float>(x) / 256.0f);
      CHECK(p.s[2] == static_cast<float>(x + y) / 256.0f);
      CHECK(p.s[3] == 1.0f);
    }
}

TEST_CASE("image: 3-D images in kernels and command buffers, samplers kept by the recording",
          "[image]") {
  anycl::test::env e;
  anycl::program prog = anycl::test::build(e.ctx, "tests/cl_kernels/images.cl");
  auto twice = prog.function<anycl::image, anycl::image>("double3d");
  const anycl::image_extent ext{6, 5, 4, 1};
  std::vector<std::uint32_t> v(6 * 5 * 4);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint32_t>(i * 3 + 1);
  anycl::image in(e.ctx, image_type::image3d, r_uint, ext, v.data());
  anycl::image out(e.ctx, image_type::image3d, r_uint, ext);
  anycl::command_buffer cb(e.queue);
  cb.launch(twice, anycl::nd_range{{6, 5, 4}}, in, out);
  cb.enqueue().wait();
  std::vector<std::uint32_t> got(v.size());
  e.queue.read_image(out, {0, 0, 0}, out.region(), got.data());
  for (std::size_t i = 0; i < v.size(); ++i) REQUIRE(got[i] == v[i] * 2);

  // A sampler argument recorded, then dropped by the caller: the recording keeps it.
  auto sample =
      prog.function<anycl::image, anycl::sampler, float, float, anycl::buffer_view<float>>(
          "sample");
  std::vector<float> a(16);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  anycl::image img(e.ctx, image_type::image2d, r_float, {4, 4, 1, 1}, a.data());
  anycl::buffer res(e.ctx, 16 * sizeof(float));
  anycl::command_buffer cb2(e.queue);
  {
    anycl::sampler s(e.ctx, false, anycl::addressing_mode::clamp, anycl::filter_mode::nearest);
    cb2.launch(sample, anycl::nd_range{{4, 4}}, img, s, 0.5f, 0.5f, res);
  }
  CHECK_FALSE(cb2.native());  // drivers crash recording a sampler argument: emulated
  cb2.enqueue().wait();
  CHECK(e.queue.read(anycl::buffer_view<float>(res)) == a);
}

TEST_CASE("image: argument info names each image's access qualifier", "[image]") {
  anycl::test::env e;
  anycl::program prog = anycl::test::build(e.ctx, "tests/cl_kernels/images.cl",
                                           anycl::build_options{}.flag("-cl-kernel-arg-info"));
  const anycl::kernel twice(prog, "double3d"), sample(prog, "sample");
  const auto in = twice.arg_info(0), out = twice.arg_info(1), s = sample.arg_info(1);
  REQUIRE(in);
  REQUIRE(out);
  REQUIRE(s);
  CHECK(in->access == anycl::access_qualifier::read_only);
  CHECK(out->access == anycl::access_qualifier::write_only);
  CHECK(s->access == anycl::access_qualifier::none);
  CHECK(s->type_name == "sampler_t");
}

TEST_CASE("image: formats, sizes and samplers are described", "[image]") {
  anycl::test::env e;
  // OpenCL's minimum set for read-write 2-D images includes RGBA UNORM_INT8 and R FLOAT.
  const auto formats =
      anycl::image::supported_formats(e.ctx, image_type::image2d, anycl::memory_access::read_write);
  CHECK(std::find(formats.begin(), formats.end(), rgba8) != formats.end());
  CHECK(std::find(formats.begin(), formats.end(), r_float) != formats.end());
  CHECK(rgba8.to_string() == "CL_RGBA/CL_UNORM_INT8");
  CHECK(rgba8.pixel_size() == 4);
  CHECK(rgba_float.pixel_size() == 16);
  CHECK((anycl::image_format{CL_RGB, CL_UNORM_SHORT_565}.pixel_size()) == 2);
  CHECK(r_uint.read_kind() == 'u');
  CHECK((anycl::image_format{CL_RG, CL_SIGNED_INT16}.read_kind()) == 'i');
  // parse() reads what to_string() writes, in any case and without the CL_ prefixes.
  for (const anycl::image_format& f : formats)
    CHECK(anycl::image_format::parse(f.to_string()) == f);
  CHECK(anycl::image_format::parse("r/float") == r_float);
  CHECK(anycl::image_format::parse("cl_rgba/Unorm_Int8") == rgba8);
  CHECK(anycl::image_format::parse("rx/float").order == static_cast<cl_channel_order>(CL_Rx));
  REQUIRE_THROWS_WHAT(anycl::image_format::parse("rgba"), std::invalid_argument,
                      Contains("'rgba' is not ORDER/TYPE"));
  REQUIRE_THROWS_WHAT(anycl::image_format::parse("rgb8/float"), std::invalid_argument,
                      Contains("unknown channel order 'rgb8'; orders: R, A, RG"));
  REQUIRE_THROWS_WHAT(anycl::image_format::parse("CL_R/CL_FLOAT32"), std::invalid_argument,
                      Contains("unknown channel type 'CL_FLOAT32'; types: SNORM_INT8"));
  REQUIRE_THROWS_WHAT(anycl::image_format::parse("/"), std::invalid_argument,
                      Contains("unknown channel order ''"));
  anycl::image img(e.ctx, image_type::image2d_array, rgba8, {8, 4, 1, 3});
  CHECK(img.region() == image_point{8, 4, 3});
  cl_image_format raw{};
  REQUIRE(clGetImageInfo(img.get(), CL_IMAGE_FORMAT, sizeof raw, &raw, nullptr) == CL_SUCCESS);
  CHECK(raw.image_channel_order == static_cast<cl_channel_order>(CL_RGBA));
  std::size_t layers = 0;
  REQUIRE(clGetImageInfo(img.get(), CL_IMAGE_ARRAY_SIZE, sizeof layers, &layers, nullptr) ==
          CL_SUCCESS);
  CHECK(layers == 3);
  anycl::sampler s(e.ctx, true, anycl::addressing_mode::mirrored_repeat,
                   anycl::filter_mode::linear);
  cl_addressing_mode mode = 0;
  REQUIRE(clGetSamplerInfo(s.get(), CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, nullptr) ==
          CL_SUCCESS);
  CHECK(mode == static_cast<cl_addressing_mode>(CL_ADDRESS_MIRRORED_REPEAT));
}
