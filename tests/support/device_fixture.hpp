// SPDX-License-Identifier: Apache-2.0
// What device tests share: the selected device, one context per process (or a fresh one where a
// test needs its own), a fresh queue per test, test kernels.
#pragma once

#include <string>

#include "anycl/anycl.hpp"
#include "support/matchers.hpp"

namespace anycl::test {

/// Asks `env` for a context of its own instead of the process's shared one.
struct fresh_context_t {};
inline constexpr fresh_context_t fresh_context{};

/// A context and an in-order profiling queue on the device under test (ANYCL_DEVICE or default).
/// The context is the process's shared one: POCL loads its kernel library again for the first
/// build in each context (about 0.3 s), which a context per test case paid hundreds of times.
/// Tests that need their own context (pool statistics, objects of two contexts, a context's
/// end) ask for `fresh_context`.
struct env {
  env();
  explicit env(fresh_context_t);
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
