// SPDX-License-Identifier: Apache-2.0
// Host references for the FFT tests: an O(n^2) DFT per axis accumulated in double, the layouts
// of a plan's sides (element offsets of every logical element), and a checked device run.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "anycl/fft.hpp"
#include "support/device_fixture.hpp"

namespace anycl::test {

using cd = std::complex<double>;

/// The DFT of `x` (row-major `lengths`, one batch member), sign -1 forward, +1 inverse, unscaled:
/// a naive O(n^2) DFT along each axis in double.
inline std::vector<cd> host_dft(std::vector<cd> x, const std::vector<std::size_t>& lengths,
                                int sign) {
  const double pi = 3.14159265358979323846;
  std::size_t inner = 1;
  for (std::size_t a = lengths.size(); a-- > 0;) {
    const std::size_t n = lengths[a];
    const std::size_t outer = x.size() / (n * inner);
    std::vector<cd> line(n);
    for (std::size_t o = 0; o < outer; ++o)
      for (std::size_t i = 0; i < inner; ++i) {
        const std::size_t base = o * n * inner + i;
        for (std::size_t k = 0; k < n; ++k) {
          cd sum = 0;
          for (std::size_t j = 0; j < n; ++j) {
            const double angle = sign * 2 * pi * static_cast<double>((j * k) % n) / n;
            sum += x[base + j * inner] * cd(std::cos(angle), std::sin(angle));
          }
          line[k] = sum;
        }
        for (std::size_t k = 0; k < n; ++k) x[base + k * inner] = line[k];
      }
    inner *= n;
  }
  return x;
}

inline std::size_t product(const std::vector<std::size_t>& v) {
  std::size_t p = 1;
  for (std::size_t x : v) p *= x;
  return p;
}

/// Row-major dense strides of `rows` (the last axis's extent may be padded beyond the length).
inline std::vector<std::size_t> dense_strides(const std::vector<std::size_t>& rows) {
  std::vector<std::size_t> s(rows.size());
  std::size_t run = 1;
  for (std::size_t i = rows.size(); i-- > 0;) {
    s[i] = run;
    run *= rows[i];
  }
  return s;
}

/// One side of a transform as the test sees it.
struct side_layout {
  std::vector<std::size_t> lengths, strides;
  std::size_t distance = 0, batch = 1;
  bool real = false;
  /// The element offset of every logical element, batch by batch, row-major.
  std::vector<std::size_t> offsets() const {
    std::vector<std::size_t> out;
    const std::size_t n = product(lengths);
    for (std::size_t b = 0; b < batch; ++b)
      for (std::size_t k = 0; k < n; ++k) {
        std::size_t rest = k, off = b * distance;
        for (std::size_t a = lengths.size(); a-- > 0;) {
          off += (rest % lengths[a]) * strides[a];
          rest /= lengths[a];
        }
        out.push_back(off);
      }
    return out;
  }
  std::size_t elements() const {
    std::size_t last = (batch - 1) * distance;
    for (std::size_t a = 0; a < lengths.size(); ++a) last += (lengths[a] - 1) * strides[a];
    return last + 1;
  }
};

/// The layouts of a plan's input and output as the library documents them (dense defaults, real
/// rows padded in place), computed independently of the library.
inline std::pair<side_layout, side_layout> layouts_of(const anycl::fft::plan_desc& d) {
  using anycl::fft::transform;
  std::vector<std::size_t> half = d.lengths;
  half.back() = half.back() / 2 + 1;
  side_layout in, out;
  in.lengths = d.kind == transform::complex_to_real ? half : d.lengths;
  out.lengths = d.kind == transform::real_to_complex ? half : d.lengths;
  in.real = d.kind == transform::real_to_complex;
  out.real = d.kind == transform::complex_to_real;
  in.batch = out.batch = d.batch;
  auto fill = [&](side_layout& s, const std::vector<std::size_t>& strides, std::size_t dist) {
    std::vector<std::size_t> rows = s.lengths;
    if (d.in_place && s.real) rows.back() = 2 * half.back();
    s.strides = strides.empty() ? dense_strides(rows) : strides;
    s.distance = dist != 0 ? dist : product(rows);
  };
  fill(in, d.in_strides, d.in_distance);
  fill(out, d.out_strides, d.out_distance);
  return {in, out};
}

/// Random values in [-1, 1) (imaginary parts zero for real sides).
inline std::vector<cd> random_values(std::size_t n, bool real, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<cd> v(n);
  for (cd& x : v) x = real ? cd(u(rng), 0.0) : cd(u(rng), u(rng));
  return v;
}

/// The expected output of plan `d` for logical input `x` (all batch members), in double.
inline std::vector<cd> expected_output(const anycl::fft::plan_desc& d, const std::vector<cd>& x) {
  using anycl::fft::transform;
  const std::size_t n = product(d.lengths);
  const std::size_t nl = d.lengths.back(), half = nl / 2 + 1;
  std::vector<cd> out;
  for (std::size_t b = 0; b < d.batch; ++b) {
    std::vector<cd> full;
    if (d.kind == transform::complex_to_real) {
      // Rebuild the full spectrum from the half one (Hermitian), then take the real part.
      const std::size_t rows = n / nl;
      full.assign(n, 0);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t k = 0; k < nl; ++k) {
          if (k < half) {
            full[r * nl + k] = x[b * rows * half + r * half + k];
          } else {
            // conj of element (-r, nl - k): -r over every leading axis.
            std::size_t rest = r, neg = 0, mul = 1;
            for (std::size_t a = d.lengths.size() - 1; a-- > 0;) {
              const std::size_t i = rest % d.lengths[a];
              neg += ((d.lengths[a] - i) % d.lengths[a]) * mul;
              mul *= d.lengths[a];
              rest /= d.lengths[a];
            }
            full[r * nl + k] = std::conj(x[b * rows * half + neg * half + (nl - k)]);
          }
        }
    } else {
      full.assign(x.begin() + static_cast<std::ptrdiff_t>(b * n),
                  x.begin() + static_cast<std::ptrdiff_t>((b + 1) * n));
    }
    const bool inverse =
        d.kind == transform::complex_to_real ||
        (d.kind == transform::complex_to_complex && d.dir == anycl::fft::direction::inverse);
    std::vector<cd> y = host_dft(full, d.lengths, inverse ? 1 : -1);
    const double scale = d.scale != 0 ? d.scale : inverse ? 1.0 / static_cast<double>(n) : 1.0;
    for (cd& v : y) v *= scale;
    if (d.kind == transform::real_to_complex) {
      for (std::size_t r = 0; r < n / nl; ++r)
        for (std::size_t k = 0; k < half; ++k) out.push_back(y[r * nl + k]);
    } else if (d.kind == transform::complex_to_real) {
      for (const cd& v : y) out.emplace_back(v.real(), 0.0);
    } else {
      out.insert(out.end(), y.begin(), y.end());
    }
  }
  return out;
}

