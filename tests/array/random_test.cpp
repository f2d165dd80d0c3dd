// SPDX-License-Identifier: Apache-2.0
// random_generator: Philox4x32-10 against Random123's known answers and an independent host
// reference, reproducibility, independence from the launch shape and the device, views,
// distribution statistics and argument errors.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "anycl/random.hpp"
#include "arrays/library_kernels.hpp"
#include "arrays/random_fill.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using block = std::array<u32, 4>;

// Philox4x32-10 written from the paper's definition: per round, (L0, R0, L1, R1) =
// (c1, c0, c3, c2) with R' = lo(M * R), L' = hi(M * R) ^ L ^ key; the key grows by the Weyl
// constants between rounds.
block host_philox(block c, std::array<u32, 2> k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    const u64 p0 = u64{0xD2511F53u} * c[0];
    const u64 p1 = u64{0xCD9E8D57u} * c[2];
    c = {static_cast<u32>(p1 >> 32) ^ c[1] ^ k[0], static_cast<u32>(p1),
         static_cast<u32>(p0 >> 32) ^ c[3] ^ k[1], static_cast<u32>(p0)};
  }
  return c;
}

// Block j of the stream (seed, offset): counter offset + j as a 128-bit number.
block host_block(u64 seed, u64 offset, u64 j) {
  const u64 c = offset + j;
  return host_philox({static_cast<u32>(c), static_cast<u32>(c >> 32), c < offset ? 1u : 0u, 0u},
                     {static_cast<u32>(seed), static_cast<u32>(seed >> 32)});
}

// The 32-bit words of blocks offset .. offset + blocks - 1.
std::vector<u32> host_words(u64 seed, u64 offset, u64 blocks) {
  std::vector<u32> w;
  w.reserve(blocks * 4);
  for (u64 j = 0; j < blocks; ++j)
    for (u32 x : host_block(seed, offset, j)) w.push_back(x);
  return w;
}

// The header's mapping, element by element, for each type and distribution.
std::vector<u32> ref_bits32(u64 seed, u64 offset, std::size_t n) {
  auto w = host_words(seed, offset, (n + 3) / 4);
  w.resize(n);
  return w;
}
std::vector<u64> ref_bits64(u64 seed, u64 offset, std::size_t n) {
  auto w = host_words(seed, offset, (n + 1) / 2);
  std::vector<u64> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = w[2 * k] | (u64{w[2 * k + 1]} << 32);
  return out;
}
std::vector<float> ref_uniform_f32(u64 seed, u64 offset, std::size_t n, float lo = 0,
                                   float hi = 1) {
  std::vector<float> out;
  const float top = std::nextafter(hi, lo);
  for (u32 x : ref_bits32(seed, offset, n))
    out.push_back(std::fmin(std::fma(hi - lo, static_cast<float>(x >> 8) * 0x1.0p-24f, lo), top));
  return out;
}
std::vector<double> ref_uniform_f64(u64 seed, u64 offset, std::size_t n, double lo = 0,
                                    double hi = 1) {
  std::vector<double> out;
  const double top = std::nextafter(hi, lo);
  for (u64 x : ref_bits64(seed, offset, n))
    out.push_back(std::fmin(std::fma(hi - lo, static_cast<double>(x >> 11) * 0x1.0p-53, lo), top));
  return out;
}
// Box-Muller in double (or long double) from the header's u1 and t.
std::vector<double> ref_normal_f32(u64 seed, u64 offset, std::size_t n) {
  auto w = host_words(seed, offset, (n + 3) / 4);
  std::vector<double> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = k & ~std::size_t{1};
    const double u1 = static_cast<double>((w[e] >> 8) + 1) * 0x1.0p-24;
    const double t = static_cast<double>(w[e + 1] >> 8) * 0x1.0p-23;
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[k] = (k & 1) ? r * std::sin(M_PI * t) : r * std::cos(M_PI * t);
  }
  return out;
}
std::vector<long double> ref_normal_f64(u64 seed, u64 offset, std::size_t n) {
  auto w = host_words(seed, offset, (n + 1) / 2);
  std::vector<long double> out(n);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t b = 4 * (k / 2);
    const u64 y0 = w[b] | (u64{w[b + 1]} << 32), y1 = w[b + 2] | (u64{w[b + 3]} << 32);
    const long double u1 = static_cast<long double>((y0 >> 11) + 1) * 0x1.0p-53L;
    const long double t = static_cast<long double>(y1 >> 11) * 0x1.0p-52L;
    const long double r = std::sqrt(-2.0L * std::log(u1));
    out[k] = (k & 1) ? r * std::sin(pi * t) : r * std::cos(pi * t);
  }
  return out;
}

