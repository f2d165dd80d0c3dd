// SPDX-License-Identifier: Apache-2.0
// The checks of an FFT plan: its description and both sides' layouts before any clFFT call (clFFT
// checks no buffer size and corrupts the heap on an undersized one), and execute's operands.
#include "fft/plan_state.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/check.hpp"
#include "core/size_math.hpp"

namespace anycl::detail {
namespace {

const char* kind_name(fft::transform k) {
  switch (k) {
    case fft::transform::complex_to_complex:
      return "complex_to_complex";
    case fft::transform::real_to_complex:
      return "real_to_complex";
    case fft::transform::complex_to_real:
      return "complex_to_real";
  }
  return "?";
}

const char* element_name(scalar_type e) {
  switch (e) {
    case scalar_type::f32:
      return "float";
    case scalar_type::f64:
      return "double";
    case scalar_type::c64:
      return "std::complex<float>";
    case scalar_type::c128:
      return "std::complex<double>";
    default:  // fft_element_of admits no other type
      break;
  }
  return "?";
}

std::string list(const std::vector<std::size_t>& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

}  // namespace

std::string describe(const fft::plan_desc& d) {
  return cat(kind_name(d.kind),
             d.kind == fft::transform::complex_to_complex
                 ? (d.dir == fft::direction::forward ? " forward" : " inverse")
                 : "",
             d.in_place ? " in-place " : " ", d.prec == fft::precision::f32 ? "float" : "double",
             " plan, lengths ", list(d.lengths), ", batch ", d.batch);
}

namespace {

[[noreturn]] void bad_desc(const fft::plan_desc& d, const std::string& what) {
  throw std::invalid_argument("anycl::fft::plan: " + what + " (" + describe(d) + ")");
}

// Throws unless `strides` is empty (dense) or holds one non-zero stride per axis.
void check_strides(const fft::plan_desc& d, const std::vector<std::size_t>& strides,
                   std::size_t dims, const char* which) {
  if (!strides.empty() && strides.size() != dims)
    bad_desc(d, cat(which, " strides ", list(strides), " has ", strides.size(), " entries for ",
                    dims, " axes"));
  for (std::size_t i = 0; i < strides.size(); ++i)
    if (strides[i] == 0) bad_desc(d, cat(which, " stride of axis ", i, " is 0"));
}

// The dense strides of `s` into `dense` and the elements of one dense transform into `run`; false
// when they overflow size_t. The real rows of an in-place real transform hold 2 * (n/2 + 1) reals.
bool dense_strides(const fft::plan_desc& d, const side& s, std::vector<std::size_t>& dense,
                   std::size_t& run) {
  std::vector<std::size_t> row = s.lengths;
  if (s.padded) row.back() = 2 * (d.lengths.back() / 2 + 1);
  dense.assign(row.size(), 0);
  run = 1;
  for (std::size_t i = row.size(); i-- > 0;) {
    dense[i] = run;
    if (!mul_add(run, row[i], 0, run)) return false;
  }
  return true;
}

// `start` plus the index of the furthest element of one transform of `s` into `out`; false when
// it overflows size_t.
bool add_reach(const side& s, std::size_t start, std::size_t& out) {
  out = start;
  for (std::size_t i = 0; i < s.lengths.size(); ++i)
    if (!mul_add(s.lengths[i] - 1, s.strides[i], out, out)) return false;
  return true;
}

// Fills strides and distance (dense defaults where not given) and the elements needed.
void complete_side(const fft::plan_desc& d, side& s, const std::vector<std::size_t>& strides,
                   std::size_t distance, const char* which) {
  check_strides(d, strides, s.lengths.size(), which);
  const auto overflow = [&] { bad_desc(d, cat(which, " extent overflows size_t")); };
  std::vector<std::size_t> dense;
  std::size_t run = 0;
  if (!dense_strides(d, s, dense, run)) overflow();
  s.strides = strides.empty() ? dense : strides;
  // Dense batches follow each other: the span of one transform (padded rows included).
  std::size_t span = 0;
  if (distance == 0 && !add_reach(s, 1, span)) overflow();
  s.distance = distance != 0 ? distance : strides.empty() ? run : span;
  std::size_t last = 0;  // index of the furthest element
  if (!add_reach(s, 0, last) || !mul_add(d.batch - 1, s.distance, last, last) || last == SIZE_MAX)
    overflow();
  s.elements = last + 1;
  std::size_t bytes = 0;  // the extent in bytes must fit too
  if (!mul_add(s.elements, size_of(s.type), 0, bytes)) overflow();
}

scalar_type real_of(fft::precision p) {
  return p == fft::precision::f32 ? scalar_type::f32 : scalar_type::f64;
}
scalar_type complex_of(fft::precision p) {
  return p == fft::precision::f32 ? scalar_type::c64 : scalar_type::c128;
}

// Lengths, batch and scale.
void check_counts(const fft::plan_desc& d) {
  if (d.lengths.empty() || d.lengths.size() > 3)
    bad_desc(d, cat("needs 1 to 3 lengths, got ", d.lengths.size()));
  for (std::size_t i = 0; i < d.lengths.size(); ++i) {
    const std::size_t n = d.lengths[i];
    if (n == 0) bad_desc(d, cat("length of axis ", i, " is 0"));
    if (!fft::is_supported_length(n)) {
      const fft::supported_lengths near = fft::nearest_supported(n);
      bad_desc(d, cat("length ", n, " (axis ", i,
                      ") is not supported by clFFT 2.12, which transforms products of 2, 3, 5, 7, "
                      "11 and 13; nearest supported lengths: ",
                      near.below, " and ", near.above));
    }
  }
  if (d.batch == 0) bad_desc(d, "batch is 0");
  if (!std::isfinite(d.scale) || std::fabs(d.scale) > std::numeric_limits<float>::max())
    bad_desc(d, cat("scale ", d.scale, " is not a finite float (0: the default)"));
}

}  // namespace

void fft_plan_state::check_desc() {
  const fft::plan_desc& d = desc;
  check_counts(d);
  const bool r2c = d.kind == fft::transform::real_to_complex;
  const bool c2r = d.kind == fft::transform::complex_to_real;
  std::vector<std::size_t> half = d.lengths;
  half.back() = half.back() / 2 + 1;
  in.lengths = c2r ? half : d.lengths;
  out.lengths = r2c ? half : d.lengths;
  in.type = r2c ? real_of(d.prec) : complex_of(d.prec);
  out.type = c2r ? real_of(d.prec) : complex_of(d.prec);
  in.padded = d.in_place && is_real(in.type);
  out.padded = d.in_place && is_real(out.type);
  complete_side(d, in, d.in_strides, d.in_distance, "input");
  complete_side(d, out, d.out_strides, d.out_distance, "output");
  if (d.in_place) check_in_place();
}

void fft_plan_state::check_in_place() const {
  if (desc.kind != fft::transform::complex_to_complex) return check_in_place_real();
  if (in.strides != out.strides || in.distance != out.distance)
    bad_desc(desc, cat("an in-place transform needs equal input and output layouts; input strides ",
                       list(in.strides), " distance ", in.distance, ", output strides ",
                       list(out.strides), " distance ", out.distance));
}

// In-place real: complex element k sits on reals 2k and 2k + 1, so the real side's strides and
// distance are twice the complex side's, the last axis is dense on both, and each complex row
// of n/2 + 1 elements fits: the real rows are padded to 2 * (n/2 + 1) reals.
void fft_plan_state::check_in_place_real() const {
  const fft::plan_desc& d = desc;
  const side& re = is_real(in.type) ? in : out;
  const side& co = is_real(in.type) ? out : in;
  const std::size_t dims = d.lengths.size();
  const std::size_t row = d.lengths.back() / 2 + 1;
  const std::string pad = cat("in-place real transforms need the real rows padded to 2 * (",
                              d.lengths.back(), "/2 + 1) = ", 2 * row, " reals");
  if (re.strides.back() != 1 || co.strides.back() != 1)
    bad_desc(d, cat("in-place real transforms need stride 1 along the last axis on both sides; "
                    "real strides ",
                    list(re.strides), ", complex strides ", list(co.strides)));
  for (std::size_t i = 0; i + 1 < dims; ++i) {
    if (re.strides[i] != 2 * co.strides[i])
      bad_desc(d, cat("in-place real transforms need real strides twice the complex strides; "
                      "real strides ",
                      list(re.strides), ", complex strides ", list(co.strides)));
  }
  if (dims >= 2 && co.strides[dims - 2] < row)
    bad_desc(d, cat(pad, "; real strides ", list(re.strides)));
  if (d.batch > 1) {
    if (re.distance != 2 * co.distance)
      bad_desc(d, cat("in-place real transforms need the real distance twice the complex "
                      "distance; real distance ",
                      re.distance, ", complex distance ", co.distance));
    std::size_t span = 1;  // one complex transform's extent
    for (std::size_t i = 0; i < dims; ++i) span += (co.lengths[i] - 1) * co.strides[i];
    if (co.distance < span)
      bad_desc(d, cat(pad, "; real distance ", re.distance, " between transforms"));
  }
}

// The queue is in the plan's context, on its device, and the call form matches the plan.
void fft_plan_state::check_queue(const command_queue& queue, bool out_of_place) const {
  const std::string where = "anycl::fft::plan::execute: ";
  if (!queue) throw std::invalid_argument(where + "the queue is empty");
  if (queue.context() != ctx_)
    throw std::invalid_argument(where + "the queue is in another context than the plan's (" +
                                describe(desc) + ", baked for '" + device_name_ + "')");
  if (queue.device_id() != device_)
    throw std::invalid_argument(where + "the queue's device '" + queue.device().name() +
                                "' is not the one the plan was baked for ('" + device_name_ + "')");
  if (out_of_place == desc.in_place)
    throw std::invalid_argument(where +
                                (desc.in_place
                                     ? "an in-place plan takes one buffer: execute(queue, data)"
                                     : "an out-of-place plan takes an input and an output buffer: "
                                       "execute(queue, in, out)") +
                                " (" + describe(desc) + ")");
}

void fft_plan_state::check_operand(const fft_operand& o, const side& s,
                                   const char* expected_role) const {
  const std::string where = cat("anycl::fft::plan::execute: ");
  if (o.buf == nullptr || !o.buf->get())
    throw std::invalid_argument(where + "the " + o.role + " view has no buffer (" + describe(desc) +
                                ")");
  if (o.type != s.type)
    throw std::invalid_argument(cat(where, "the ", expected_role, " of a ", describe(desc),
                                    " holds ", element_name(s.type), ", got a view of ",
                                    element_name(o.type)));
}

// The view holds the side's extent: clFFT checks no buffer size.
void fft_plan_state::check_extent(const fft_operand& o, const side& s,
                                  const char* side_name) const {
  const std::size_t elem = size_of(s.type);
  const std::size_t need_bytes = s.elements * elem;  // checked not to overflow in the desc
  if (o.bytes < need_bytes)
    throw std::out_of_range(cat(
        "anycl::fft::plan::execute: the ", o.role, " view holds ", o.bytes / elem, " ",
        element_name(s.type), " (", o.bytes, " bytes); the ", side_name, " of a ", describe(desc),
        " needs ", s.elements, " (lengths ", list(s.lengths), ", strides ", list(s.strides),
        ", distance ", s.distance, s.padded ? ", rows padded to 2 * (n/2 + 1) reals" : "", ")"));
}

void fft_plan_state::check_out_of_place(const fft_operand& in_op, const fft_operand& out_op) const {
  check_operand(in_op, in, "input");
  check_operand(out_op, out, "output");
  check_extent(in_op, in, "input");
  check_extent(out_op, out, "output");
  if (in_op.buf->get() != out_op.buf->get()) return;
  const std::size_t in_end = in_op.offset + in.elements * size_of(in.type);
  const std::size_t out_end = out_op.offset + out.elements * size_of(out.type);
  if (in_op.offset < out_end && out_op.offset < in_end)
    throw std::invalid_argument(
        "anycl::fft::plan::execute: the input and output of an out-of-place plan overlap in one "
        "buffer; use an in-place plan (" +
        describe(desc) + ")");
}

// Either side's element type may view the shared memory of an in-place transform.
void fft_plan_state::check_data(const fft_operand& data) const {
  if (data.type != in.type && data.type != out.type)
    throw std::invalid_argument(cat("anycl::fft::plan::execute: the data of a ", describe(desc),
                                    " holds ", element_name(in.type), " or ",
                                    element_name(out.type), ", got a view of ",
                                    element_name(data.type)));
  check_operand(data, data.type == in.type ? in : out, "data");
  check_extent(data, in, "input side");
  check_extent(data, out, "output side");
}

}  // namespace anycl::detail
