// SPDX-License-Identifier: Apache-2.0
// anycl::fft over clFFT 2.12: the setup guard, plan checks (every extent before any clFFT call:
// clFFT checks no buffer size and corrupts the heap on an undersized one) and execution.
#include "anycl/fft.hpp"

#include <clFFT.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrays/library_kernels.hpp"
#include "core/check.hpp"
#include "core/process.hpp"
#include "core/size_math.hpp"
#include "fft/counters.hpp"
#include "kernels/compiler_summary.hpp"

namespace anycl {

// --- fft_error ---

namespace {

const char* clfft_own_status_name(int status) {
  switch (status) {
    case CLFFT_BUGCHECK:
      return "CLFFT_BUGCHECK";
    case CLFFT_NOTIMPLEMENTED:
      return "CLFFT_NOTIMPLEMENTED";
    case CLFFT_TRANSPOSED_NOTIMPLEMENTED:
      return "CLFFT_TRANSPOSED_NOTIMPLEMENTED";
    case CLFFT_FILE_NOT_FOUND:
      return "CLFFT_FILE_NOT_FOUND";
    case CLFFT_FILE_CREATE_FAILURE:
      return "CLFFT_FILE_CREATE_FAILURE";
    case CLFFT_VERSION_MISMATCH:
      return "CLFFT_VERSION_MISMATCH";
    case CLFFT_INVALID_PLAN:
      return "CLFFT_INVALID_PLAN";
    case CLFFT_DEVICE_NO_DOUBLE:
      return "CLFFT_DEVICE_NO_DOUBLE";
    case CLFFT_DEVICE_MISMATCH:
      return "CLFFT_DEVICE_MISMATCH";
    default:
      return nullptr;
  }
}

std::string fft_status_name(int status) {
  const char* own = clfft_own_status_name(status);
  std::string name = own ? own : std::string(anycl::status_name(status));
  return name + " (" + std::to_string(status) + ")";
}

std::string fft_hint(int status) {
  switch (status) {
    case CLFFT_NOTIMPLEMENTED:
      return "clFFT 2.12 has no kernels for this combination of lengths, layout and strides "
             "(lengths must be products of 2, 3, 5, 7, 11 and 13)";
    case CLFFT_TRANSPOSED_NOTIMPLEMENTED:
      return "clFFT cannot return a transposed result for this plan";
    case CLFFT_DEVICE_NO_DOUBLE:
      return "the device has no double precision (cl_khr_fp64); use precision::f32";
    case CLFFT_INVALID_PLAN:
      return "the plan handle is not (or no longer) known to clFFT";
    case CLFFT_BUGCHECK:
      return "an internal clFFT consistency check failed";
    default:
      return std::string(anycl::status_hint(status));
  }
}

}  // namespace

fft_error::fft_error(std::string call, int status, std::string detail)
    : error(call + " failed: " + fft_status_name(status) +
            (detail.empty() ? std::string() : ": " + detail) +
            (fft_hint(status).empty() ? std::string() : ". Hint: " + fft_hint(status))),
      call_(std::move(call)),
      status_(status),
      detail_(std::move(detail)) {}

std::string fft_error::status_name() const { return fft_status_name(status_); }

// --- clFFT's process-wide setup ---

namespace {

// Never destroyed: a static destructor must not run clfftTeardown (OpenCL may be gone by then),
// and guards in other static objects may still end after this translation unit's statics.
struct library_state {
  std::mutex m;
  std::size_t guards = 0, setups = 0, teardowns = 0;
  std::atomic<std::size_t> calls{0};
  // clFFT 2.12 shares one cl_kernel between plans of equal parameters and sets its arguments
  // without a lock, so every transform in the process is enqueued under this one.
  std::mutex enqueue;
};

library_state& lib() {
  static library_state* s = new library_state;  // intentionally leaked, see above
  return *s;
}

// Counts a clFFT call and throws fft_error when it failed.
void clfft_check(clfftStatus status, const char* call, const std::string& detail) {
  if (status != CLFFT_SUCCESS) throw fft_error(call, status, detail);
}

template <class F>
clfftStatus clfft_call(F&& f) {
  lib().calls.fetch_add(1, std::memory_order_relaxed);
  return f();
}

void acquire_library() {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  if (s.guards == 0) {
    clfftSetupData data;
    clfft_check(clfft_call([&] { return clfftInitSetupData(&data); }), "clfftInitSetupData", "");
    clfft_check(clfft_call([&] { return clfftSetup(&data); }), "clfftSetup", "");
    ++s.setups;
  }
  ++s.guards;
}

// clfftTeardown frees every plan clFFT still knows without forgetting it, so a second teardown
// with a plan left over is a double free; here it runs only when no guard, and so no plan, is
// left (every plan is destroyed before its guard), which makes setup/teardown cycles safe.
void release_library() noexcept {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  if (--s.guards == 0) {
    const clfftStatus status = clfft_call([] { return clfftTeardown(); });
    ++s.teardowns;
    if (status != CLFFT_SUCCESS) detail::report_cleanup_error("clFFT", "clfftTeardown", status);
  }
}

}  // namespace

namespace detail {
fft_counters fft_library_counters() {
  library_state& s = lib();
  std::lock_guard<std::mutex> lock(s.m);
  return {s.calls.load(), s.setups, s.teardowns, s.guards};
}
}  // namespace detail

namespace fft {

library_guard::library_guard() {
  acquire_library();
  held_ = true;
}

library_guard::library_guard(const library_guard& other) {
  if (other.held_) {
    acquire_library();
    held_ = true;
  }
}

library_guard::library_guard(library_guard&& other) noexcept
    : held_(std::exchange(other.held_, false)) {}

library_guard& library_guard::operator=(library_guard other) noexcept {
  std::swap(held_, other.held_);
  return *this;
}

library_guard::~library_guard() {
  if (held_) release_library();
}

// --- supported lengths ---

bool is_supported_length(std::size_t n) noexcept {
  if (n == 0) return false;
  for (std::size_t p : {2, 3, 5, 7, 11, 13})
    while (n % p == 0) n /= p;
  return n == 1;
}

supported_lengths nearest_supported(std::size_t n) {
  supported_lengths out;
  if (n == 0) {
    out.above = 1;
    return out;
  }
  out.below = n;
  while (!is_supported_length(out.below)) --out.below;
  out.above = n;
  while (out.above != 0 && !is_supported_length(out.above)) ++out.above;  // 0: wrapped around
  return out;
}

}  // namespace fft

// --- plans ---

namespace detail {
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

// "complex_to_complex float plan, lengths (6, 10), batch 3": every message names the plan.
std::string describe(const fft::plan_desc& d) {
  return cat(kind_name(d.kind),
             d.kind == fft::transform::complex_to_complex
                 ? (d.dir == fft::direction::forward ? " forward" : " inverse")
                 : "",
             d.in_place ? " in-place " : " ", d.prec == fft::precision::f32 ? "float" : "double",
             " plan, lengths ", list(d.lengths), ", batch ", d.batch);
}

[[noreturn]] void bad_desc(const fft::plan_desc& d, const std::string& what) {
  throw std::invalid_argument("anycl::fft::plan: " + what + " (" + describe(d) + ")");
}

// One side of a transform: lengths, strides and distance (row-major, in its own elements).
struct side {
  std::vector<std::size_t> lengths, strides;
  std::size_t distance = 0;
  scalar_type type = scalar_type::c64;
  std::size_t elements = 0;  // the furthest element touched + 1
  bool padded = false;       // dense in-place real rows, padded to 2 * (n/2 + 1)
};

// Fills strides and distance (dense defaults where not given) and the elements needed.
void complete_side(const fft::plan_desc& d, side& s, const std::vector<std::size_t>& strides,
                   std::size_t distance, const char* which) {
  const std::size_t dims = s.lengths.size();
  if (!strides.empty() && strides.size() != dims)
    bad_desc(d, cat(which, " strides ", list(strides), " has ", strides.size(), " entries for ",
                    dims, " axes"));
  for (std::size_t i = 0; i < strides.size(); ++i)
    if (strides[i] == 0) bad_desc(d, cat(which, " stride of axis ", i, " is 0"));
  // Dense: the real rows of an in-place real transform hold 2 * (n/2 + 1) reals.
  std::vector<std::size_t> row = s.lengths;
  if (s.padded) row.back() = 2 * (d.lengths.back() / 2 + 1);
  std::vector<std::size_t> dense(dims);
  std::size_t run = 1;
  for (std::size_t i = dims; i-- > 0;) {
    dense[i] = run;
    if (!mul_add(run, row[i], 0, run)) bad_desc(d, cat(which, " extent overflows size_t"));
  }
  s.strides = strides.empty() ? dense : strides;
  if (distance == 0) {
    // Dense batches follow each other: the span of one transform (padded rows included).
    std::size_t span = 1;
    for (std::size_t i = 0; i < dims; ++i)
      if (!mul_add(s.lengths[i] - 1, s.strides[i], span, span))
        bad_desc(d, cat(which, " extent overflows size_t"));
    s.distance = strides.empty() ? run : span;
  } else {
    s.distance = distance;
  }
  std::size_t last = 0;  // index of the furthest element
  for (std::size_t i = 0; i < dims; ++i)
    if (!mul_add(s.lengths[i] - 1, s.strides[i], last, last))
      bad_desc(d, cat(which, " extent overflows size_t"));
  if (!mul_add(d.batch - 1, s.distance, last, last) || last == SIZE_MAX)
    bad_desc(d, cat(which, " extent overflows size_t"));
  s.elements = last + 1;
  // The extent in bytes must fit too.
  std::size_t bytes = 0;
  if (!mul_add(s.elements, size_of(s.type), 0, bytes))
    bad_desc(d, cat(which, " extent overflows size_t"));
}

scalar_type real_of(fft::precision p) {
  return p == fft::precision::f32 ? scalar_type::f32 : scalar_type::f64;
}
scalar_type complex_of(fft::precision p) {
  return p == fft::precision::f32 ? scalar_type::c64 : scalar_type::c128;
}

bool is_real(scalar_type e) { return !is_complex(e); }

// The direction clFFT runs the plan's transform in.
clfftDirection direction_of(const fft::plan_desc& d) {
  if (d.kind == fft::transform::real_to_complex) return CLFFT_FORWARD;
  if (d.kind == fft::transform::complex_to_real) return CLFFT_BACKWARD;
  return d.dir == fft::direction::forward ? CLFFT_FORWARD : CLFFT_BACKWARD;
}

// clFFT lists axes fastest first.
std::vector<std::size_t> reversed(std::vector<std::size_t> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

}  // namespace

// The checked plan, its clFFT handle and what execute needs.
class fft_plan_state {
 public:
  fft_plan_state(const command_queue& queue, const fft::plan_desc& desc);
  ~fft_plan_state();
  fft_plan_state(const fft_plan_state&) = delete;
  fft_plan_state& operator=(const fft_plan_state&) = delete;