// Largest |got - want| / max(1, |want|).
template <class A, class B>
double max_rel_error(const std::vector<A>& got, const std::vector<B>& want) {
  REQUIRE(got.size() == want.size());
  double worst = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const long double w = static_cast<long double>(want[k]);
    const long double err =
        std::fabs(static_cast<long double>(got[k]) - w) / std::max(1.0L, std::fabs(w));
    worst = std::max(worst, static_cast<double>(err));
  }
  return worst;
}

// "" when a == b, else where and how they differ (keeps failure output short for big vectors).
template <class A, class B>
std::string diff(const std::vector<A>& a, const std::vector<B>& b) {
  if (a.size() != b.size())
    return "sizes " + std::to_string(a.size()) + " and " + std::to_string(b.size());
  std::size_t count = 0, first = 0;
  for (std::size_t k = a.size(); k-- > 0;)
    if (!(a[k] == b[k])) {
      ++count;
      first = k;
    }
  if (count == 0) return "";
  std::ostringstream s;
  s.precision(17);
  s << count << " of " << a.size() << " differ, first at " << first << ": " << +a[first] << " vs "
    << +b[first];
  return s.str();
}

const std::vector<std::size_t> sizes = {0, 1, 2, 3, 5, 97, (std::size_t{1} << 20) + 3};

}  // namespace

// --- known answers ---

// The philox4x32 10 lines of Random123's tests/kat_vectors (as copied into Random123-Boost's
// libs/random/test/test_philox.cpp): counter words, key words, expected output.
struct kat {
  block ctr;
  std::array<u32, 2> key;
  block want;
};
static const kat kats[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST_CASE("random: Philox4x32-10 gives Random123's known answers on the host and the device",
          "[random]") {
  for (const kat& k : kats) CHECK(host_philox(k.ctr, k.key) == k.want);

  // The device, through cl_kernels/anycl/philox.h included by a kernel of our own.
  anycl::test::env e;
  const char* source =
      "#include \"anycl/philox.h\"\n"
      "kernel void philox_kat(global const uint* in, global uint* out) {\n"
      "  const size_t i = get_global_id(0);\n"
      "  vstore4(anycl_philox4x32_10(vload4(0, in + 6 * i), vload2(0, in + 6 * i + 4)), i, out);\n"
      "}\n";
  std::vector<u32> in;
  for (const kat& k : kats) {
    in.insert(in.end(), k.ctr.begin(), k.ctr.end());
    in.insert(in.end(), k.key.begin(), k.key.end());
  }
  auto din = anycl::array<u32>::from_host(e.queue, in);
  auto dout = anycl::array<u32>::zeros(e.queue, 12);
  anycl::kernel kk = anycl::detail::generated_kernel(e.queue, source, "philox_kat.cl", "philox_kat",
                                                     anycl::detail::library_options(e.queue));
  auto deps = anycl::detail::dependencies({&din.core(), &dout.core()});
  dout.record(
      anycl::detail::launch(kk, e.queue, anycl::nd_range(3), deps, din.buffer(), dout.buffer()));
  auto got = dout.to_host();
  for (std::size_t i = 0; i < 3; ++i) {
    INFO("vector " << i);
    CHECK(block{got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]} == kats[i].want);
  }

  // And through bits(): seed 0 at offset 0 is the all-zero vector.
  auto a = anycl::array<u32>::empty(e.queue, 4);
  anycl::random_generator gen(0);
  gen.bits(a);
  CHECK(diff(a.to_host(), std::vector<u32>(kats[0].want.begin(), kats[0].want.end())) == "");
  CHECK(gen.offset() == 1);
}

// --- every type against the host reference ---

