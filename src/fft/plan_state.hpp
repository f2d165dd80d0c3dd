// SPDX-License-Identifier: Apache-2.0
// The state behind anycl::fft::plan: the checked description, both sides' layouts, the clFFT plan
// handle and what execute needs. Private to src/fft; clFFT.h stays out of it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "anycl/fft.hpp"

namespace anycl::detail {

// One side of a transform: lengths, strides and distance (row-major, in its own elements).
struct side {
  std::vector<std::size_t> lengths, strides;
  std::size_t distance = 0;
  scalar_type type = scalar_type::c64;
  std::size_t elements = 0;  // the furthest element touched + 1
  bool padded = false;       // dense in-place real rows, padded to 2 * (n/2 + 1)
};

// "complex_to_complex float plan, lengths (6, 10), batch 3": every message names the plan.
std::string describe(const fft::plan_desc& d);

inline bool is_real(scalar_type e) { return !is_complex(e); }

// The checked plan, its clFFT handle and what execute needs. The checks of the description and
// of execute's operands are in plan_checks.cpp, the clFFT calls in plan_state.cpp.
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
  std::size_t handle = 0;  // the clfftPlanHandle (a size_t; asserted in plan_state.cpp)

 private:
  void check_desc();
  void check_in_place() const;
  void check_in_place_real() const;
  void create_plan(const command_queue& queue);
  void configure(const std::string& what);
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

}  // namespace anycl::detail
