// SPDX-License-Identifier: Apache-2.0
// An FFT plan's life in clFFT: created, configured and baked from the checked description,
// executed under the process-wide enqueue lock after the checks, and destroyed.
#include "fft/plan_state.hpp"

#include <clFFT.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/check.hpp"
#include "core/process.hpp"
#include "fft/library.hpp"
#include "kernels/compiler_summary.hpp"

namespace anycl::detail {

static_assert(std::is_same_v<clfftPlanHandle, std::size_t>,
              "fft_plan_state::handle holds a clfftPlanHandle");

namespace {

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

// clFFT's dimension for the plan's 1 to 3 lengths.
clfftDim dim_of(const fft::plan_desc& d) {
  const std::size_t dims = d.lengths.size();
  return dims == 1 ? CLFFT_1D : dims == 2 ? CLFFT_2D : CLFFT_3D;
}

}  // namespace

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
  const clfftDim dim = dim_of(desc);
  std::vector<std::size_t> lengths = reversed(desc.lengths);
  clfft_check(
      clfft_call([&] { return clfftCreateDefaultPlan(&handle, ctx_.get(), dim, lengths.data()); }),
      "clfftCreateDefaultPlan", what);
  try {
    configure(what);
    bake(queue, what);
  } catch (...) {
    clfft_call([&] { return clfftDestroyPlan(&handle); });
    throw;
  }
}

// Precision, layouts, placement, batch, strides, distances and scale of the created plan.
void fft_plan_state::configure(const std::string& what) {
  const clfftDim dim = dim_of(desc);
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
  std::lock_guard<std::mutex> lock(clfft_enqueue_lock());
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

}  // namespace anycl::detail