TEST_CASE(
    "random: bits equal the host reference at several offsets, across the 2^32 and 2^64 "
    "counter carries",
    "[random]") {
  anycl::test::env e;
  const u64 seed = 0x0123456789abcdefull;
  for (u64 offset : {u64{0}, u64{12345}, (u64{1} << 32) - 7}) {
    for (std::size_t n : sizes) {
      INFO("offset " << offset << " n " << n);
      auto a = anycl::array<u32>::empty(e.queue, n);
      anycl::random_generator gen(seed, offset);
      gen.bits(a);
      CHECK(diff(a.to_host(), ref_bits32(seed, offset, n)) == "");
      CHECK(gen.offset() == offset + (n + 3) / 4);
      auto b = anycl::array<u64>::empty(e.queue, n);
      gen.bits(b);
      CHECK(diff(b.to_host(), ref_bits64(seed, offset + (n + 3) / 4, n)) == "");
      CHECK(gen.offset() == offset + (n + 3) / 4 + (n + 1) / 2);
    }
  }
  // Past 2^64 - 1 the counter carries into its third word (through the detail entry point: a
  // generator's offset stays below 2^64).
  const std::size_t n = (std::size_t{1} << 20) + 3;
  const u64 offset = ~u64{0} - 1000;
  auto a = anycl::array<u32>::empty(e.queue, n);
  anycl::detail::random_fill(a.core(), anycl::detail::random_distribution::bits, seed, offset, 0, 0,
                             anycl::detail::plan_launch(e.queue, n / 32 + 1, 128));
  CHECK(diff(a.to_host(), ref_bits32(seed, offset, n)) == "");
}

TEST_CASE("random: uniform floats and doubles equal the host reference bit for bit", "[random]") {
  anycl::test::env e;
  const u64 seed = 42;
  for (std::size_t n : sizes) {
    INFO("n " << n);
    anycl::random_generator gen(seed, 7);
    auto f = anycl::array<float>::empty(e.queue, n);
    gen.uniform(f);
    CHECK(diff(f.to_host(), ref_uniform_f32(seed, 7, n)) == "");
    u64 at = gen.offset();
    gen.uniform(f, -2.5f, 4.0f);
    auto fv = f.to_host();
    CHECK(diff(fv, ref_uniform_f32(seed, at, n, -2.5f, 4.0f)) == "");
    for (float v : fv) REQUIRE((v >= -2.5f && v < 4.0f));
    if (!e.dev.fp64()) {
      WARN("no fp64 on this device: uniform<double> not tested");
      continue;
    }
    auto d = anycl::array<double>::empty(e.queue, n);
    at = gen.offset();
    gen.uniform(d);
    CHECK(diff(d.to_host(), ref_uniform_f64(seed, at, n)) == "");
    at = gen.offset();
    gen.uniform(d, 1e3, 1e3 + 0.5);
    auto dv = d.to_host();
    CHECK(diff(dv, ref_uniform_f64(seed, at, n, 1e3, 1e3 + 0.5)) == "");
    for (double v : dv) REQUIRE((v >= 1e3 && v < 1e3 + 0.5));
  }
}

TEST_CASE("random: uniform(lo, hi) never returns hi where fma(hi - lo, u, lo) rounds up to it",
          "[random]") {
  anycl::test::env e;
  // u = 1 - 2^-24 gives 1 + (1 - 2^-24), a tie that rounds to 2.0f; the result must be below 2.
  // Find a seed and element whose top 24 bits are all ones on the host, then fill on the device.
  const std::size_t n = 1 << 16;
  u64 seed = 0;
  std::size_t at = n;
  for (; seed < 4096 && at == n; ++seed) {
    auto w = ref_bits32(seed, 0, n);
    for (std::size_t k = 0; k < n; ++k)
      if ((w[k] >> 8) == 0xffffffu) {
        at = k;
        break;
      }
  }
  --seed;
  REQUIRE(at < n);
  INFO("seed " << seed << " element " << at);
  CHECK(std::fma(1.0f, static_cast<float>(0xffffff) * 0x1.0p-24f, 1.0f) == 2.0f);
  auto a = anycl::array<float>::empty(e.queue, n);
  anycl::random_generator gen(seed);
  gen.uniform(a, 1.0f, 2.0f);
  auto v = a.to_host();
  CHECK(v[at] == std::nextafter(2.0f, 0.0f));
  CHECK(diff(v, ref_uniform_f32(seed, 0, n, 1.0f, 2.0f)) == "");
}

