// SPDX-License-Identifier: Apache-2.0
// blas_enqueue, the engine of every blas:: routine: operands into their roles, the checks, then
// the host's CBLAS as a native kernel on the wait list (CPU devices, host_path.cpp) or CLBlast
// behind a barrier on it; the array forms add the arrays' last
// commands to it and record the event on each array.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/blas.hpp"
#include "arrays/library_kernels.hpp"
#include "blas/cache_holder.hpp"
#include "blas/checks.hpp"
#include "blas/host_path.hpp"
#include "blas/operands.hpp"
#include "blas/prepare.hpp"
#include "blas/routine.hpp"

namespace anycl::detail {

namespace {

std::vector<const anycl::buffer*> buffers_of(const blas_call& c) {
  const blas_routine& r = *c.desc;
  std::vector<const anycl::buffer*> out;
  if (r.has('A')) out.push_back(c.a.buf);
  if (r.has('B')) out.push_back(c.b.buf);
  if (r.has('C')) out.push_back(c.c.buf);
  if (r.has('x')) out.push_back(c.x.buf);
  if (r.has('y')) out.push_back(c.y.buf);
  if (r.has_result()) out.push_back(c.result.buf);
  return out;
}

void check_buffers(const blas_call& c, const std::vector<const anycl::buffer*>& bufs,
                   cl_context ctx) {
  for (const anycl::buffer* b : bufs) {
    if (b == nullptr || b->empty()) fail_range(c, "an operand's buffer is empty");
    if (b->context().get() != ctx)
      fail_invalid(c, "the buffers and the queue belong to different contexts");
  }
}

// A reduction of no elements: its result is 0.
event zero_result(const command_queue& queue, const blas_call& c, const wait_list& waits) {
  const std::size_t es = c.desc->has('i') ? sizeof(cl_uint) : size_of(c.type);
  const unsigned char zero[16] = {};
  return queue.fill_bytes(*c.result.buf, c.result.offset * es, es, zero, es, waits);
}

// Checks the call and runs it on `queue` after `waits`.
event run(const command_queue& queue, const blas_call& c, const wait_list& waits) {
  if (!queue)
    throw std::invalid_argument(std::string(c.desc->name) +
                                ": the queue is empty (default-constructed)");
  const blas_plan p = prepare(c);
  if (p.nothing) return queue.marker(waits);
  const std::vector<const anycl::buffer*> bufs = buffers_of(c);
  const cl_context ctx = queue.context().get();
  check_buffers(c, bufs, ctx);
  if (p.zero_out) return zero_result(queue, c, waits);
  if (host_path_serves(c, p, queue)) return enqueue_host_blas(c, p, queue, waits);
  watch_buffers(ctx, bufs);
  // CLBlast takes no wait list: a barrier orders its commands after `waits`.
  if (waits.size() > 0) queue.barrier(waits);
  cl_event ev = nullptr;
  const clblast::StatusCode status = call_clblast(c, p, queue, &ev);
  if (status != clblast::StatusCode::kSuccess) {
    if (ev) clReleaseEvent(ev);
    throw blas_error(c.desc->name, static_cast<int>(status), shapes(c));
  }
  if (ev) return event::adopt(ev);
  return queue.marker();
}

// The arrays' last commands, then `waits` (retained: the list itself owns nothing).
std::vector<event> array_waits(const std::array<const array_core*, 4>& arrays,
                               const wait_list& waits) {
  std::vector<event> deps = dependencies({arrays[0], arrays[1], arrays[2], arrays[3]});
  for (cl_uint i = 0; i < waits.size(); ++i) deps.push_back(event::retain(waits.data()[i]));
  return deps;
}

event run_arrays(blas_call& c, std::initializer_list<blas_operand> operands, const wait_list& waits,
                 array_core* result) {
  place_arrays(c, operands);
  std::array<const array_core*, 4> arrays{};
  std::size_t count = 0;
  for (const blas_operand& o : operands) arrays[count++] = o.core;
  if (result) {
    const scalar_type type = c.desc->has('i') ? scalar_type::u32 : c.type;
    *result = array_core(arrays[0]->queue(), type, anycl::shape(1));
    place_result(c, *result);
    arrays[count++] = result;
  }
  // Every array has passed the checks of place_arrays (not empty, the right dimensions).
  const array_core& out = *arrays[count - 1];
  const cl_context ctx = out.queue().context().get();
  for (std::size_t i = 0; i < count; ++i)
    if (arrays[i]->queue().context().get() != ctx)
      throw std::invalid_argument(std::string(c.desc->name) +
                                  ": the arrays belong to different contexts");
  const event e = run(out.queue(), c, array_waits(arrays, waits));
  for (std::size_t i = 0; i < count; ++i) arrays[i]->record(e);
  return e;
}

}  // namespace

event blas_enqueue(const command_queue* queue, const blas_args& args,
                   std::initializer_list<blas_operand> operands, const wait_list& waits,
                   array_core* result) {
  blas_call c(args, find_routine(args.routine));
  if (queue == nullptr) return run_arrays(c, operands, waits, result);
  place_views(c, operands);
  return run(*queue, c, waits);
}

}  // namespace anycl::detail
