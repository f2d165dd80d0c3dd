// SPDX-License-Identifier: Apache-2.0
// anycl-run's command line: its flags and the request they make. No device is needed here.
#include "request.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace anycl::tools {

cli run_cli() {
  cli c(
      "anycl-run",
      "FILE.cl KERNEL --global X[,Y[,Z]] [--local X[,Y[,Z]]] [-D NAME[=VAL]]... [-I DIR]...\n"
      "       [--device SPEC] [--show N|all] [--out DIR] [--json] ARG...",
      "Builds FILE (with -cl-kernel-arg-info, through the kernel loader and its disk cache),\n"
      "checks every ARG against KERNEL's declared parameters, runs it once on a profiling\n"
      "queue and prints the kernel's device time (one cold launch; anycl-bench measures\n"
      "steady state) and its outputs: out:, inout: and svm: memory, and the images it\n"
      "declares write_only or read_write. The kernel's indexing is not checked against\n"
      "COUNT: size the buffers for the global range. Parameters declared through\n"
      "typedefs are checked as the types the source's typedefs name, structs by their size\n"
      "(from the compiler); each such assumption is said on stderr.\n\n"
      "ARG, one per kernel parameter, in order:\n" +
          std::string(arg_spec_help) +
          "\nExit status: 0 on success; 2 on bad usage: an unknown flag, FILE or KERNEL missing,\n"
          "a malformed ARG (unknown type, bad number, COUNT 0), bad --global/--local (not\n"
          "1 to 3 sizes, dimensions that differ, a global size not divisible by the local\n"
          "size); 1 on a runtime failure: a missing file, a build error (the log names the\n"
          "original file and line), an unknown KERNEL (the kernels there are listed), ARGs\n"
          "that do not match the kernel (their number, an address space, a type), sizes\n"
          "beyond the device's limits, no device. Nothing is enqueued unless all checks pass.\n\n"
          "  -D NAME[=VAL]           define a macro (also -DNAME[=VAL])\n"
          "  -I DIR                  look for #include files in DIR too (also -IDIR)");
  c.option("global", "X[,Y[,Z]]", "global work size, 1 to 3 dimensions (required)")
      .option("local", "X[,Y[,Z]]", "work-group size (default: the driver chooses)")
      .option("options", "FLAGS", "more compiler flags, e.g. \"-cl-fast-relaxed-math\"")
      .option("show", "N|all", "elements of each output to print (default 16)")
      .option("out", "DIR", "write each output to DIR/arg<index>_<name>.bin instead")
      .flag("json", "print the arguments, the time and the outputs as JSON");
  return c;
}

namespace {

// -D and -I are short options the shared parser leaves among the positional arguments, read here
// in the joined (-DNAME) and the separate (-D NAME) form into `options`; returns the other words
// (FILE, KERNEL and ARGs) in order.
std::vector<std::string> read_short_options(const std::vector<std::string>& pos,
                                            build_options& options) {
  return split_short_options(pos, "DI", [&options](char letter, const std::string& value) {
    if (letter == 'I') {
      options.include_dir(value);
    } else if (const std::size_t eq = value.find('='); eq == std::string::npos) {
      options.define(value);
    } else {
      options.define(value.substr(0, eq), value.substr(eq + 1));
    }
  });
}

/// --global and --local: 1 to 3 sizes each, as many of one as of the other, the global size
/// divisible by the local one.
void read_geometry(const arguments& args, run_request& r) {
  if (!args.has("global")) throw usage_error("--global is missing: the global size, e.g. 1024");
  r.global = parse_sizes(args.value("global"), "--global");
  if (!args.has("local")) return;
  r.local = parse_sizes(args.value("local"), "--local");
  if (r.local.size() != r.global.size())
    throw usage_error("--local " + args.value("local") + " has " + std::to_string(r.local.size()) +
                      " dimension(s), --global " + args.value("global") + " has " +
                      std::to_string(r.global.size()) + "; give both the same number");
  for (std::size_t d = 0; d < r.global.size(); ++d)
    if (r.global[d] % r.local[d] != 0)
      throw usage_error("--global " + args.value("global") + " is not divisible by --local " +
                        args.value("local") + " (dimension " + std::to_string(d) + ": " +
                        std::to_string(r.global[d]) + " % " + std::to_string(r.local[d]) + " = " +
                        std::to_string(r.global[d] % r.local[d]) + ")");
}

/// FILE, KERNEL and the ARGs from the words after the short options.
void read_words(const std::vector<std::string>& words, run_request& r) {
  if (words.empty()) throw usage_error("no FILE.cl given");
  if (words.size() < 2) throw usage_error("no KERNEL given after " + words[0]);
  if (words[0].empty()) throw usage_error("FILE is empty: give the path of a .cl file");
  if (words[1].empty()) throw usage_error("KERNEL is empty: give a kernel name of " + words[0]);
  r.file = words[0];
  r.kernel = words[1];
  for (std::size_t i = 2; i < words.size(); ++i) r.args.push_back(parse_arg_spec(words[i]));
}

}  // namespace

run_request parse_request(const arguments& args) {
  run_request r;
  try {
    const std::vector<std::string> words = read_short_options(args.positional, r.options);
    if (args.has("options")) r.options.flag(args.value("options"));
    read_words(words, r);
    read_geometry(args, r);
  } catch (const std::invalid_argument& e) {  // a bad spec, size, macro name or flag
    throw usage_error(e.what());
  }
  if (const std::string show = args.value("show", "16"); show != "all") {
    try {
      r.show = args.number("show", 16);
    } catch (const usage_error&) {
      throw usage_error("--show needs a number of elements or 'all', got '" + show + "'");
    }
  }
  r.out_dir = args.value("out");
  if (args.has("out") && r.out_dir.empty()) throw usage_error("--out needs a folder");
  r.json = args.has("json");
  return r;
}

}  // namespace anycl::tools