TEST_CASE("random: normal floats and doubles match Box-Muller on the host", "[random]") {
  anycl::test::env e;
  const u64 seed = 2024;
  for (std::size_t n : sizes) {
    INFO("n " << n);
    anycl::random_generator gen(seed, 3);
    auto f = anycl::array<float>::empty(e.queue, n);
    gen.normal(f);
    const auto want = ref_normal_f32(seed, 3, n);
    // Float log, sqrt, cospi and sinpi are each within a few ulp: 4e-6 relative is ~30 ulp.
    CHECK(max_rel_error(f.to_host(), want) < 4e-6);
    u64 at = gen.offset();
    gen.normal(f, 3.0f, 0.5f);
    auto scaled = ref_normal_f32(seed, at, n);
    for (double& x : scaled) x = 3.0 + 0.5 * x;
    CHECK(max_rel_error(f.to_host(), scaled) < 4e-6);
    CHECK(gen.offset() == at + (n + 3) / 4);
    if (!e.dev.fp64()) {
      WARN("no fp64 on this device: normal<double> not tested");
      continue;
    }
    auto d = anycl::array<double>::empty(e.queue, n);
    at = gen.offset();
    gen.normal(d, -1.0, 2.0);
    auto dw = ref_normal_f64(seed, at, n);
    for (long double& x : dw) x = -1.0L + 2.0L * x;
    CHECK(max_rel_error(d.to_host(), dw) < 1e-13);
    CHECK(gen.offset() == at + (n + 1) / 2);
  }
  // stddev 0 gives the mean.
  auto z = anycl::array<float>::empty(e.queue, 33);
  anycl::random_generator(1).normal(z, 1.5f, 0.0f);
  CHECK(diff(z.to_host(), std::vector<float>(33, 1.5f)) == "");
}

// --- streams ---

TEST_CASE("random: same seed and offset give the same numbers; consecutive calls equal one call",
          "[random]") {
  anycl::test::env e;
  const std::size_t n = 4 * 50000 + 3;
  auto a = anycl::array<float>::empty(e.queue, n);
  auto b = anycl::array<float>::empty(e.queue, n);
  anycl::random_generator g1(99, 5), g2(99, 5);
  g1.normal(a);
  g2.normal(b);
  CHECK(diff(a.to_host(), b.to_host()) == "");
  g1.uniform(a);
  CHECK(a.to_host() != b.to_host());
  anycl::random_generator(100, 5).normal(b);
  g2.seek(5);
  g2.normal(a);
  CHECK(a.to_host() != b.to_host());

  // Pieces whose sizes are multiples of 4 (2 for 64-bit) concatenate to one big call.
  anycl::random_generator whole(7, 11), parts(7, 11);
  auto big = anycl::array<float>::empty(e.queue, n);
  whole.normal(big);
  auto p1 = big.slice(0, 4 * 1000), p2 = big.slice(4 * 1000, 4 * 30000),
       p3 = big.slice(4 * 30000, n);
  auto c1 = anycl::array<float>::empty(e.queue, p1.size()),
       c2 = anycl::array<float>::empty(e.queue, p2.size()),
       c3 = anycl::array<float>::empty(e.queue, p3.size());
  parts.normal(c1);
  parts.normal(c2);
  parts.normal(c3);
  CHECK(diff(c1.to_host(), p1.to_host()) == "");
  CHECK(diff(c2.to_host(), p2.to_host()) == "");
  CHECK(diff(c3.to_host(), p3.to_host()) == "");
  CHECK(parts.offset() == whole.offset());

  auto w64 = anycl::array<u64>::empty(e.queue, 1001);
  anycl::random_generator h1(3), h2(3);
  h1.bits(w64);
  auto q1 = anycl::array<u64>::empty(e.queue, 500), q2 = anycl::array<u64>::empty(e.queue, 501);
  h2.bits(q1);
  h2.bits(q2);
  CHECK(diff(q1.to_host(), w64.slice(0, 500).to_host()) == "");
  CHECK(diff(q2.to_host(), w64.slice(500, 1001).to_host()) == "");

  // A size that is not a multiple skips the rest of its last block.
  anycl::random_generator skip(7, 0);
  auto three = anycl::array<u32>::empty(e.queue, 3);
  skip.bits(three);
  CHECK(skip.offset() == 1);
  skip.bits(three);
  CHECK(diff(three.to_host(), ref_bits32(7, 1, 3)) == "");
}

