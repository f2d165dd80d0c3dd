// SPDX-License-Identifier: Apache-2.0
// The FPGA flow on any device: build a kernel once where a compiler is, ship the binary, and load
// it with a loader that never compiles (as on an FPGA, whose vendor compiler runs offline).
//
//   10_prebuilt_binary [CL_DIR [OUT_DIR]]    saxpy.cl from CL_DIR; the binary goes to OUT_DIR
#include <anycl/anycl.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  namespace fs = std::filesystem;
  const std::string cl_dir = argc > 1 ? argv[1] : EXAMPLE_CL_DIR;
  const fs::path out_dir =
      argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "anycl-prebuilt";
  fs::create_directories(out_dir);
  anycl::command_queue q(anycl::select_device());
  const anycl::device dev = q.device();

  // Step 1, where a compiler is (what `anycl-build saxpy.cl` does): build from source, then write
  // the binary under the name a loader looks for: <stem>.<device key>.bin.
  anycl::loader_options build_opts;
  build_opts.search_path = {cl_dir};
  anycl::program built = anycl::kernel_loader(q.context(), build_opts).load("saxpy.cl");
  anycl::kernel(built, "saxpy");  // some drivers compile only when a kernel is created
  const fs::path bin = out_dir / anycl::prebuilt_file_name("saxpy.cl", dev);
  anycl::write_prebuilt(built, dev, bin.string());
  std::printf("wrote %s (%ju bytes)\n", bin.filename().c_str(),
              static_cast<std::uintmax_t>(fs::file_size(bin)));

  // Step 2, on the target: a binary-only loader reads the .bin (header and checksum verified)
  // and never sees the source. A device without a compiler (an FPGA) takes this path by itself,
  // and also accepts the vendor's saxpy.aocx or saxpy.xclbin.
  anycl::loader_options run_opts;
  run_opts.search_path = {out_dir.string()};
  run_opts.binary_only = true;
  run_opts.use_environment = false;
  anycl::kernel_loader target(q.context(), run_opts);
  auto saxpy =
      target.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "saxpy.cl", "saxpy");

  const cl_uint n = 100000;
  std::vector<float> x(n, 2.0f), y(n);
  for (cl_uint i = 0; i < n; ++i) y[i] = static_cast<float>(i);
  auto dx = anycl::buffer::from(q.context(), x), dy = anycl::buffer::from(q.context(), y);
  std::vector<float> r =
      q.read(anycl::buffer_view<float>(dy), {saxpy(q, anycl::nd_range{n}, n, 3.0f, dx, dy)});
  for (cl_uint i = 0; i < n; ++i)
    if (r[i] != 6.0f + y[i]) {
      std::fprintf(stderr, "mismatch at %u: %g, expected %g\n", i, r[i], 6.0f + y[i]);
      return 1;
    }
  std::printf("saxpy from the prebuilt binary: ok\n");

  // Without a binary there is no fallback to source: binary_not_found says what was looked for
  // and which anycl-build command makes it.
  try {
    target.load("missing.cl");
    std::fprintf(stderr, "a binary-only loader built missing.cl from nothing\n");
    return 1;
  } catch (const anycl::binary_not_found& e) {
    std::printf("no binary for missing.cl: %s\n", e.what());
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
