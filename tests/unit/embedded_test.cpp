// SPDX-License-Identifier: Apache-2.0
// The copy of cl_kernels/ embedded in the library matches the files on disk byte for byte.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "anycl/program.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kernel_root = fs::path(ANYCL_TEST_SOURCE_DIR) / "cl_kernels";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("embedded_kernel_source: anycl/demo.cl has the bytes of the file on disk",
          "[unit][embedded]") {
  const std::string on_disk = read_file(kernel_root / "anycl" / "demo.cl");
  REQUIRE_FALSE(on_disk.empty());
  const std::optional<std::string_view> embedded = anycl::embedded_kernel_source("anycl/demo.cl");
  REQUIRE(embedded.has_value());
  CHECK(embedded->size() == on_disk.size());
  CHECK(std::string(*embedded) == on_disk);
}

TEST_CASE("embedded_kernel_source: every file under cl_kernels/ is embedded unchanged",
          "[unit][embedded]") {
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kernel_root)) {
    if (!entry.is_regular_file()) continue;
    const std::string rel = entry.path().lexically_relative(kernel_root).generic_string();
    INFO("file " << rel);
    const auto embedded = anycl::embedded_kernel_source(rel);
    REQUIRE(embedded.has_value());
    CHECK(std::string(*embedded) == read_file(entry.path()));
    ++files;
  }
  CHECK(files >= 1);
}

TEST_CASE("embedded_kernel_source: paths that are not embedded give nullopt", "[unit][embedded]") {
  CHECK_FALSE(anycl::embedded_kernel_source("anycl/no_such_file.cl").has_value());
  CHECK_FALSE(anycl::embedded_kernel_source("").has_value());
  CHECK_FALSE(anycl::embedded_kernel_source("demo.cl").has_value());  // the anycl/ prefix is part
  CHECK_FALSE(anycl::embedded_kernel_source("anycl").has_value());    // a folder is not a file
  CHECK_FALSE(anycl::embedded_kernel_source("anycl/demo.c").has_value());
  CHECK_FALSE(anycl::embedded_kernel_source("anycl/demo.cl.bak").has_value());
  CHECK_FALSE(anycl::embedded_kernel_source(std::string_view("anycl/demo.cl\0", 14)).has_value());
}
