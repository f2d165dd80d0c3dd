// SPDX-License-Identifier: Apache-2.0
// array_small_ops: numpy-style statements on small arrays, each making a new array, with the
// array layer's memory pool on (the session's context) and off (a context of its own, made with
// ANYCL_POOL=off).
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "anycl/anycl.hpp"
#include "registry.hpp"

namespace anycl::bench {

namespace {

constexpr std::size_t small_elements = 1000;

/// One context's arrays: a and b of known values, and the last statement's result.
struct small_ops {
  command_queue queue;
  array<float> a, b, c;
  small_ops(const command_queue& q, const std::vector<float>& ha, const std::vector<float>& hb)
      : queue(q), a(array<float>::from_host(q, ha)), b(array<float>::from_host(q, hb)) {}
};

/// A context of the session's device whose pool is off: ANYCL_POOL is read when a context's
/// first array is made, so it is set around that and put back.
command_queue pool_off_queue(const session& s) {
  const char* old = std::getenv("ANYCL_POOL");
  const std::string saved = old ? old : "";
  ::setenv("ANYCL_POOL", "off", 1);
  context ctx(s.device);
  command_queue q(ctx, s.device);
  array<float> first(q, shape(1));
  if (old)
    ::setenv("ANYCL_POOL", saved.c_str(), 1);
  else
    ::unsetenv("ANYCL_POOL");
  if (pool_stats(ctx).enabled) throw std::runtime_error("array_small_ops: ANYCL_POOL=off ignored");
  return q;
}

path small_ops_path(const std::string& impl, std::shared_ptr<small_ops> f, std::size_t ops,
                    std::shared_ptr<const std::vector<float>> want) {
  path p;
  p.impl = impl;
  small_ops* fp = f.get();
  auto work = [fp, ops] {
    for (std::size_t i = 0; i < ops; ++i) fp->c = array<float>(fp->a * 2.0f + fp->b);
    fp->c.wait();
  };
  p.iteration = [work, f] { work(); };
  p.check = [work, fp, impl, want](bool corrupt) {
    work();
    fp->c =
        array<float>::full(fp->queue, shape(small_elements), -1.0f);  // the second run replaces it
    work();
    std::vector<float> got = fp->c.to_host();
    if (corrupt) got[got.size() / 2] += 1.0f;
    for (std::size_t i = 0; i < want->size(); ++i)
      if (got[i] != (*want)[i])
        throw check_failed(impl + ": wrong element " + std::to_string(i) + " of c = a * 2 + b: " +
                           std::to_string(got[i]) + ", expected " + std::to_string((*want)[i]));
  };
  return p;
}

std::vector<path> small_ops_paths(const session& s, std::size_t ops) {
  std::vector<float> ha(small_elements), hb(small_elements);
  auto want = std::make_shared<std::vector<float>>(small_elements);
  for (std::size_t i = 0; i < small_elements; ++i) {
    ha[i] = static_cast<float>(i % 97);
    hb[i] = static_cast<float>(i % 13) - 6.0f;
    (*want)[i] = ha[i] * 2.0f + hb[i];  // small whole numbers: exact with or without an fma
  }
  std::vector<path> paths;
  paths.push_back(small_ops_path("anycl", std::make_shared<small_ops>(s.queue, ha, hb), ops, want));
  paths.push_back(small_ops_path("pool off", std::make_shared<small_ops>(pool_off_queue(s), ha, hb),
                                 ops, want));
  return paths;
}

}  // namespace

void add_pool_benchmarks(std::vector<benchmark>& out, const settings& s) {
  benchmark b;
  b.name = b.family = "array_small_ops";
  b.group = "array";
  b.unit = unit_kind::microseconds_per_item;
  const std::size_t ops = s.launches;
  b.items_per_iteration = static_cast<double>(ops);
  if (ops == 0) b.off = "--launches 0";
  b.what = std::to_string(ops) + " statements c = array<float>(a * 2 + b) on " +
           std::to_string(small_elements) +
           " floats, each a new array (one fused kernel) whose old buffer goes back, then a wait";
  b.check = "c against the host's a * 2 + b (small whole numbers, exact), element by element";
  b.references = {{"pool off",
                   "the same statements in a context made with ANYCL_POOL=off: a new buffer for "
                   "every array"}};
  b.prepare = [ops](const session& ses) { return small_ops_paths(ses, ops); };
  out.push_back(std::move(b));
}

}  // namespace anycl::bench
