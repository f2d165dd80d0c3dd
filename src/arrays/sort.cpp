// SPDX-License-Identifier: Apache-2.0
#include "anycl/sort.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"

namespace anycl {
namespace detail {
namespace {

// The OpenCL C unsigned type of `bytes` bytes, which moves keys and values as bits (ulong2 for
// the 16 bytes of std::complex<double>).
const char* bits_type(std::size_t bytes) {
  if (bytes == 16) return "ulong2";
  for (const scalar_type_info& r : scalar_types)
    if (r.kind == scalar_kind::unsigned_integer && r.size == bytes) return r.cl_name;
  return "ulong";
}

// Where a pass reads or writes: a buffer and an element offset.
struct place {
  anycl::buffer buf;
  cl_ulong off = 0;
};

place place_of(const array_core& a) { return {a.buffer(), a.layout().offset}; }

// What to sort: keys (written back unless argsort), optional values, or positions (argsort).
struct job {
  const array_core* keys = nullptr;
  const array_core* values = nullptr;     // sort_by_key
  const array_core* positions = nullptr;  // argsort's result
  sort_order order = sort_order::ascending;
};

// The options of sort.cl for keys of type `t`; the order is the kernels' `flip` argument, so one
// program serves both.
build_options key_options(const command_queue& q, scalar_type t) {
  build_options o = library_options(q);
  o.define("K", cl_type_name(t));
  o.define("KU", bits_type(size_of(t)));
  o.define("ANYCL_KEY_KIND", is_floating(t) ? "2" : is_signed(t) ? "1" : "0");
  return o;
}

// The radix passes of `j`; returns the last event (empty when nothing had to move).
event run(const job& j) {
  const array_core& keys = *j.keys;
  const command_queue& q = keys.queue();
  const std::size_t n = keys.layout().extents.size();
  const scalar_type kt = keys.type();
  const std::size_t ks = size_of(kt);
  const unsigned digits = static_cast<unsigned>(ks);

  // Contiguous chunks on every device type: plan_launch's on a CPU, at most 256 on others.
  const launch_plan plan = plan_launch(q, n, ks);
  std::size_t chunks = plan.cpu ? plan.global : std::min<std::size_t>(256, (n + 255) / 256);
  std::size_t chunk = plan.cpu ? plan.chunk : (n + chunks - 1) / chunks;
  chunks = (n + chunk - 1) / chunk;
  const nd_range range = plan.cpu ? nd_range(chunks, 1) : nd_range(chunks);
  const cl_ulong n_l = n, chunk_l = chunk;
  const cl_uint chunks_u = static_cast<cl_uint>(chunks);

  const build_options ko = key_options(q, kt);
  const cl_ulong flip = j.order == sort_order::descending ? ~cl_ulong(0) : 0;
  std::vector<event> first_deps = dependencies({j.keys, j.values, j.positions});

  // Every digit's counts per chunk from one read of the keys; the totals decide the passes.
  array_core hist_all(q, scalar_type::u32, anycl::shape(chunks * digits * 256));
  event e =
      launch(library_kernel(q, "anycl/sort.cl", "anycl_sort_count_all", ko), q, range, first_deps,
             keys.buffer(), cl_ulong(keys.layout().offset), n_l, chunk_l, hist_all.buffer(), flip);
  std::vector<cl_uint> counts(chunks * digits * 256);
  q.read_bytes(hist_all.buffer(), 0, counts.size() * sizeof(cl_uint), counts.data(), wait_list(e));
  std::vector<unsigned> passes;
  for (unsigned d = 0; d < digits; ++d) {
    bool constant = false;
    for (unsigned v = 0; v < 256 && !constant; ++v) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < chunks; ++c) total += counts[(c * digits + d) * 256 + v];
      constant = total == n;
    }
    if (!constant) passes.push_back(d);
  }
  const std::size_t npasses = passes.size();

  if (npasses == 0) {
    if (!j.positions) return {};
    const std::uint32_t zero = 0, one = 1;
    j.positions->iota(&zero, &one);
    return j.positions->last_event();
  }

  // Ping-pong places. sort / sort_by_key: keys A -> B -> A ..., copied back when they end in B.
  // argsort: keys A -> B -> C -> B ... (A is never written); positions end in the result.
  const place key_a = place_of(keys);
  array_core key_b(q, kt, anycl::shape(n));
  array_core key_c;
  if (j.positions && npasses > 1) key_c = array_core(q, kt, anycl::shape(n));
  array_core val_b;
  const array_core* vals = j.values ? j.values : j.positions;
  if (vals && (j.values || npasses > 1)) val_b = array_core(q, vals->type(), anycl::shape(n));
  const std::size_t vs = vals ? size_of(vals->type()) : 0;

  auto key_dst = [&](std::size_t i) -> place {
    if (i % 2 == 0) return place_of(key_b);
    return j.positions ? place_of(key_c) : key_a;
  };
  auto val_dst = [&](std::size_t i) -> place {
    if (j.positions) return (npasses - 1 - i) % 2 == 0 ? place_of(*j.positions) : place_of(val_b);
    return i % 2 == 0 ? place_of(val_b) : place_of(*j.values);
  };

