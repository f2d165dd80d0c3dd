// SPDX-License-Identifier: Apache-2.0
// What device tests share: the selected device, a fresh context and queue per test, test kernels.
#pragma once

#include <string>

#include "anycl/anycl.hpp"
#include "support/matchers.hpp"

namespace anycl::test {

/// A context and an in-order profiling queue on the device under test (ANYCL_DEVICE or default).
struct env {
  env();
  anycl::device dev;
  anycl::context ctx;
  anycl::command_queue queue;
};

/// The text of a file under the source tree, e.g. "tests/cl_kernels/basic.cl" (the tree is
/// ANYCL_TEST_SOURCE_DIR from the environment, else the one the tests were built from).
std::string read_source(const std::string& relative_path);

/// Builds a file under the source tree for `ctx`; the program is named after the file.
anycl::program build(const anycl::context& ctx, const std::string& relative_path,
                     const anycl::build_options& options = {});

}  // namespace anycl::test
