// SPDX-License-Identifier: Apache-2.0
// What tests of the kernel loader and its disk cache share: scratch folders, file contents,
// loader options that search one folder, scoped environment variables and a one-value kernel run.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/device_fixture.hpp"

namespace anycl::test {

/// A fresh folder `anycl-<prefix>-XXXXXX` under the system's temp folder, removed with everything
/// in it.
class temp_folder {
 public:
  explicit temp_folder(const std::string& prefix = "test") {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / ("anycl-" + prefix + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path_ = tmpl;
  }
  ~temp_folder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  std::string operator/(const std::string& rel) const { return (path_ / rel).string(); }

 private:
  std::filesystem::path path_;
};

/// Writes `text` to `path`, creating its folders.
inline void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  REQUIRE(out.good());
}

inline std::vector<unsigned char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>());
}

inline void write_bytes(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  REQUIRE(out.good());
}

/// Loader options searching only `d` (not the environment), with the disk cache in `cache`, or
/// off when there is none.
inline anycl::loader_options search_only(const temp_folder& d, const temp_folder* cache = nullptr) {
  anycl::loader_options o;
  o.search_path = {d.str()};
  o.use_environment = false;
  o.disk_cache = cache != nullptr;
  if (cache != nullptr) o.cache_dir = cache->str();
  return o;
}

/// Runs `name` (a kernel taking `global int* out`) once and returns out[0].
inline int run_value(const env& e, const anycl::program& prog, const std::string& name) {
  anycl::buffer out(e.ctx, sizeof(int));
  auto f = prog.function<anycl::buffer_view<int>>(name);
  anycl::event ev = f(e.queue, anycl::nd_range{1}, out);
  return e.queue.read(anycl::buffer_view<int>(out), {ev})[0];
}

/// Sets (or, for a null value, unsets) an environment variable for a scope.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_ = true;
      old_ = old;
    }
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  scoped_env(const char* name, const std::string& value) : scoped_env(name, value.c_str()) {}
  ~scoped_env() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace anycl::test
