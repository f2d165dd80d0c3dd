// SPDX-License-Identifier: Apache-2.0
// Images and samplers: a separable Gaussian blur of a grey picture (PGM) through image2d_t, a
// horizontal pass into an intermediate image and a vertical one, the edges clamped by a sampler;
// checked against the same blur on the host.
//
//   19_image_blur [IN.pgm] [--out DIR]   without IN, a made-up 256 x 256 picture; --out writes
//                                        DIR/blur-input.pgm and DIR/blur-output.pgm
#include <anycl/anycl.hpp>

#ifndef EXAMPLE_CL_DIR  // set by examples/CMakeLists.txt; point it at your own kernel folder
#define EXAMPLE_CL_DIR "cl"
#endif

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct picture {
  std::size_t w = 0, h = 0;
  std::vector<float> v;  // 0..1, row by row
};

// A binary PGM (P5, maxval 255); std::runtime_error for anything else.
picture read_pgm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int maxval = 0;
  picture p;
  in >> magic >> p.w >> p.h >> maxval;
  in.get();
  if (!in || magic != "P5" || maxval != 255 || p.w == 0 || p.h == 0)
    throw std::runtime_error(path + ": not a binary 8-bit PGM (P5, maxval 255)");
  std::vector<unsigned char> bytes(p.w * p.h);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in)
    throw std::runtime_error(path + ": shorter than its " + std::to_string(p.w) + " x " +
                             std::to_string(p.h) + " pixels");
  for (unsigned char b : bytes) p.v.push_back(static_cast<float>(b) / 255.0f);
  return p;
}

void write_pgm(const std::string& path, const picture& p) {
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << p.w << " " << p.h << "\n255\n";
  for (float f : p.v) out.put(static_cast<char>(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)));
  if (!out) throw std::runtime_error(path + ": cannot write");
}

// Rings and a checkerboard: edges of every direction for the blur to soften.
picture made_up(std::size_t n) {
  picture p{n, n, std::vector<float>(n * n)};
  for (std::size_t y = 0; y < n; ++y)
    for (std::size_t x = 0; x < n; ++x) {
      const double dx = static_cast<double>(x) - n / 2.0, dy = static_cast<double>(y) - n / 2.0;
      const bool ring = static_cast<int>(std::sqrt(dx * dx + dy * dy) / 12) % 2 == 0;
      const bool check = ((x / 32) + (y / 32)) % 2 == 0;
      p.v[y * n + x] = x < n / 2 ? (ring ? 0.9f : 0.1f) : (check ? 0.8f : 0.2f);
    }
  return p;
}

std::vector<float> gaussian(int radius, float sigma) {
  std::vector<float> w(static_cast<std::size_t>(radius) + 1);
  float total = 0;
  for (int k = 0; k <= radius; ++k) {
    w[static_cast<std::size_t>(k)] = std::exp(-0.5f * static_cast<float>(k * k) / (sigma * sigma));
    total += (k == 0 ? 1.0f : 2.0f) * w[static_cast<std::size_t>(k)];
  }
  for (float& f : w) f /= total;
  return w;
}

// One pass on the host, as the kernel does it (edges clamped).
picture host_pass(const picture& in, const std::vector<float>& w, int dx, int dy) {
  picture out{in.w, in.h, std::vector<float>(in.v.size())};
  const auto at = [&](long x, long y) {
    x = std::clamp(x, 0L, static_cast<long>(in.w) - 1);
    y = std::clamp(y, 0L, static_cast<long>(in.h) - 1);
    return in.v[static_cast<std::size_t>(y) * in.w + static_cast<std::size_t>(x)];
  };
  const long r = static_cast<long>(w.size()) - 1;
  for (long y = 0; y < static_cast<long>(in.h); ++y)
    for (long x = 0; x < static_cast<long>(in.w); ++x) {
      float sum = w[0] * at(x, y);
      for (long k = 1; k <= r; ++k)
        sum += w[static_cast<std::size_t>(k)] *
               (at(x + k * dx, y + k * dy) + at(x - k * dx, y - k * dy));
      out.v[static_cast<std::size_t>(y) * in.w + static_cast<std::size_t>(x)] = sum;
    }
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  std::string in_path, out_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else {
      in_path = a;
    }
  }
  const picture in = in_path.empty() ? made_up(256) : read_pgm(in_path);
  anycl::command_queue q(anycl::select_device());
  const anycl::context ctx = q.context();
  const int radius = 6;
  const std::vector<float> w = gaussian(radius, 2.0f);

  const anycl::image_format gray{CL_R, CL_FLOAT};
  const anycl::image_extent size{in.w, in.h};
  anycl::image src(ctx, anycl::image_type::image2d, gray, size, in.v.data());
  anycl::image mid(ctx, anycl::image_type::image2d, gray, size);
  anycl::image dst(ctx, anycl::image_type::image2d, gray, size);
  anycl::sampler edge(ctx, false, anycl::addressing_mode::clamp_to_edge,
                      anycl::filter_mode::nearest);
  anycl::buffer weights = anycl::buffer::from(ctx, w, anycl::memory_access::read_only);

  anycl::loader_options options;
  options.search_path = {EXAMPLE_CL_DIR};
  anycl::kernel_loader loader(ctx, options);
  auto pass =
      loader.function<anycl::image, anycl::sampler, anycl::image, anycl::buffer_view<const float>,
                      int, cl_int2>("blur.cl", "blur_pass");
  const anycl::nd_range all{{in.w, in.h}};
  pass(q, all, src, edge, mid, weights, radius, cl_int2{{1, 0}});  // horizontal
  pass(q, all, mid, edge, dst, weights, radius, cl_int2{{0, 1}});  // vertical, after it
  picture out{in.w, in.h, std::vector<float>(in.v.size())};
  q.read_image(dst, {0, 0, 0}, dst.region(), out.v.data());

  const picture want = host_pass(host_pass(in, w, 1, 0), w, 0, 1);
  float worst = 0;
  for (std::size_t i = 0; i < out.v.size(); ++i)
    worst = std::max(worst, std::fabs(out.v[i] - want.v[i]));
  std::printf(
      "blurred %zu x %zu pixels (Gaussian, sigma 2, radius %d) in two image passes: "
      "largest difference from the host %.2g: %s\n",
      in.w, in.h, radius, static_cast<double>(worst), worst <= 1e-5f ? "ok" : "WRONG");
  if (!out_dir.empty()) {
    write_pgm(out_dir + "/blur-input.pgm", in);
    write_pgm(out_dir + "/blur-output.pgm", out);
    std::printf("wrote %s/blur-input.pgm and %s/blur-output.pgm\n", out_dir.c_str(),
                out_dir.c_str());
  }
  std::printf("image blur: %s\n", worst <= 1e-5f ? "ok" : "FAILED");
  return worst <= 1e-5f ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
