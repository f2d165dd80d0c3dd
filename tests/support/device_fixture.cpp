// SPDX-License-Identifier: Apache-2.0
// The device suite's setup (fail, or skip only when allowed, without a device) and fixtures.
#include "support/device_fixture.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "support/setup.hpp"

namespace anycl::test {

int suite_setup() {
  if (const char* e = std::getenv("ANYCL_TEST_EXPECT_NO_PLATFORM"); e && std::strcmp(e, "1") == 0)
    return -1;
  try {
    anycl::device d = anycl::select_device();
    std::printf("device under test: %s (%s, %s)\n", d.name().c_str(), d.version().c_str(),
                d.platform().name().c_str());
    return -1;
  } catch (const std::exception& ex) {
    const char* allow = std::getenv("ANYCL_TEST_ALLOW_NO_DEVICE");
    if (allow != nullptr && std::strcmp(allow, "1") == 0) {
      std::printf(
          "no OpenCL device; skipping the device suite (ANYCL_TEST_ALLOW_NO_DEVICE=1): %s\n",
          ex.what());
      return 77;
    }
    std::fprintf(stderr,
                 "the device suite needs an OpenCL device and found none:\n%s\n"
                 "(set ANYCL_TEST_ALLOW_NO_DEVICE=1 to skip instead of failing)\n",
                 ex.what());
    return 1;
  }
}

namespace {

std::mutex shared_mutex;
std::optional<anycl::context> shared;  // guarded by shared_mutex

// The shared context of `dev`; a device other than the first one asked for gets a fresh one, and
// so does every test under ANYCL_TEST_FRESH_CONTEXTS=1 (the Oclgrind entries: see
// tests/reliability/oclgrind_tests.cmake).
anycl::context shared_context(const anycl::device& dev) {
  if (const char* f = std::getenv("ANYCL_TEST_FRESH_CONTEXTS"); f && std::strcmp(f, "1") == 0)
    return anycl::context(dev);
  std::lock_guard<std::mutex> lock(shared_mutex);
  if (!shared) shared.emplace(dev);
  const std::vector<anycl::device> devices = shared->devices();
  if (devices.size() == 1 && devices.front() == dev) return *shared;
  return anycl::context(dev);
}

}  // namespace

anycl::debug::handle_counts kept_handles() {
  std::lock_guard<std::mutex> lock(shared_mutex);
  anycl::debug::handle_counts kept;
  kept.contexts = shared ? 1 : 0;
  return kept;
}

void release_kept_handles() {
  std::lock_guard<std::mutex> lock(shared_mutex);
  shared.reset();
}

env::env()
    : dev(anycl::select_device()), ctx(shared_context(dev)), queue(ctx, dev, {false, true}) {}

env::env(fresh_context_t) : dev(anycl::select_device()), ctx(dev), queue(ctx, dev, {false, true}) {}

std::string read_source(const std::string& relative_path) {
  // ANYCL_TEST_SOURCE_DIR in the environment: a copy of the tree elsewhere (tools/device-check.sh).
  const char* root = std::getenv("ANYCL_TEST_SOURCE_DIR");
  std::string path = std::string(root != nullptr && *root != '\0' ? root : ANYCL_TEST_SOURCE_DIR) +
                     "/" + relative_path;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("test: cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

anycl::program build(const anycl::context& ctx, const std::string& relative_path,
                     const anycl::build_options& options) {
  anycl::program p(ctx, read_source(relative_path), relative_path);
  p.build(options);
  return p;
}

}  // namespace anycl::test
