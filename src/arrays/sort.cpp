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
#include "arrays/require.hpp"

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

// Contiguous chunks of keys, one work-item each: plan_launch's on a CPU, at most 256 on others.
struct chunking {
  std::size_t chunks;
  std::size_t chunk;
  nd_range range;
};

chunking chunk_keys(const command_queue& q, std::size_t n, std::size_t key_bytes) {
  const launch_plan plan = plan_launch(q, n, key_bytes);
  std::size_t chunks = plan.cpu ? plan.global : std::min<std::size_t>(256, (n + 255) / 256);
  const std::size_t chunk = plan.cpu ? plan.chunk : (n + chunks - 1) / chunks;
  chunks = (n + chunk - 1) / chunk;
  return {chunks, chunk, plan.cpu ? nd_range(chunks, 1) : nd_range(chunks)};
}

// The digits that need a pass: those on which not every one of the n keys has the same value.
// `counts` holds 256 counts per (chunk, digit).
std::vector<unsigned> digits_to_sort(const std::vector<cl_uint>& counts, std::size_t chunks,
                                     unsigned digits, std::size_t n) {
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
  return passes;
}

// The radix passes of one job: a counting launch over every digit at once, then a scatter per
// digit that needs one (with a count of its own after the first), between ping-pong places.
class radix_sort {
 public:
  explicit radix_sort(const job& j)
      : j_(j),
        q_(j.keys->queue()),
        n_(j.keys->layout().extents.size()),
        kt_(j.keys->type()),
        ks_(size_of(kt_)),
        digits_(static_cast<unsigned>(ks_)),
        geo_(chunk_keys(q_, n_, ks_)),
        ko_(key_options(q_, kt_)),
        flip_(j.order == sort_order::descending ? ~cl_ulong(0) : 0) {}

  radix_sort(const radix_sort&) = delete;
  radix_sort& operator=(const radix_sort&) = delete;
  ~radix_sort() {
    for (const array_core* a : {&hist_all_, &hist_, &key_b_, &key_c_, &val_b_}) a->record(last_);
  }

  // Returns the last event (empty when nothing had to move).
  event run() {
    event e = count_all();
    if (passes_.empty()) {
      if (!j_.positions) return {};
      const std::uint32_t zero = 0, one = 1;
      j_.positions->iota(&zero, &one);
      return j_.positions->last_event();
    }
    allocate();
    build_kernels();
    key_src_ = place_of(*j_.keys);
    val_src_ = j_.values ? place_of(*j_.values) : place{};
    for (std::size_t i = 0; i < passes_.size(); ++i) e = pass(i, e);
    return copy_back(e);
  }

 private:
  // Every digit's counts per chunk from one read of the keys; the totals decide the passes.
  event count_all() {
    hist_all_ = array_core(q_, scalar_type::u32, anycl::shape(geo_.chunks * digits_ * 256));
    const array_core& keys = *j_.keys;
    event e = launch(library_kernel(q_, "anycl/sort.cl", "anycl_sort_count_all", ko_), q_,
                     geo_.range, dependencies({j_.keys, j_.values, j_.positions}), keys.buffer(),
                     cl_ulong(keys.layout().offset), cl_ulong(n_), cl_ulong(geo_.chunk),
                     hist_all_.buffer(), flip_);
    last_ = e;
    std::vector<cl_uint> counts(geo_.chunks * digits_ * 256);
    q_.read_bytes(hist_all_.buffer(), 0, counts.size() * sizeof(cl_uint), counts.data(),
                  wait_list(e));
    passes_ = digits_to_sort(counts, geo_.chunks, digits_, n_);
    return e;
  }

  // Ping-pong places. sort / sort_by_key: keys A -> B -> A ..., copied back when they end in B.
  // argsort: keys A -> B -> C -> B ... (A is never written); positions end in the result.
  void allocate() {
    const std::size_t npasses = passes_.size();
    key_b_ = array_core(q_, kt_, anycl::shape(n_));
    if (j_.positions && npasses > 1) key_c_ = array_core(q_, kt_, anycl::shape(n_));
    vals_ = j_.values ? j_.values : j_.positions;
    if (vals_ && (j_.values || npasses > 1))
      val_b_ = array_core(q_, vals_->type(), anycl::shape(n_));
    vs_ = vals_ ? size_of(vals_->type()) : 0;
    hist_ = array_core(q_, scalar_type::u32, anycl::shape(geo_.chunks * 256));
  }

  // argsort's first pass writes the positions it reads (ANYCL_SORT_IOTA); its later passes move
  // uint positions. A scatter that moves values is a program of its own, without the counts.
  void build_kernels() {
    count_ = library_kernel(q_, "anycl/sort.cl", "anycl_sort_count", ko_);
    build_options so = ko_;
    if (j_.values) so.define("V", bits_type(vs_));
    scatter_ = library_kernel(q_, "anycl/sort.cl", "anycl_sort_scatter", so);
    scatter_first_ = scatter_;
    if (!j_.positions) return;
    build_options io = ko_;
    io.define("ANYCL_SORT_IOTA");
    scatter_first_ = library_kernel(q_, "anycl/sort.cl", "anycl_sort_scatter", io);
    so.define("V", "uint");
    scatter_ = library_kernel(q_, "anycl/sort.cl", "anycl_sort_scatter", so);
  }

