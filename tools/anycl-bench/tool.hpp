// SPDX-License-Identifier: Apache-2.0
// anycl-bench: the command line (flags, help) and the tool's body.
#pragma once

#include <vector>

#include "cli.hpp"

namespace anycl::bench {

/// anycl-bench's flags and help text.
anycl::tools::cli make_cli();

/// The tool: selects, checks, measures and reports. `gb_argv` (null-terminated, argv[0] first)
/// holds the flags for Google Benchmark. Returns 0, or 1 when a benchmark FAILED; throws
/// usage_error for bad usage and std::runtime_error for other failures.
int bench(const anycl::tools::arguments& args, std::vector<char*> gb_argv);

}  // namespace anycl::bench
