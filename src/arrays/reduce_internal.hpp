// SPDX-License-Identifier: Apache-2.0
// What the reductions share: the two-stage launch of the engine, the accumulators and build options
// of the built-in reductions, and the checks of their inputs.
#pragma once

#include <cstddef>
#include <string>

#include "anycl/expression.hpp"
#include "anycl/reduce.hpp"
#include "arrays/launch_plan.hpp"
#include "arrays/reduce_engine.hpp"
#include "arrays/require.hpp"

namespace anycl::detail {

/// argmin and argmax: argreduce.cl's (value, index) candidates, whose index is the result.
inline bool is_arg(reduce_op op) { return op == reduce_op::argmin || op == reduce_op::argmax; }
/// The definition of reduce.cl's count predicate from `predicate`, an OpenCL C expression in `x`
/// (count_if of arrays and of expressions).
inline std::string predicate_source(const std::string& predicate) {
  return "#define ANYCL_HAVE_PREDICATE\ninline int anycl_predicate(T x) {\n  return (\n" +
         predicate + "\n  ) ? 1 : 0;\n}\n";
}
/// Throws std::invalid_argument "<what>: the <field> is empty" for a blank `s`.
void require_text(const std::string& s, const char* what, const char* field);
inline std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }
inline launch_plan choose_plan(const command_queue& q, std::size_t n, std::size_t elem_bytes,
                               const launch_plan* given) {
  return given ? *given : plan_launch(q, n, elem_bytes);
}

/// The two stages: partials of `partial` (one per work-item on the CPU shape, per work-group on
/// the GPU shape), combined by `final_k` into out[out_index]; one partial goes straight there.
event enqueue_stages(const command_queue& q, const kernel& partial, const kernel& final_k,
                     std::size_t acc_size, std::size_t n, const launch_plan& plan,
                     const kernel_arg* user, std::size_t count, const wait_list& deps,
                     const anycl::buffer& out, std::size_t out_index);

/// Combines accumulator `b` into `a` (a = op(a, b)) on the host.
using host_combine = void (*)(unsigned char* a, const unsigned char* b);
/// The host side of reduce.cl's operation `op` on the device accumulators of elements of `t`
/// (dot: that of sum). Throws std::invalid_argument naming `what` for complex elements.
host_combine builtin_combine(scalar_type t, reduce_op op, const char* what);
/// count_if's: a sum of 64-bit counts.
host_combine count_combine();
/// Combines `count` accumulators of `acc_size` bytes at `parts` pairwise into the first, in the
/// order of reduce_engine.h's final kernel.
void combine_pairwise(host_combine combine, unsigned char* parts, std::size_t count,
                      std::size_t acc_size);
/// The built-in reductions' stages: the partials of `partial`, read back and combined on the host
/// by `combine` into `result` (acc_size bytes). Reading a few hundred partials costs what reading
/// one does, and the programs need no final kernel (one compile less per operation). Returns the
/// partial kernel's event, complete on return.
event stages_to_host(const command_queue& q, const kernel& partial, host_combine combine,
                     std::size_t acc_size, std::size_t n, const launch_plan& plan,
                     const kernel_arg* user, std::size_t count, const wait_list& deps,
                     void* result);

/// The accumulator of `op` over elements of `t`. Integer sums accumulate in 64 bits; signed ones
/// are i64 on the host and ulong on the device (the same bits, wrapping without undefined
/// overflow).
scalar_type acc_type(scalar_type t, reduce_op op);
/// The accumulator's size on the device: float and double sums are (sum, error) pairs.
std::size_t device_acc_size(scalar_type t, reduce_op op);
/// The kernels of reduce.cl for `op` are <op_name>_partial, _axis, _axis_final.
std::string op_name(reduce_op op);
/// Options for reduce.cl's whole-array kernels (_partial): element type, sum accumulator,
/// limits, addressing and launch shape.
build_options builtin_options(const command_queue& q, scalar_type t, bool strided, bool grouped);
/// Options for reduce.cl's axis kernels (_axis, _axis_final), a program of their own.
build_options axis_options(const command_queue& q, scalar_type t);

/// The forms of reduce_builtin (reduce.hpp) along `axis` (reduce_axis.cpp).
array_core reduce_axis(const array_core& a, unsigned axis, reduce_op op, const char* what);
/// Throws std::invalid_argument naming `what`, the axis and the shape for an axis past s.dims().
void require_axis(unsigned axis, const anycl::shape& s, const char* what);
/// How an axis reduction splits its work: each of m outputs' axes of `len` elements in `splits`
/// segments of `seg`, `tasks` = m * splits in all, so that there are at least as many tasks as
/// work-items.
struct segments {
  std::size_t splits, seg, tasks;
};
segments split_axis(const device_profile& prof, const command_queue& q, std::size_t m,
                    std::size_t len, std::size_t es);
/// The launch shape for `count` tasks: a few per compute unit, one work-item per group, on a CPU.
launch_plan task_plan(const device_profile& prof, std::size_t count, std::size_t es);
/// The second stage of an axis reduction split in segments: `final_k` (reduce_engine.h's
/// _axis_final) combines the partials in `scratch` into out's m elements, after `first`.
event combine_segments(const command_queue& q, const device_profile& prof, const kernel& final_k,
                       const segments& s, std::size_t m, std::size_t es, const event& first,
                       const anycl::buffer& scratch, const anycl::buffer& out);
/// The result of `op` over no elements into `result` (0 for sum and any, 1 for all); throws
/// std::invalid_argument naming `what` for min and max.
void empty_reduction(reduce_op op, scalar_type t, void* result, const char* what);
/// The result into `result` from the device's accumulator at `acc` (sum + error for a
/// compensated pair).
void finish_reduction(scalar_type t, reduce_op op, const unsigned char* acc, void* result);
/// The forms of reduce_builtin over an expression (reduce_expression.cpp): `op`, or with
/// `predicate` (an OpenCL expression in `x`, the expression's value) the count of values for which
/// it holds.
void reduce_expression(const expression_code& code, reduce_op op, const std::string* predicate,
                       void* result, const char* what, const launch_plan* plan);
/// The same along `axis` of the expression's shape: sum, min, max, any and all (0/1 as int32),
/// argmin and argmax (uint64 indices along the axis) or the count (uint64) of each line of values
/// along it, the axis removed from the result's shape (a 1-D expression gives shape (1)).
array_core reduce_expression_axis(const expression_code& code, unsigned axis, reduce_op op,
                                  const std::string* predicate, const char* what);

}  // namespace anycl::detail