  event run(const command_queue& queue, const fft_operand& in, const fft_operand& out,
            bool out_of_place, const wait_list& waits);

  fft::plan_desc desc;
  side in, out;
  std::size_t temp_bytes = 0;
  clfftPlanHandle handle = 0;

 private:
  void check_desc();
  void check_in_place() const;
  void check_in_place_real() const;
  void create_plan(const command_queue& queue);
  void configure(clfftDim dim, const std::string& what);
  void bake(const command_queue& queue, const std::string& what);
  void check_queue(const command_queue& queue, bool out_of_place) const;
  void check_operand(const fft_operand& o, const side& s, const char* expected_role) const;
  void check_extent(const fft_operand& o, const side& s, const char* side_name) const;
  void check_out_of_place(const fft_operand& in_op, const fft_operand& out_op) const;
  void check_data(const fft_operand& data) const;
  buffer sub(const fft_operand& o) const;
  event enqueue(const command_queue& queue, const buffer& in_buf, const buffer* out_buf,
                const wait_list& waits);

  context ctx_;
  cl_device_id device_ = nullptr;
  std::string device_name_;
  std::size_t align_ = 0;                    // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes
  std::optional<fft::library_guard> guard_;  // taken once the description is checked
  buffer temp_;
  event last_;  // the previous transform: its intermediate and temporary buffers are reused
  cl_command_queue last_queue_ = nullptr;  // where it ran (compared only, never used)
};

namespace {

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

fft_plan_state::fft_plan_state(const command_queue& queue, const fft::plan_desc& d) : desc(d) {
  if (!queue) throw std::invalid_argument("anycl::fft::plan: the queue is empty");
  check_desc();
  ctx_ = queue.context();
  device_ = queue.device_id();
  const anycl::device dev = queue.device();
  device_name_ = dev.name();
  align_ = dev.info<cl_uint>(CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
  guard_.emplace();
  create_plan(queue);
}

void fft_plan_state::create_plan(const command_queue& queue) {
  const std::string what = describe(desc);
  const std::size_t dims = desc.lengths.size();
  const clfftDim dim = dims == 1 ? CLFFT_1D : dims == 2 ? CLFFT_2D : CLFFT_3D;
  std::vector<std::size_t> lengths = reversed(desc.lengths);
  clfft_check(
      clfft_call([&] { return clfftCreateDefaultPlan(&handle, ctx_.get(), dim, lengths.data()); }),
      "clfftCreateDefaultPlan", what);
  try {
    configure(dim, what);
    bake(queue, what);
  } catch (...) {
    clfft_call([&] { return clfftDestroyPlan(&handle); });
    throw;
  }
}

// Precision, layouts, placement, batch, strides, distances and scale of the created plan.
void fft_plan_state::configure(clfftDim dim, const std::string& what) {
  const clfftLayout complex_layout = desc.kind == fft::transform::complex_to_complex
                                         ? CLFFT_COMPLEX_INTERLEAVED
                                         : CLFFT_HERMITIAN_INTERLEAVED;
  const clfftLayout in_layout = is_real(in.type) ? CLFFT_REAL : complex_layout;
  const clfftLayout out_layout = is_real(out.type) ? CLFFT_REAL : complex_layout;
  std::vector<std::size_t> in_strides = reversed(in.strides);
  std::vector<std::size_t> out_strides = reversed(out.strides);
  clfft_check(clfft_call([&] {
                return clfftSetPlanPrecision(
                    handle, desc.prec == fft::precision::f32 ? CLFFT_SINGLE : CLFFT_DOUBLE);
              }),
              "clfftSetPlanPrecision", what);
  clfft_check(clfft_call([&] { return clfftSetLayout(handle, in_layout, out_layout); }),
              "clfftSetLayout", what);
  clfft_check(clfft_call([&] {
                return clfftSetResultLocation(handle,
                                              desc.in_place ? CLFFT_INPLACE : CLFFT_OUTOFPLACE);
              }),
              "clfftSetResultLocation", what);
  clfft_check(clfft_call([&] { return clfftSetPlanBatchSize(handle, desc.batch); }),
              "clfftSetPlanBatchSize", what);
  clfft_check(clfft_call([&] { return clfftSetPlanInStride(handle, dim, in_strides.data()); }),
              "clfftSetPlanInStride", what);
  clfft_check(clfft_call([&] { return clfftSetPlanOutStride(handle, dim, out_strides.data()); }),
              "clfftSetPlanOutStride", what);
  clfft_check(clfft_call([&] { return clfftSetPlanDistance(handle, in.distance, out.distance); }),
              "clfftSetPlanDistance", what);
  if (desc.scale != 0)
    clfft_check(clfft_call([&] {
                  return clfftSetPlanScale(handle, direction_of(desc),
                                           static_cast<cl_float>(desc.scale));
                }),
                "clfftSetPlanScale", what);
}

// Compiles the plan's kernels for the queue's device and allocates its temporary buffer.
void fft_plan_state::bake(const command_queue& queue, const std::string& what) {
  cl_command_queue q = queue.get();
  {
    const detail::compiler_summary_filter quiet;  // clFFT's generated kernels build with warnings
    clfft_check(clfft_call([&] { return clfftBakePlan(handle, 1, &q, nullptr, nullptr); }),
                "clfftBakePlan", what + " on '" + device_name_ + "'");
  }
  clfft_check(clfft_call([&] { return clfftGetTmpBufSize(handle, &temp_bytes); }),
              "clfftGetTmpBufSize", what);
  if (temp_bytes != 0) temp_ = buffer(ctx_, temp_bytes);
}

fft_plan_state::~fft_plan_state() {
  // The last transform must be done with the plan's buffers before clFFT frees them. A transform
  // that failed is reported through its event; a wait that fails by itself is a cleanup failure.
  if (last_ && !in_forked_child()) {
    cl_event ev = last_.get();
    const cl_int status = clWaitForEvents(1, &ev);
    cl_int exec = CL_COMPLETE;
    if (status != CL_SUCCESS && (clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec,
                                                &exec, nullptr) != CL_SUCCESS ||
                                 exec >= 0))
      report_cleanup_error("clfftPlanHandle", "clWaitForEvents", status);
  }
  const clfftStatus status = clfft_call([&] { return clfftDestroyPlan(&handle); });
  if (status != CLFFT_SUCCESS) report_cleanup_error("clfftPlanHandle", "clfftDestroyPlan", status);
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

buffer fft_plan_state::sub(const fft_operand& o) const {
  if (o.offset == 0) return *o.buf;
  if (align_ != 0 && o.offset % align_ != 0)
    throw std::invalid_argument(cat(
        "anycl::fft::plan::execute: the ", o.role, " view starts at byte ", o.offset,
        ", not a multiple of ", align_, " bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN of '", device_name_,
        "'); clFFT takes whole buffers, so AnyCL passes a sub-buffer; align the view or copy it"));
  return o.buf->sub_buffer(o.offset, o.bytes);
}

event fft_plan_state::run(const command_queue& queue, const fft_operand& in_op,
                          const fft_operand& out_op, bool out_of_place, const wait_list& waits) {
  check_queue(queue, out_of_place);
  // Every extent, before clFFT sees a buffer.
  if (out_of_place)
    check_out_of_place(in_op, out_op);
  else
    check_data(in_op);
  const buffer in_buf = sub(in_op);
  const buffer out_buf = out_of_place ? sub(out_op) : buffer();
  return enqueue(queue, in_buf, out_of_place ? &out_buf : nullptr, waits);
}

// clfftEnqueueTransform after `waits` (and the previous transform where needed), under the
// process-wide enqueue lock.
event fft_plan_state::enqueue(const command_queue& queue, const buffer& in_buf,
                              const buffer* out_buf, const wait_list& waits) {
  std::lock_guard<std::mutex> lock(lib().enqueue);
  std::vector<cl_event> events(waits.data(), waits.data() + waits.size());
  // The previous transform of this plan used the same intermediate and temporary buffers: wait
  // for it unless the queue orders them anyway, or it failed (its buffers are free then, and
  // waiting would fail every later transform too).
  const bool same_in_order_queue = queue.get() == last_queue_ && !queue.properties().out_of_order;
  if (last_ && !same_in_order_queue && last_.raw_status() >= 0) events.push_back(last_.get());
  cl_command_queue q = queue.get();
  cl_mem in_mem = in_buf.get();
  cl_mem out_mem = out_buf ? out_buf->get() : nullptr;
  cl_event raw = nullptr;
  clfft_check(clfft_call([&] {
                return clfftEnqueueTransform(handle, direction_of(desc), 1, &q,
                                             static_cast<cl_uint>(events.size()),
                                             events.empty() ? nullptr : events.data(), &raw,
                                             &in_mem, out_buf ? &out_mem : nullptr, temp_.get());
              }),
              "clfftEnqueueTransform", describe(desc));
  last_ = event::adopt(raw);
  last_queue_ = queue.get();
  return last_;
}

}  // namespace detail

// --- the public plan ---

namespace fft {

plan::plan() noexcept = default;
plan::plan(const command_queue& queue, const plan_desc& desc)
    : state_(std::make_unique<detail::fft_plan_state>(queue, desc)) {}
plan::plan(plan&& other) noexcept = default;
plan& plan::operator=(plan&& other) noexcept = default;
plan::~plan() = default;

namespace {
const detail::fft_plan_state& state_of(const std::unique_ptr<detail::fft_plan_state>& s) {
  if (!s) throw std::invalid_argument("anycl::fft::plan: the plan is empty (moved from)");
  return *s;
}
}  // namespace

const plan_desc& plan::desc() const { return state_of(state_).desc; }
std::size_t plan::temp_bytes() const { return state_of(state_).temp_bytes; }
std::size_t plan::input_elements() const { return state_of(state_).in.elements; }
std::size_t plan::output_elements() const { return state_of(state_).out.elements; }
std::size_t plan::handle() const { return static_cast<std::size_t>(state_of(state_).handle); }

event plan::run(const command_queue& queue, const detail::fft_operand& in,
                const detail::fft_operand& out, bool out_of_place, const wait_list& waits) const {
  state_of(state_);
  return state_->run(queue, in, out, out_of_place, waits);
}

namespace {

void check_array(const detail::array_core& a, const char* role) {
  if (!a.valid())
    throw std::invalid_argument(std::string("anycl::fft::plan::execute: the ") + role +
                                " array is empty (default-constructed)");
  if (!a.layout().contiguous())
    throw std::invalid_argument(std::string("anycl::fft::plan::execute: the ") + role +
                                " array is a strided view; copy() it, or describe the strides "
                                "in the plan_desc and pass a buffer_view");
}

// A contiguous array's elements, as the view of its `role`.
detail::fft_operand operand_of(const detail::array_core& a, const char* role) {
  const std::size_t es = size_of(a.type());
  return {&a.buffer(), a.layout().offset * es, a.layout().extents.size() * es, a.type(), role};
}

}  // namespace

event plan::run_arrays(const detail::array_core& in, const detail::array_core& out,
                       bool out_of_place, const wait_list& waits) const {
  check_array(in, out_of_place ? "input" : "data");
  if (out_of_place) {
    check_array(out, "output");
    if (in.queue().context() != out.queue().context())
      throw std::invalid_argument(
          "anycl::fft::plan::execute: the input and output arrays are in different contexts");
  }
  std::vector<event> deps = detail::dependencies({&in, out_of_place ? &out : nullptr});
  for (cl_uint i = 0; i < waits.size(); ++i) deps.push_back(event::retain(waits.data()[i]));
  const detail::fft_operand i = operand_of(in, out_of_place ? "input" : "data");
  const event e =
      run(out.queue(), i, out_of_place ? operand_of(out, "output") : i, out_of_place, deps);
  in.record(e);
  if (out_of_place) out.record(e);
  return e;
}

}  // namespace fft
}  // namespace anycl
