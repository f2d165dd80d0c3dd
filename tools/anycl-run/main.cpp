// SPDX-License-Identifier: Apache-2.0
// anycl-run: runs one kernel of a .cl file with arguments given on the command line, checked
// against the kernel's declared parameters, and prints its time and outputs.
#include "request.hpp"

int main(int argc, char** argv) {
  const anycl::tools::cli c = anycl::tools::run_cli();
  return anycl::tools::run_tool(c, argc, argv, [](const anycl::tools::arguments& args) {
    return anycl::tools::run_kernel(args, anycl::tools::parse_request(args));
  });
}
