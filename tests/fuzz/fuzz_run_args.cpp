// SPDX-License-Identifier: Apache-2.0
// Fuzz target: anycl-run's command line (the shared flag parser, parse_request and the kernel
// argument specs). The input is split into arguments at NUL bytes and newlines. Bad usage must
// throw usage_error (or exit_now for --help/--version); any other exception escapes and aborts.
// A request that parses is then checked: buffer contents have the size the spec says, and a
// scalar printed back parses to the same bytes. The input is also read as a kernel's source for
// its typedefs: finding and resolving them (cycles included) must neither throw nor hang.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "arg_check.hpp"
#include "arg_spec.hpp"
#include "cli.hpp"
#include "request.hpp"

namespace {

using namespace anycl::tools;

[[noreturn]] void fail(const char* what, const std::string& spec) {
  std::fprintf(stderr, "fuzz_run_args: %s: '%s'\n", what, spec.c_str());
  std::abort();
}

bool is_nan(const element_type& t, const unsigned char* p) {
  if (t.scalar == scalar_type::f32) {
    float f;
    std::memcpy(&f, p, sizeof f);
    return std::isnan(f);
  }
  if (t.scalar == scalar_type::f64) {
    double d;
    std::memcpy(&d, p, sizeof d);
    return std::isnan(d);
  }
  return false;
}

void check_spec(const arg_spec& a) {
  if (a.kind == arg_kind::scalar) {
    if (a.value.size() != a.type.size()) fail("value size differs from the type's", a.text);
    (void)format_element(a.type, a.value.data(), true);
    if (a.type.width != 1 || is_nan(a.type, a.value.data())) return;
    const std::string back = a.type.name() + ":" + format_element(a.type, a.value.data());
    arg_spec again;
    try {
      again = parse_arg_spec(back);
    } catch (const std::invalid_argument&) {
      fail("a printed value does not parse", a.text + " -> " + back);
    }
    if (again.value != a.value)
      fail("a printed value parses to other bytes", a.text + " -> " + back);
    return;
  }
  if (a.count == 0) fail("a buffer of 0 elements", a.text);
  if (a.init.kind == init_kind::file || a.bytes() > (std::size_t(1) << 20)) return;
  const std::vector<unsigned char> init = initial_contents(a);
  if (init.size() != a.bytes()) fail("initial contents of the wrong size", a.text);
  for (std::size_t e = 0; e < a.count && e < 4; ++e)
    (void)format_element(a.type, init.data() + e * a.type.size());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // --help and --version print to stdout: keep the fuzzer's output readable.
  static std::ostringstream sink;
  std::cout.rdbuf(sink.rdbuf());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const type_aliases aliases =
      find_typedefs(std::string_view(reinterpret_cast<const char*>(data), size));
  for (const auto& entry : aliases) (void)resolve_alias(aliases, normalize_type_name(entry.first));
  std::vector<std::string> words{"anycl-run"};
  std::string word;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (size != 0) words.push_back(word);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);

  static const cli c = run_cli();
  run_request r;
  try {
    const arguments args = c.parse(static_cast<int>(words.size()), argv.data());
    r = parse_request(args);
  } catch (const usage_error& e) {
    if (std::strlen(e.what()) == 0) fail("usage_error without a message", "");
    return 0;
  } catch (const exit_now& e) {
    if (e.code != 0) fail("exit_now with a non-zero code", "");
    return 0;
  }
  if (r.file.empty() || r.kernel.empty()) fail("a request with an empty FILE or KERNEL", "");
  if (r.global.empty() || r.global.size() > 3) fail("--global of 0 or more than 3 sizes", "");
  if (!r.local.empty() && r.local.size() != r.global.size()) fail("--local of another rank", "");
  for (std::size_t d = 0; d < r.local.size(); ++d)
    if (r.local[d] == 0 || r.global[d] % r.local[d] != 0) fail("--local does not divide", "");
  for (const arg_spec& a : r.args) check_spec(a);
  return 0;
}