TEST_CASE("random: results do not depend on the launch shape", "[random]") {
  anycl::test::env e;
  using anycl::detail::random_distribution;
  const std::size_t n = (std::size_t{1} << 18) + 5;
  // The device's own plan, one work-item for everything, many small chunks, and the GPU's
  // grid-stride loop with two shapes (built with -DANYCL_GPU, run here on the CPU).
  std::vector<anycl::detail::launch_plan> plans;
  plans.push_back({});  // replaced by the device's plan for each type
  anycl::detail::launch_plan one;
  one.global = 1;
  one.chunk = n;
  plans.push_back(one);
  anycl::detail::launch_plan small;
  small.global = 700;
  small.chunk = 27;
  plans.push_back(small);
  anycl::detail::launch_plan gpu;
  gpu.cpu = false;
  gpu.global = 256;
  gpu.local = 64;
  plans.push_back(gpu);
  gpu.global = 3;
  gpu.local = 1;
  plans.push_back(gpu);

  for (auto d :
       {random_distribution::bits, random_distribution::uniform, random_distribution::normal}) {
    for (int wide = 0; wide < 2; ++wide) {
      if (wide && d != random_distribution::bits && !e.dev.fp64()) continue;
      const anycl::scalar_type t = d == random_distribution::bits
                                       ? (wide ? anycl::scalar_type::u64 : anycl::scalar_type::u32)
                                       : (wide ? anycl::scalar_type::f64 : anycl::scalar_type::f32);
      const double p0 = d == random_distribution::bits ? 0.0 : -1.0;
      const double p1 = 2.0;
      std::vector<unsigned char> first;
      plans[0] = anycl::detail::plan_launch(e.queue, anycl::detail::random_groups(t, n), 128);
      for (std::size_t i = 0; i < plans.size(); ++i) {
        INFO("distribution " << static_cast<int>(d) << " wide " << wide << " plan " << i);
        anycl::detail::array_core a(e.queue, t, n);
        anycl::detail::random_fill(a, d, 5, 77, p0, p1, plans[i]);
        std::vector<unsigned char> got(n * anycl::size_of(t));
        a.read_host(got.data(), n);
        if (i == 0)
          first = got;
        else
          CHECK(diff(got, first) == "");
      }
    }
  }
  anycl::detail::launch_plan bad;
  bad.global = 4;
  bad.chunk = 5;
  auto a = anycl::array<float>::empty(e.queue, 1000);
  REQUIRE_THROWS_WHAT(
      anycl::detail::random_fill(a.core(), random_distribution::uniform, 1, 0, 0, 1, bad),
      std::invalid_argument, Contains("covers 20 of 32 groups of 8 blocks"));
}

TEST_CASE("random: views: offsets, strided slices and 2-D arrays are filled in row-major order",
          "[random]") {
  anycl::test::env e;
  const u64 seed = 31337;
  // A 2-D array: row-major element k.
  auto m = anycl::array<float>::empty(e.queue, {37, 41});
  anycl::random_generator(seed).uniform(m);
  CHECK(diff(m.to_host(), ref_uniform_f32(seed, 0, 37 * 41)) == "");

  // A contiguous slice with an element offset leaves the rest alone.
  auto base = anycl::array<u32>::zeros(e.queue, 1000);
  anycl::random_generator(seed).bits(base.slice(101, 900));
  auto got = base.to_host();
  auto want = ref_bits32(seed, 0, 799);
  for (std::size_t i = 0; i < 1000; ++i) {
    const u32 w = (i >= 101 && i < 900) ? want[i - 101] : 0u;
    REQUIRE(got[i] == w);
  }

  // A large fill at an offset that is not 32-byte aligned (the plain-store path of big fills).
  const std::size_t big = (std::size_t{1} << 20) + 5;
  auto wide = anycl::array<u32>::zeros(e.queue, big + 40);
  anycl::random_generator(seed, 3).bits(wide.slice(3, 3 + big));
  auto w = wide.to_host();
  CHECK(diff(std::vector<u32>(w.begin() + 3, w.begin() + 3 + static_cast<std::ptrdiff_t>(big)),
             ref_bits32(seed, 3, big)) == "");
  CHECK(w[2] == 0u);
  CHECK(w[3 + big] == 0u);

  // A strided view (every third column of a matrix) gets the same values as a dense array.
  auto mat = anycl::array<float>::full(e.queue, {20, 30}, -7.0f);
  auto cols = mat.slice(1, 2, 30, 3);
  anycl::random_generator gen(seed, 9);
  gen.uniform(cols);
  CHECK(gen.offset() == 9 + (cols.size() + 3) / 4);
  CHECK(diff(cols.to_host(), ref_uniform_f32(seed, 9, cols.size())) == "");
  auto all = mat.to_host();
  for (std::size_t i = 0; i < all.size(); ++i)
    if ((i % 30) < 2 || (i % 30 - 2) % 3 != 0) REQUIRE(all[i] == -7.0f);
}

