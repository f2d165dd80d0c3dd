// SPDX-License-Identifier: Apache-2.0
// Programs in parts: a helper function compiled on its own with a header handed over in memory,
// a kernel in another part calling it, linked into one program (directly, and through a library
// linked again); then the same from two .cl files with kernel_loader::link, cached on disk.
//
//   16_programs_in_parts [CL_DIR]    CL_DIR holds poly.cl and apply_poly.cl (default: cl/)
#include <anycl/anycl.hpp>

#include <cstdio>
#include <exception>
#include <vector>

#ifndef EXAMPLE_CL_DIR  // set by examples/CMakeLists.txt; point it at your own kernel folder
#define EXAMPLE_CL_DIR "cl"
#endif

namespace {

// The helper's coefficients come from "coeffs.h", which exists only in memory (embedded_header).
const char* const helper_src =
    "#include \"coeffs.h\"\nfloat poly(float x) { return A * x * x + B; }\n";
// The kernel only declares poly(): the linker finds it in the helper's part.
const char* const kernel_src =
    "float poly(float x);\n"
    "kernel void apply(global float* y) { size_t i = get_global_id(0); y[i] = poly(y[i]); }\n";

float poly(float x) { return 3.0f * x * x + 0.5f; }  // the host's copy: exact in float

// Runs `apply` of `prog` on quarters 0, 0.25, ..., 24.75 and checks every element on the host.
bool check(anycl::command_queue& q, const anycl::program& prog, const char* what) {
  const std::size_t n = 4096;
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 100) * 0.25f;
  auto y = anycl::buffer::from(q.context(), x);
  auto apply = prog.function<anycl::buffer_view<float>>("apply");
  const auto got = q.read(anycl::buffer_view<const float>(y), {apply(q, anycl::nd_range{n}, y)});
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != poly(x[i])) {
      std::fprintf(stderr, "%s: mismatch at %zu: %g, expected %g\n", what, i, got[i], poly(x[i]));
      return false;
    }
  std::printf("%s: 3x^2 + 0.5 on %zu floats: ok\n", what, n);
  return true;
}

}  // namespace

int main(int argc, char** argv) try {
  anycl::command_queue q(anycl::select_device());
  const anycl::context ctx = q.context();

  // Each part compiled without linking (clCompileProgram); the header is found by its name.
  anycl::program helper(ctx, helper_src, "poly.cl");
  helper.compile({}, {{"coeffs.h", "#define A 3.0f\n#define B 0.5f\n"}});
  anycl::program kernel(ctx, kernel_src, "apply_poly.cl");
  kernel.compile();

  // Linked into an executable; or the helper made a library first, linked again with the kernel.
  const anycl::program exe =
      anycl::program::link(ctx, {helper, kernel}, {}, anycl::link_target::executable, "poly+apply");
  const anycl::program lib =
      anycl::program::link(ctx, {helper}, {}, anycl::link_target::library, "poly library");
  const anycl::program from_lib = anycl::program::link(ctx, {lib, kernel});
  bool ok = check(q, exe, "linked executable") && check(q, from_lib, "linked through a library");

  // The same from files: each compiled apart with the options, linked, kept in the disk cache.
  anycl::loader_options options;
  options.search_path = {argc > 1 ? argv[1] : EXAMPLE_CL_DIR};
  anycl::kernel_loader loader(ctx, options);
  const anycl::program files = loader.link(
      {"poly.cl", "apply_poly.cl"}, anycl::build_options{}.define("A", "3.0f").define("B", "0.5f"));
  ok = ok && check(q, files, "kernel_loader::link of poly.cl and apply_poly.cl");
  if (!ok) return 1;
  std::printf("programs in parts: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "16_programs_in_parts: %s\n", e.what());
  return 1;
}
