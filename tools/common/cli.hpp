// SPDX-License-Identifier: Apache-2.0
// The flag parser and error handling every anycl-* tool shares (--help, --version, --device,
// --json).
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/device.hpp"

namespace anycl::tools {

/// Bad usage: the tool prints the message and its usage text, and exits with 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by parse() after --help or --version: run_tool returns `code` (destructors run, unlike
/// std::exit).
struct exit_now {
  int code;
};

/// What parse() found.
struct arguments {
  std::map<std::string, std::string> values;  ///< options given, by name without "--"
  std::vector<std::string> positional;
  bool has(const std::string& name) const { return values.count(name) != 0; }
  std::string value(const std::string& name, const std::string& fallback = "") const;
  /// The option as an unsigned number; throws usage_error if it is not one.
  unsigned long long number(const std::string& name, unsigned long long fallback) const;
};

/// Declares a tool's flags; --help, --version and --device are always there.
class cli {
 public:
  cli(std::string tool, std::string synopsis, std::string description);
  /// A flag without a value, e.g. --json.
  cli& flag(const std::string& name, const std::string& help);
  /// An option with a value, e.g. --device SPEC or --device=SPEC.
  cli& option(const std::string& name, const std::string& metavar, const std::string& help);
  /// Parses argv; prints help or version and throws exit_now{0} for --help/--version; throws
  /// usage_error for bad usage.
  arguments parse(int argc, char** argv) const;
  std::string usage() const;
  const std::string& tool() const noexcept { return tool_; }

 private:
  struct entry {
    std::string name, metavar, help;
  };
  std::string tool_, synopsis_, description_;
  std::vector<entry> entries_;
};

/// The device a tool works on: --device SPEC if given, else ANYCL_DEVICE, else the default order.
anycl::device tool_device(const arguments& args);

/// Runs a tool's body: exceptions print one line (e.what()) on stderr and exit 1, usage errors
/// print the usage and exit 2.
int run_tool(const cli& c, int argc, char** argv, const std::function<int(const arguments&)>& body);

/// Splits positional arguments into short options and the other words (returned in order). An
/// argument starting with '-' is -X VALUE or -XVALUE for a letter X in `letters`, handed to
/// `option`; any other letter, or a missing value, is a usage_error.
std::vector<std::string> split_short_options(
    const std::vector<std::string>& positional, const std::string& letters,
    const std::function<void(char letter, const std::string& value)>& option);

/// `s` as a JSON string literal, quotes included.
std::string json_string(const std::string& s);

}  // namespace anycl::tools