TEST_CASE("random: two devices give the same streams", "[.multi_array]") {
  auto devs = anycl::select_devices("all");
  REQUIRE(devs.size() >= 2);  // POCL_DEVICES="pthread pthread"
  const std::size_t n = (std::size_t{1} << 20) + 3;
  std::vector<std::vector<float>> uni, nor;
  std::vector<std::vector<u32>> bits;
  for (std::size_t d = 0; d < 2; ++d) {
    anycl::context ctx(devs[d]);
    anycl::command_queue q(ctx, devs[d]);
    anycl::random_generator gen(0xfeedULL, 1234);
    auto a = anycl::array<u32>::empty(q, n);
    gen.bits(a);
    bits.push_back(a.to_host());
    auto f = anycl::array<float>::empty(q, n);
    gen.uniform(f);
    uni.push_back(f.to_host());
    gen.normal(f);
    nor.push_back(f.to_host());
  }
  // Also one context over both devices, one queue each.
  anycl::context both(std::vector<anycl::device>{devs[0], devs[1]});
  for (std::size_t d = 0; d < 2; ++d) {
    anycl::command_queue q(both, devs[d]);
    anycl::random_generator gen(0xfeedULL, 1234);
    auto a = anycl::array<u32>::empty(q, n);
    gen.bits(a);
    CHECK(diff(a.to_host(), bits[0]) == "");
  }
  CHECK(diff(bits[0], ref_bits32(0xfeedULL, 1234, n)) == "");
  CHECK(diff(bits[1], bits[0]) == "");
  CHECK(diff(uni[1], uni[0]) == "");
  CHECK(diff(nor[1], nor[0]) == "");
}

// --- statistics (fixed seeds, so these are deterministic; thresholds fail by chance < 1e-6) ---

TEST_CASE("random: uniform mean, variance and a 64-bin chi-square", "[random]") {
  anycl::test::env e;
  const u64 seed = 20240601;
  const std::size_t n = std::size_t{1} << 22;
  INFO("seed " << seed << ", n " << n);
  auto a = anycl::array<float>::empty(e.queue, n);
  anycl::random_generator(seed).uniform(a);
  auto v = a.to_host();
  double sum = 0, sq = 0;
  std::array<double, 64> bins{};
  for (float x : v) {
    REQUIRE((x >= 0.0f && x < 1.0f));
    sum += x;
    sq += (x - 0.5) * (x - 0.5);
    bins[static_cast<std::size_t>(x * 64)] += 1;
  }
  const double mean = sum / n, var = sq / n;
  // 5 sigma: sd(mean) = sqrt(1/12/n), sd(var) = sqrt((1/80 - 1/144)/n).
  CHECK(std::fabs(mean - 0.5) < 5 * std::sqrt(1.0 / 12 / n));
  CHECK(std::fabs(var - 1.0 / 12) < 5 * std::sqrt((1.0 / 80 - 1.0 / 144) / n));
  double chi2 = 0;
  const double expect = static_cast<double>(n) / 64;
  for (double b : bins) chi2 += (b - expect) * (b - expect) / expect;
  // 63 degrees of freedom: P(chi2 > 135) < 1e-6 (Wilson-Hilferty gives 131.7 for 1e-6).
  INFO("chi2 " << chi2);
  CHECK(chi2 < 135);
  CHECK(chi2 > 20);  // P(chi2 < 20) < 1e-8: too regular is wrong too
}

TEST_CASE("random: normal mean, variance and the fractions within 1 and 2 sigma", "[random]") {
  anycl::test::env e;
  const u64 seed = 777;
  const std::size_t n = std::size_t{1} << 22;
  INFO("seed " << seed << ", n " << n);
  auto check = [&](const std::vector<double>& v) {
    double sum = 0, sq = 0, in1 = 0, in2 = 0;
    for (double x : v) {
      sum += x;
      sq += x * x;
      in1 += std::fabs(x) < 1;
      in2 += std::fabs(x) < 2;
    }
    const double mean = sum / n, var = sq / n - mean * mean;
    const double p1 = 0.682689492137, p2 = 0.954499736104;
    CHECK(std::fabs(mean) < 5 / std::sqrt(double(n)));
    CHECK(std::fabs(var - 1) < 5 * std::sqrt(2.0 / n));
    CHECK(std::fabs(in1 / n - p1) < 5 * std::sqrt(p1 * (1 - p1) / n));
    CHECK(std::fabs(in2 / n - p2) < 5 * std::sqrt(p2 * (1 - p2) / n));
  };
  auto f = anycl::array<float>::empty(e.queue, n);
  anycl::random_generator gen(seed);
  gen.normal(f, 10.0f, 2.0f);
  std::vector<double> v;
  for (float x : f.to_host()) v.push_back((x - 10.0) / 2.0);
  check(v);
  if (e.dev.fp64()) {
    auto d = anycl::array<double>::empty(e.queue, n);
    gen.normal(d);
    check(d.to_host());
  }
}

