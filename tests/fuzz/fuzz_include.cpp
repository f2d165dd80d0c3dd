// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the #include splicer (detail::splice_includes). The input is a kernel source in a
// folder of fixed headers: guarded, #pragma once, unguarded, a cycle, a self-include, a chain
// deeper than the nesting limit, a folder, a FIFO, a file with a NUL byte, one on the search path,
// and the library's embedded anycl/ headers. The splicer must terminate, and either return a
// source whose #line markers name only files it read, or throw anycl::source_error.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/error.hpp"
#include "kernels/sources.hpp"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_include: %s\n", what);
  std::abort();
}

void write(const fs::path& p, std::string_view text) {
  std::ofstream(p, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
}

/// The header folder, made once per process and removed at exit.
struct headers {
  fs::path root;
  headers() {
    std::string tmpl = (fs::temp_directory_path() / "anycl-fuzz-include-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) fail("mkdtemp failed");
    root = tmpl;
    write(root / "guarded.h",
          "#ifndef GUARDED_H\n#define GUARDED_H\n#include \"guarded.h\"\nint guarded;\n#endif\n");
    write(root / "once.h", "#pragma once\n#include \"once.h\"\nint once;\n");
    write(root / "plain.h", "int plain; /* #include \"a.h\" */ // #include \"a.h\"\n");
    write(root / "a.h", "#include \"b.h\"\nint a;\n");
    write(root / "b.h", "  #  include   \"a.h\"\nint b;\n");
    write(root / "self.h", "#include \"self.h\"\n");
    write(root / "angle.h", "#include <guarded.h>\n#include <not-there.h>\n");
    write(root / "missing.h", "#include \"not-there.h\"\n");
    write(root / "nul.h", std::string_view("int x;\0int y;\n", 14));
    write(root / "bom.h", "\xEF\xBB\xBFint bom;\r\n");
    write(root / "noeol.h", "int noeol;");
    write(root / "comment.h", "/* open\n#include \"a.h\"\n*/ int comment;\n");
    const int chain = detail_max_depth() + 4;
    for (int i = 0; i < chain; ++i)
      write(root / ("d" + std::to_string(i) + ".h"),
            "#include \"d" + std::to_string(i + 1) + ".h\"\n");
    write(root / ("d" + std::to_string(chain) + ".h"), "int deepest;\n");
    fs::create_directories(root / "sub");
    write(root / "sub" / "inner.h", "#include \"../plain.h\"\n#include \"guarded.h\"\n");
    fs::create_directories(root / "dir.h");
    if (::mkfifo((root / "fifo.h").c_str(), 0600) != 0) fail("mkfifo failed");
    fs::create_directories(root / "search");
    write(root / "search" / "searched.h", "#include \"plain.h\"\nint searched;\n");
  }
  ~headers() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  static int detail_max_depth() { return anycl::detail::max_include_depth; }
};

const headers& folder() {
  static const headers h;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const headers& h = folder();
  anycl::detail::source_file origin;
  origin.path = (h.root / "main.cl").string();
  origin.display = origin.path;
  const std::vector<std::string> dirs = {(h.root / "search").string(), ""};
  anycl::resolved_source r;
  try {
    r = anycl::detail::splice_includes(
        origin, std::string(reinterpret_cast<const char*>(data), size), dirs);
  } catch (const anycl::source_error& e) {
    if (std::string_view(e.what()).empty()) fail("source_error without a message");
    return 0;
  }
  if (r.files.empty() || r.files.front() != origin.display) fail("the main file is not first");
  if (r.text.empty() || r.text.back() != '\n') fail("the spliced text does not end a line");
  if (r.text.rfind(anycl::detail::line_marker(1, origin.display), 0) != 0)
    fail("the spliced text does not start with the main file's #line marker");
  for (std::size_t i = 0; i < r.files.size(); ++i)
    for (std::size_t j = i + 1; j < r.files.size(); ++j)
      if (r.files[i] == r.files[j]) fail("a file is listed twice");
  return 0;
}
