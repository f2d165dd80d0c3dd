// SPDX-License-Identifier: Apache-2.0
// The array layer's kernels: the shipped ones (cl_kernels/anycl/...) and generated ones, built once
// per context, and the helpers that launch them with arguments known only at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "anycl/array.hpp"
#include "arrays/launch_plan.hpp"
#include "core/internal.hpp"

namespace anycl::detail {

/// The per-context kernel table every array of the context holds (see array_core).
class context_kernels;
std::shared_ptr<context_kernels> kernels_for(const anycl::context& ctx);

/// library_options plus -DT=<OpenCL name of t> (its storage type: ushort for half).
build_options typed_options(const command_queue& queue, scalar_type t);
/// The kernel `name` of the shipped file `file` (e.g. "anycl/array.cl") built with `options` for
/// `queue`'s context: loaded once per context through the kernel loader (memory and disk cache),
/// then served from a per-context table.
kernel library_kernel(const command_queue& queue, const std::string& file, const std::string& name,
                      const build_options& options);
/// The events of the last commands that touched `arrays`, as one wait list.
ANYCL_INTERNAL std::vector<event> dependencies(std::initializer_list<const array_core*> arrays);

/// The kernel `kernel_name` of generated source text held in memory (expression and user kernels)
/// built with `options` for `queue`'s context, through the kernel loader (memory and disk cache)
/// and a per-context table; `program_name` names it in messages.
ANYCL_INTERNAL kernel generated_kernel(const command_queue& queue, const std::string& source,
                                       const std::string& program_name,
                                       const std::string& kernel_name,
                                       const build_options& options);

/// Builds those of the generated `sources` that the context's table lacks as ONE program (one
/// compile instead of one per source), their kernels `kernel_name` renamed there by a macro, and
/// enters each under its own source, so that generated_kernel(queue, sources[i], ..., kernel_name,
/// options) finds it built. Throws as generated_kernel() does.
void generated_kernels_together(const command_queue& queue, const std::vector<std::string>& sources,
                                const std::string& program_name, const std::string& kernel_name,
                                const build_options& options);

/// How many expression kernels this process has built (or loaded from the disk cache): one per
/// expression shape, device options and context. For tests of kernel reuse.
ANYCL_INTERNAL std::uint64_t expression_builds() noexcept;

/// Appends the last command that touched `a` to `deps` unless it is there already.
void add_dependency(std::vector<event>& deps, const array_core& a);

/// A by-value kernel argument of `bytes` bytes at `value` (a scalar whose type is known only at run
/// time); `value` must stay valid until the launch returns.
inline kernel_arg raw_arg(const void* value, std::size_t bytes) noexcept {
  kernel_arg a;
  a.size = bytes;
  a.value = value;
  return a;
}

}  // namespace anycl::detail
