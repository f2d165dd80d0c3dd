// SPDX-License-Identifier: Apache-2.0
// anycl::fft::plan: the public handle on a plan's state, and execute on arrays (contiguous ones,
// after the commands that last touched them).
#include "anycl/fft.hpp"

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/library_kernels.hpp"
#include "fft/plan_state.hpp"

namespace anycl::fft {

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

}  // namespace anycl::fft