// --- errors ---

TEST_CASE("random: bad parameters, default-constructed arrays and the end of the stream",
          "[random]") {
  anycl::test::env e;
  auto f = anycl::array<float>::empty(e.queue, 10);
  anycl::random_generator gen(1, 5);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  REQUIRE_THROWS_WHAT(
      gen.uniform(f, 1.0f, 1.0f), std::invalid_argument,
      Contains("random_generator::uniform: needs finite lo < hi, got lo = 1, hi = 1"));
  REQUIRE_THROWS_WHAT(gen.uniform(f, 2.0f, 1.0f), std::invalid_argument,
                      Contains("lo = 2, hi = 1"));
  REQUIRE_THROWS_WHAT(gen.uniform(f, nan, 1.0f), std::invalid_argument, Contains("lo = nan"));
  REQUIRE_THROWS_WHAT(gen.uniform(f, 0.0f, inf), std::invalid_argument, Contains("hi = inf"));
  REQUIRE_THROWS_WHAT(gen.uniform(f, -3e38f, 3e38f), std::invalid_argument,
                      Contains("hi - lo overflows"));
  REQUIRE_THROWS_WHAT(gen.normal(f, 0.0f, -1.0f), std::invalid_argument,
                      Contains("random_generator::normal") && Contains("stddev = -1"));
  REQUIRE_THROWS_WHAT(gen.normal(f, nan, 1.0f), std::invalid_argument, Contains("mean = nan"));
  REQUIRE_THROWS_WHAT(gen.normal(f, 0.0f, inf), std::invalid_argument, Contains("stddev = inf"));
  if (e.dev.fp64()) {
    auto d = anycl::array<double>::empty(e.queue, 10);
    REQUIRE_THROWS_WHAT(gen.uniform(d, 0.5, 0.25), std::invalid_argument,
                        Contains("lo = 0.5, hi = 0.25"));
    REQUIRE_THROWS_WHAT(gen.normal(d, 1.0, -0.5), std::invalid_argument, Contains("stddev = -0.5"));
  }
  CHECK(gen.offset() == 5);  // nothing consumed by a refused call

  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(gen.uniform(none), std::invalid_argument,
                      Contains("random_generator::uniform: the array is empty"));
  anycl::array<u32> none32;
  REQUIRE_THROWS_WHAT(gen.bits(none32), std::invalid_argument,
                      Contains("bits: the array is empty"));

  // Empty arrays are fine and consume nothing.
  auto empty = anycl::array<float>::empty(e.queue, 0);
  gen.uniform(empty);
  gen.normal(empty, 0.0f, 1.0f);
  gen.uniform(empty, 0.0f, 1.0f);
  CHECK(gen.offset() == 5);

  // The offset stays below 2^64.
  anycl::random_generator end(1, ~u64{0} - 10);
  auto a = anycl::array<u32>::empty(e.queue, 44);
  auto small = anycl::array<u32>::empty(e.queue, 36);
  REQUIRE_THROWS_WHAT(end.bits(a), std::overflow_error,
                      Contains("11 blocks from offset 18446744073709551605"));
  end.bits(small);
  CHECK(end.offset() == ~u64{0} - 1);
  CHECK(diff(small.to_host(), ref_bits32(1, ~u64{0} - 10, 36)) == "");

  // The detail entry point refuses element types without that distribution.
  auto i32 = anycl::array<std::int32_t>::empty(e.queue, 4);
  REQUIRE_THROWS_WHAT(
      anycl::detail::random_fill(i32.core(), anycl::detail::random_distribution::bits, 1, 0, 0, 0,
                                 anycl::detail::plan_launch(e.queue, 1, 16)),
      std::invalid_argument, Contains("no bits fill for int elements"));
}
