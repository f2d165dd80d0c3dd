// SPDX-License-Identifier: Apache-2.0
// anycl-bench: how fast AnyCL is on a device, against the raw C API and other references.
#include <string>
#include <vector>

#include "first_result.hpp"
#include "tool.hpp"

namespace {

/// Splits argv at "--": what comes before is ours, what comes after goes to Google Benchmark.
struct split_args {
  std::vector<char*> ours, theirs;
};
split_args split(int argc, char** argv) {
  split_args s;
  s.ours.push_back(argv[0]);
  s.theirs.push_back(argv[0]);
  bool after = false;
  for (int i = 1; i < argc; ++i) {
    if (!after && std::string(argv[i]) == "--") {
      after = true;
      continue;
    }
    (after ? s.theirs : s.ours).push_back(argv[i]);
  }
  s.ours.push_back(nullptr);
  s.theirs.push_back(nullptr);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  // A first-result child (started by anycl-bench itself) measures and prints, nothing else.
  if (argc > 1 && std::string(argv[1]) == anycl::bench::first_result_child_flag)
    return anycl::bench::first_result_child(argc, argv);
  const anycl::tools::cli c = anycl::bench::make_cli();
  split_args s = split(argc, argv);
  return anycl::tools::run_tool(
      c, static_cast<int>(s.ours.size()) - 1, s.ours.data(),
      [&](const anycl::tools::arguments& args) { return anycl::bench::bench(args, s.theirs); });
}
