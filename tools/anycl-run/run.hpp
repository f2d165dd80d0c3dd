// SPDX-License-Identifier: Apache-2.0
// anycl-run's work after the command line is parsed: build, check the arguments against the
// kernel, launch on a profiling queue, print or save the outputs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "anycl/program.hpp"
#include "arg_check.hpp"
#include "arg_spec.hpp"
#include "cli.hpp"

namespace anycl::tools {

/// What the command line asks anycl-run to do.
struct run_request {
  std::string file;    ///< FILE.cl: a path, or a name on the loader's search path
  std::string kernel;  ///< KERNEL
  anycl::build_options options;
  std::vector<arg_spec> args;
  std::vector<std::size_t> global, local;  ///< local empty: the driver chooses
  std::optional<std::size_t> show;         ///< elements printed per output; unset: all
  std::string out_dir;                     ///< --out DIR; empty: print the values
  bool json = false;
};

/// Runs the request on the device `args` selects and prints the result; returns the exit code.
/// Throws usage_error, or std::exception for runtime failures (arguments that do not fit the
/// kernel included), always before anything is enqueued.
int run_kernel(const arguments& args, const run_request& r);

}  // namespace anycl::tools