  place key_dst(std::size_t i) const {
    if (i % 2 == 0) return place_of(key_b_);
    return j_.positions ? place_of(key_c_) : place_of(*j_.keys);
  }
  place val_dst(std::size_t i) const {
    if (j_.positions)
      return (passes_.size() - 1 - i) % 2 == 0 ? place_of(*j_.positions) : place_of(val_b_);
    return i % 2 == 0 ? place_of(val_b_) : place_of(*j_.values);
  }

  // Pass i: counts of its digit (the first pass's come from count_all: skipped passes move
  // nothing, so they are those of the original order), then the scatter.
  event pass(std::size_t i, event e) {
    const cl_uint shift = 8 * passes_[i];
    cl_ulong stride = 256, first = 0;
    const anycl::buffer* h = &hist_.buffer();
    if (i == 0) {
      stride = digits_ * 256;
      first = 256 * passes_[0];
      h = &hist_all_.buffer();
    } else {
      e = last_ = launch(count_, q_, geo_.range, wait_list(e), key_src_.buf, key_src_.off,
                         cl_ulong(n_), cl_ulong(geo_.chunk), shift, hist_.buffer(), flip_);
    }
    const place kd = key_dst(i);
    const place vd = vals_ ? val_dst(i) : place{};
    const bool iota = j_.positions && i == 0;
    std::vector<kernel_arg> args;
    add_place(args, key_src_);
    add_place(args, kd);
    if (vals_ && !iota) add_place(args, val_src_);
    if (vals_) add_place(args, vd);
    const cl_ulong tail[] = {n_, geo_.chunk};
    for (const cl_ulong& v : tail) args.push_back(arg_traits<cl_ulong>::make(v));
    args.push_back(arg_traits<cl_uint>::make(shift));
    args.push_back(arg_traits<anycl::buffer>::make(*h));
    args.push_back(arg_traits<cl_ulong>::make(stride));
    args.push_back(arg_traits<cl_ulong>::make(first));
    const cl_uint chunks = static_cast<cl_uint>(geo_.chunks);
    args.push_back(arg_traits<cl_uint>::make(chunks));
    args.push_back(arg_traits<cl_ulong>::make(flip_));
    e = last_ = enqueue_kernel(iota ? scatter_first_ : scatter_, q_, geo_.range, args.data(),
                               args.size(), wait_list(e));
    key_src_ = kd;
    val_src_ = vd;
    return e;
  }

  static void add_place(std::vector<kernel_arg>& args, const place& p) {
    args.push_back(arg_traits<anycl::buffer>::make(p.buf));
    args.push_back(arg_traits<cl_ulong>::make(p.off));
  }

  // sort and sort_by_key after an odd number of passes: the result is in B.
  event copy_back(event e) {
    if (j_.positions || passes_.size() % 2 == 0) return e;
    const array_core& keys = *j_.keys;
    e = q_.copy_bytes(key_b_.buffer(), 0, keys.buffer(), keys.layout().offset * ks_, n_ * ks_,
                      wait_list(e));
    if (j_.values)
      e = q_.copy_bytes(val_b_.buffer(), 0, j_.values->buffer(), j_.values->layout().offset * vs_,
                        n_ * vs_, wait_list(e));
    return last_ = e;
  }

  const job& j_;
  const command_queue& q_;
  const std::size_t n_;
  const scalar_type kt_;
  const std::size_t ks_;
  const unsigned digits_;
  const chunking geo_;
  const build_options ko_;
  const cl_ulong flip_;
  std::vector<unsigned> passes_;
  array_core hist_all_, hist_, key_b_, key_c_, val_b_;
  event last_;  // the last command on the temporaries: theirs when they go back to the pool
  const array_core* vals_ = nullptr;
  std::size_t vs_ = 0;
  kernel count_, scatter_, scatter_first_;
  place key_src_, val_src_;
};

void require_size(std::size_t n, const char* what) {
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::out_of_range(std::string(what) + ": " + std::to_string(n) +
                            " keys; at most 2^32 - 1 can be sorted");
}

// argsort: the positions that sort `keys`, a new 1-D uint32 array; the keys stay as they are.
array_core positions_of(const array_core& keys, sort_order order) {
  require_array(keys, "argsort", "key");
  const std::size_t n = keys.layout().extents.size();
  require_size(n, "argsort");
  array_core out(keys.queue(), scalar_type::u32, anycl::shape(n));
  if (n == 0) return out;
  if (n == 1) {
    const std::uint32_t zero = 0;
    out.fill(&zero);
    return out;
  }
  if (!keys.layout().contiguous()) return positions_of(keys.copy(), order);
  job j;
  j.keys = &keys;
  j.positions = &out;
  j.order = order;
  event e = radix_sort(j).run();
  keys.record(e);
  out.record(e);
  return out;
}

}  // namespace

event sort(const array_core& keys, const array_core* values, sort_order order, const char* what,
           array_core* positions) {
  if (positions) {
    if (values) throw std::invalid_argument(std::string(what) + ": positions take no values");
    *positions = positions_of(keys, order);
    return positions->last_event();
  }
  require_array(keys, what, "key");
  if (values) require_array(*values, what, "value");
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
  event e = radix_sort(j).run();
  keys.record(e);
  if (values) values->record(e);
  return e;
}

}  // namespace detail
}  // namespace anycl
