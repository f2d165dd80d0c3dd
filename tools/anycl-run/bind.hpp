// SPDX-License-Identifier: Apache-2.0
// anycl-run's kernel arguments made from the specs: buffers, SVM, images and samplers created
// and filled, and the outputs read back afterwards.
#pragma once

#include <cstddef>
#include <vector>

#include "anycl/anycl.hpp"
#include "arg_spec.hpp"

namespace anycl::tools {

/// The kernel's arguments and what they point to, per argument (empty where a kind has none).
struct bound_arguments {
  std::vector<anycl::buffer> buffers;
  std::vector<anycl::svm_buffer<unsigned char>> svm;
  std::vector<anycl::image> images;
  std::vector<anycl::sampler> samplers;
  std::vector<detail::kernel_arg> kargs;
};

/// Whether the run prints `a` afterwards: out:, inout: and svm: memory, and images the kernel
/// (`p`) declares write_only or read_write.
bool is_output(const arg_spec& a, const kernel_arg_info& p);

/// Makes every argument of `args` for the kernel of `params` on `q`'s context: memory from its
/// INIT (out: zeros), images with the access the kernel declares. Every buffer is read-write, so
/// a kernel that writes an in: buffer does no harm.
bound_arguments bind_arguments(const anycl::command_queue& q, const std::vector<arg_spec>& args,
                               const std::vector<kernel_arg_info>& params);

/// The bytes of output `i` (a.bytes() of them: an image's pixels packed row by row) once the
/// kernel is done.
std::vector<unsigned char> read_output(const anycl::command_queue& q, const bound_arguments& b,
                                       std::size_t i, const arg_spec& a);

}  // namespace anycl::tools