/// Bytes holding `n` elements of a side, every one set to the sentinel 1e30 (a gap the transform
/// must not touch keeps it).
template <class T>
std::vector<unsigned char> sentinel_bytes(std::size_t n, bool real) {
  const std::size_t per = real ? 1 : 2;
  std::vector<T> v(n * per, static_cast<T>(1e30));
  std::vector<unsigned char> bytes(v.size() * sizeof(T));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

template <class T>
void put(std::vector<unsigned char>& bytes, const side_layout& s, const std::vector<cd>& values) {
  const std::vector<std::size_t> offs = s.offsets();
  for (std::size_t i = 0; i < offs.size(); ++i) {
    T parts[2] = {static_cast<T>(values[i].real()), static_cast<T>(values[i].imag())};
    const std::size_t per = s.real ? 1 : 2;
    std::memcpy(bytes.data() + offs[i] * per * sizeof(T), parts, per * sizeof(T));
  }
}

template <class T>
std::vector<cd> get(const std::vector<unsigned char>& bytes, const side_layout& s) {
  std::vector<cd> out;
  const std::size_t per = s.real ? 1 : 2;
  for (std::size_t off : s.offsets()) {
    T parts[2] = {0, 0};
    std::memcpy(parts, bytes.data() + off * per * sizeof(T), per * sizeof(T));
    out.emplace_back(parts[0], parts[1]);
  }
  return out;
}

/// Largest |got - expected| over the largest |expected| (at least 1).
inline double relative_error(const std::vector<cd>& got, const std::vector<cd>& expected) {
  double err = 0, mag = 1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    err = std::max(err, std::abs(got[i] - expected[i]));
    mag = std::max(mag, std::abs(expected[i]));
  }
  return err / mag;
}

