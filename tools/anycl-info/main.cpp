// SPDX-License-Identifier: Apache-2.0
// anycl-info: OpenCL platforms and devices with the spec that selects each, their capabilities,
// what a spec selects and why, and the ICD loader's state, with advice when nothing is found.
#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "anycl/device_selector.hpp"
#include "anycl/error.hpp"
#include "cli.hpp"
#include "icd.hpp"
#include "info_report.hpp"

namespace {

using namespace anycl::tools;

/// The --device spec, when given; a spec that does not parse is a usage error.
std::optional<anycl::device_spec> device_option(const arguments& args) {
  if (!args.has("device")) return std::nullopt;
  try {
    return anycl::device_spec::parse(args.value("device"));
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

/// The loader, then the platforms and devices where the loader is safe to call. The loader is
/// inspected before this process calls it: a file that would crash it is found first, tried in a
/// child, and kept away from this process.
info_report collect_report() {
  info_report r;
  r.loader = inspect_loader();
  safe_listing guard(r.loader);
  r.listing = guard.mode();
  if (r.listing == listing_mode::none) return r;
  try {
    collect_platforms(r);
  } catch (const anycl::no_platform_error&) {
    r.no_platform = true;
  }
  read_loader_identity(r.loader);
  if (!r.platforms.empty()) collect_default_device(r);
  return r;
}

/// Adds the loader's problems and the advice for a missing platform to `r`; returns the exit
/// code: 1 when the loader crashes or hangs, or when there is no platform or no device.
int judge_report(info_report& r) {
  int rc = 0;
  for (auto& p : loader_problems(r.loader)) r.problems.push_back(std::move(p));
  if (r.loader.probe.ran && r.loader.probe.platforms < 0) rc = 1;  // the loader crashes or hangs
  if (r.no_platform) {
    r.problems.push_back(
        "no OpenCL platform found (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001)).");
    r.advice = no_platform_advice(r.loader);
    rc = 1;
  }
  const bool no_device = std::all_of(r.inventory.begin(), r.inventory.end(),
                                     [](const auto& p) { return p.devices.empty(); });
  if (!r.platforms.empty() && no_device) rc = 1;  // platforms, but nothing to run on
  return rc;
}

/// The report on stdout (JSON, the selection or the full text), problems and advice on stderr.
void print_report(const info_report& r, const arguments& args) {
  if (args.has("json")) {
    std::cout << format_json(r);
  } else if (r.selection) {
    std::cout << format_selection_text(r, args.has("verbose"));
  } else {
    std::cout << format_text(r, args.has("verbose"));
  }
  std::cout.flush();
  for (const auto& p : r.problems) std::cerr << "anycl-info: " << p << "\n";
  for (const auto& a : r.advice) std::cerr << "  " << a << "\n";
}

int info(const arguments& args) {
  if (!args.positional.empty())
    throw usage_error("unexpected argument '" + args.positional[0] + "'");
  const std::optional<anycl::device_spec> spec = device_option(args);
  info_report r = collect_report();
  const int rc = judge_report(r);
  if (spec && !r.platforms.empty()) {
    r.selection = explain_selection(*spec, r.inventory);
    if (r.selection->selected.empty())
      throw anycl::device_not_found(
          anycl::detail::not_found_message(spec->text, "spec", r.inventory));
  }
  print_report(r, args);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  run_icd_child(argc, argv);  // the hidden child modes end the process here
  cli c(
      "anycl-info", "[--device SPEC] [--json] [--verbose]",
      "Lists the OpenCL platforms and devices with the spec that selects each (for ANYCL_DEVICE\n"
      "and --device) and their capabilities, and checks the ICD loader's setup: OCL_ICD_VENDORS,\n"
      "the vendor folder, each .icd file and whether its library loads. With --device SPEC it\n"
      "shows what SPEC selects and why. Exit 1 when no platform or device is found, or when the\n"
      "loader crashes.");
  c.flag("json", "print JSON (the schema is in the README)")
      .flag("verbose", "also list platform and device extensions");
  return run_tool(c, argc, argv, info);
}
