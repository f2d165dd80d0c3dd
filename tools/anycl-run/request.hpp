// SPDX-License-Identifier: Apache-2.0
// anycl-run's command line: the flags it takes and the request they make. Pure (no device), so
// that the unit tests and the fuzz target can drive it.
#pragma once

#include "cli.hpp"
#include "run.hpp"

namespace anycl::tools {

/// anycl-run's flags, synopsis and help text.
cli run_cli();

/// FILE, KERNEL, ARGs, -D/-I and the flags as a run_request. Throws usage_error for every bad
/// input (a malformed ARG, size, macro name or flag; FILE, KERNEL or --global missing).
run_request parse_request(const arguments& args);

}  // namespace anycl::tools