  array_core hist(q, scalar_type::u32, anycl::shape(chunks * 256));
  kernel count = library_kernel(q, "anycl/sort.cl", "anycl_sort_count", ko);
  build_options so = ko;
  if (j.values) so.define("V", bits_type(vs));
  kernel scatter = library_kernel(q, "anycl/sort.cl", "anycl_sort_scatter", so);
  kernel scatter_first = scatter;
  if (j.positions) {
    build_options io = ko;
    io.define("ANYCL_SORT_IOTA");
    scatter_first = library_kernel(q, "anycl/sort.cl", "anycl_sort_scatter", io);
    so.define("V", "uint");
    scatter = library_kernel(q, "anycl/sort.cl", "anycl_sort_scatter", so);
  }

  place key_src = key_a;
  place val_src = j.values ? place_of(*j.values) : place{};
  for (std::size_t i = 0; i < npasses; ++i) {
    const cl_uint shift = 8 * passes[i];
    cl_ulong stride = 256, first = 0;
    const anycl::buffer* h = &hist.buffer();
    if (i == 0) {
      // Skipped passes move nothing, so the first pass's counts are those of the original order.
      stride = digits * 256;
      first = 256 * passes[0];
      h = &hist_all.buffer();
    } else {
      e = launch(count, q, range, wait_list(e), key_src.buf, key_src.off, n_l, chunk_l, shift,
                 hist.buffer(), flip);
    }
    const place kd = key_dst(i);
    std::vector<kernel_arg> args{
        arg_traits<anycl::buffer>::make(key_src.buf), arg_traits<cl_ulong>::make(key_src.off),
        arg_traits<anycl::buffer>::make(kd.buf), arg_traits<cl_ulong>::make(kd.off)};
    const bool iota = j.positions && i == 0;
    place vd;
    if (vals) {
      vd = val_dst(i);
      if (!iota) {
        args.push_back(arg_traits<anycl::buffer>::make(val_src.buf));
        args.push_back(arg_traits<cl_ulong>::make(val_src.off));
      }
      args.push_back(arg_traits<anycl::buffer>::make(vd.buf));
      args.push_back(arg_traits<cl_ulong>::make(vd.off));
    }
    args.push_back(arg_traits<cl_ulong>::make(n_l));
    args.push_back(arg_traits<cl_ulong>::make(chunk_l));
    args.push_back(arg_traits<cl_uint>::make(shift));
    args.push_back(arg_traits<anycl::buffer>::make(*h));
    args.push_back(arg_traits<cl_ulong>::make(stride));
    args.push_back(arg_traits<cl_ulong>::make(first));
    args.push_back(arg_traits<cl_uint>::make(chunks_u));
    args.push_back(arg_traits<cl_ulong>::make(flip));
    e = enqueue_kernel(iota ? scatter_first : scatter, q, range, args.data(), args.size(),
                       wait_list(e));
    key_src = kd;
    val_src = vd;
  }

  if (!j.positions && npasses % 2 == 1) {
    e = q.copy_bytes(key_b.buffer(), 0, keys.buffer(), key_a.off * ks, n * ks, wait_list(e));
    if (j.values)
      e = q.copy_bytes(val_b.buffer(), 0, j.values->buffer(), j.values->layout().offset * vs,
                       n * vs, wait_list(e));
  }
  return e;
}

void require(const array_core& a, const char* what, const char* role) {
  if (!a.valid())
    throw std::invalid_argument(std::string(what) + ": the " + role +
                                " array is empty (default-constructed)");
}

void require_size(std::size_t n, const char* what) {
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::out_of_range(std::string(what) + ": " + std::to_string(n) +
                            " keys; at most 2^32 - 1 can be sorted");
}

}  // namespace

event sort(const array_core& keys, const array_core* values, sort_order order, const char* what) {
  require(keys, what, "key");
  if (values) require(*values, what, "value");
  const std::size_t n = keys.layout().extents.size();
  if (values && values->layout().extents.size() != n)
    throw std::invalid_argument(std::string(what) + ": keys " + keys.layout().extents.str() +
                                " have " + std::to_string(n) + " elements, values " +
                                values->layout().extents.str() + " have " +
                                std::to_string(values->layout().extents.size()) + " elements");
  require_size(n, what);
  if (values && keys.may_overlap(*values))
    throw std::invalid_argument(std::string(what) + ": the keys and values share elements");
  if (n <= 1) return {};
  if (!keys.layout().contiguous() || (values && !values->layout().contiguous())) {
    const array_core k = keys.layout().contiguous() ? keys : keys.copy();
    const array_core v = values && !values->layout().contiguous() ? values->copy()
                         : values                                 ? *values
                                                                  : array_core();
    sort(k, values ? &v : nullptr, order, what);
    if (!keys.layout().contiguous()) keys.assign(k);
    if (values && !values->layout().contiguous()) values->assign(v);
    return values ? values->last_event() : keys.last_event();
  }
  job j;
  j.keys = &keys;
  j.values = values;
  j.order = order;
  event e = run(j);
  keys.record(e);
  if (values) values->record(e);
  return e;
}

array_core argsort(const array_core& keys, sort_order order) {
  require(keys, "argsort", "key");
  const std::size_t n = keys.layout().extents.size();
  require_size(n, "argsort");
  array_core out(keys.queue(), scalar_type::u32, anycl::shape(n));
  if (n == 0) return out;
  if (n == 1) {
    const std::uint32_t zero = 0;
    out.fill(&zero);
    return out;
  }
  if (!keys.layout().contiguous()) return argsort(keys.copy(), order);
  job j;
  j.keys = &keys;
  j.positions = &out;
  j.order = order;
  event e = run(j);
  keys.record(e);
  out.record(e);
  return out;
}

}  // namespace detail
}  // namespace anycl
