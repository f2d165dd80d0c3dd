// SPDX-License-Identifier: Apache-2.0
// The shared flag parser and error handling of the anycl-* tools.
#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "anycl/device_selector.hpp"
#include "anycl/version.hpp"

namespace anycl::tools {

std::string arguments::value(const std::string& name, const std::string& fallback) const {
  auto it = values.find(name);
  return it == values.end() ? fallback : it->second;
}

unsigned long long arguments::number(const std::string& name, unsigned long long fallback) const {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  const std::string& v = it->second;
  char* end = nullptr;
  unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || v[0] == '-' || end == nullptr || *end != '\0')
    throw usage_error("--" + name + " needs a non-negative whole number, got '" + v + "'");
  return n;
}

cli::cli(std::string tool, std::string synopsis, std::string description)
    : tool_(std::move(tool)), synopsis_(std::move(synopsis)), description_(std::move(description)) {
  option("device", "SPEC", "device to use: [platform:]device, e.g. cpu, gpu, 0:1, 'nvidia'");
  flag("help", "print this help and exit");
  flag("version", "print the version and exit");
}

cli& cli::flag(const std::string& name, const std::string& help) {
  entries_.push_back({name, "", help});
  return *this;
}

cli& cli::option(const std::string& name, const std::string& metavar, const std::string& help) {
  entries_.push_back({name, metavar, help});
  return *this;
}

std::string cli::usage() const {
  std::string u = "usage: " + tool_ + " " + synopsis_ + "\n" + description_ + "\n\noptions:\n";
  for (const auto& e : entries_) {
    std::string left = "  --" + e.name + (e.metavar.empty() ? "" : " " + e.metavar);
    if (left.size() < 24) left.resize(24, ' ');
    u += left + " " + e.help + "\n";
  }
  return u;
}

arguments cli::parse(int argc, char** argv) const {
  arguments a;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      a.positional.push_back(arg);
      continue;
    }
    std::string name = arg.substr(2), value;
    bool inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
      inline_value = true;
    }
    const entry* found = nullptr;
    for (const auto& e : entries_)
      if (e.name == name) found = &e;
    if (found == nullptr) throw usage_error("unknown option '--" + name + "'");
    if (found->metavar.empty()) {
      if (inline_value) throw usage_error("--" + name + " takes no value");
    } else if (!inline_value) {
      if (i + 1 >= argc) throw usage_error("--" + name + " needs a value (" + found->metavar + ")");
      value = argv[++i];
    }
    a.values[name] = value;
  }
  if (a.has("help")) {
    std::cout << usage();
    throw exit_now{0};
  }
  if (a.has("version")) {
    std::cout << tool_ << " (AnyCL) " << anycl::version() << "\n";
    throw exit_now{0};
  }
  return a;
}

anycl::device tool_device(const arguments& args) {
  if (args.has("device")) {
    std::string spec = args.value("device");
    try {
      return anycl::select_device(spec);
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  }
  return anycl::select_device();
}

int run_tool(const cli& c, int argc, char** argv,
             const std::function<int(const arguments&)>& body) {
  try {
    arguments args = c.parse(argc, argv);
    return body(args);
  } catch (const exit_now& e) {
    return e.code;
  } catch (const usage_error& e) {
    std::cerr << c.tool() << ": " << e.what() << "\n\n" << c.usage();
    return 2;
  } catch (const std::exception& e) {
    std::cerr << c.tool() << ": " << e.what() << "\n";
    return 1;
  }
}

std::vector<std::string> split_short_options(
    const std::vector<std::string>& positional, const std::string& letters,
    const std::function<void(char letter, const std::string& value)>& option) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < positional.size(); ++i) {
    const std::string& arg = positional[i];
    if (arg.size() < 2 || arg[0] != '-') {
      words.push_back(arg);
      continue;
    }
    const char letter = arg[1];
    if (letters.find(letter) == std::string::npos)
      throw usage_error("unknown option '" + arg + "'");
    std::string value = arg.substr(2);
    if (value.empty()) {
      if (i + 1 >= positional.size())
        throw usage_error(std::string("-") + letter + " needs a value");
      value = positional[++i];
    }
    option(letter, value);
  }
  return words;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (ch < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += static_cast<char>(ch);
        }
    }
  }
  return out + "\"";
}

}  // namespace anycl::tools