template <class T>
constexpr double tolerance() {
  return sizeof(T) == 4 ? 2e-5 : 1e-12;
}

/// Runs plan `d` (precision T) on random input through buffer views and checks every output
/// element against the host DFT, and that no element outside the output layout changed.
/// Returns the device output (logical order).
template <class T>
std::vector<cd> check_plan(const env& e, anycl::fft::plan_desc d, std::uint32_t seed) {
  d.prec = sizeof(T) == 4 ? anycl::fft::precision::f32 : anycl::fft::precision::f64;
  INFO("seed " << seed);
  const auto [in, out] = layouts_of(d);
  std::vector<cd> x = random_values(product(in.lengths) * d.batch, in.real, seed);
  if (d.kind == anycl::fft::transform::complex_to_real) {
    // A consistent half spectrum: the forward transform of real data.
    anycl::fft::plan_desc fwd = d;
    fwd.kind = anycl::fft::transform::real_to_complex;
    fwd.scale = 0;
    x = expected_output(fwd, random_values(product(d.lengths) * d.batch, true, seed));
  }
  const std::vector<cd> expected = expected_output(d, x);
  anycl::fft::plan p(e.queue, d);
  const std::size_t in_bytes = in.elements() * (in.real ? 1 : 2) * sizeof(T);
  const std::size_t out_bytes = out.elements() * (out.real ? 1 : 2) * sizeof(T);
  using C = std::complex<T>;
  std::vector<unsigned char> after;
  std::vector<unsigned char> host_out;
  if (d.in_place) {
    const std::size_t bytes = std::max(in_bytes, out_bytes);
    std::vector<unsigned char> host(bytes, 0);
    {
      std::vector<unsigned char> s = sentinel_bytes<T>(bytes / sizeof(T), true);
      host = s;
    }
    put<T>(host, in, x);
    anycl::buffer buf(e.ctx, host.data(), host.size());
    if (in.real)
      p.execute(e.queue, anycl::buffer_view<T>(buf)).wait();
    else
      p.execute(e.queue, anycl::buffer_view<C>(buf)).wait();
    host_out = e.queue.read(anycl::buffer_view<unsigned char>(buf));
    REQUIRE(host_out.size() == bytes);
  } else {
    std::vector<unsigned char> host_in = sentinel_bytes<T>(in.elements(), in.real);
    put<T>(host_in, in, x);
    std::vector<unsigned char> sentinel = sentinel_bytes<T>(out.elements(), out.real);
    anycl::buffer bin(e.ctx, host_in.data(), host_in.size());
    anycl::buffer bout(e.ctx, sentinel.data(), sentinel.size());
    anycl::event done;
    if (in.real)
      done = p.execute(e.queue, anycl::buffer_view<T>(bin), anycl::buffer_view<C>(bout));
    else if (out.real)
      done = p.execute(e.queue, anycl::buffer_view<C>(bin), anycl::buffer_view<T>(bout));
    else
      done = p.execute(e.queue, anycl::buffer_view<C>(bin), anycl::buffer_view<C>(bout));
    done.wait();
    host_out = e.queue.read(anycl::buffer_view<unsigned char>(bout));
    // Gaps of the output layout keep the sentinel.
    std::vector<bool> used(out.elements(), false);
    for (std::size_t off : out.offsets()) used[off] = true;
    const std::size_t per = (out.real ? 1 : 2) * sizeof(T);
    for (std::size_t i = 0; i < out.elements(); ++i)
      if (!used[i]) {
        INFO("output gap element " << i);
        REQUIRE(std::memcmp(host_out.data() + i * per, sentinel.data() + i * per, per) == 0);
      }
  }
  const std::vector<cd> got = get<T>(host_out, out);
  REQUIRE(got.size() == expected.size());
  const double err = relative_error(got, expected);
  INFO("relative error " << err);
  CHECK(err < tolerance<T>());
  return got;
}

}  // namespace anycl::test
