// SPDX-License-Identifier: Apache-2.0
// A typed kernel with __local memory: a matrix transpose through a tile per work-group.
//
//   03_local_memory [CL_DIR]    CL_DIR holds transpose.cl (default: the examples' cl/ folder)
#include <anycl/anycl.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#ifndef EXAMPLE_CL_DIR
#define EXAMPLE_CL_DIR "cl"
#endif

int main(int argc, char** argv) try {
  anycl::command_queue q(anycl::select_device());
  anycl::loader_options options;
  options.search_path = {argc > 1 ? argv[1] : EXAMPLE_CL_DIR};
  anycl::kernel_loader loader(q.context(), options);

  // A __local parameter takes anycl::local_memory<T>(count): the driver gives each work-group
  // `count` elements of T. Nothing is copied; only the size is passed.
  auto transpose =
      loader.function<cl_uint, cl_uint, anycl::buffer_view<const float>, anycl::buffer_view<float>,
                      anycl::local_memory<float>>("transpose.cl", "transpose");

  const cl_uint rows = 1000, cols = 700;  // not multiples of the tile: edges are handled
  const std::size_t tile = 16;            // work-groups of 16 x 16 work-items
  std::vector<float> in(std::size_t{rows} * cols);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  auto din = anycl::buffer::from(q.context(), in, anycl::memory_access::read_only);
  anycl::buffer dout(q.context(), in.size() * sizeof(float), anycl::memory_access::write_only);

  // The global size is rounded up to whole tiles; dimension 0 runs along the columns of `in`.
  auto round_up = [&](std::size_t v) { return (v + tile - 1) / tile * tile; };
  anycl::nd_range range({round_up(cols), round_up(rows)}, {tile, tile});
  // A launch is checked first: local size, divisibility and local memory against the device.
  anycl::event done =
      transpose(q, range, rows, cols, din, dout, anycl::local_memory<float>(tile * (tile + 1)));
  std::vector<float> out = q.read(anycl::buffer_view<float>(dout), {done});

  // out is cols x rows: out[c][r] == in[r][c], exactly.
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      if (out[c * rows + r] != in[r * cols + c]) {
        std::fprintf(stderr, "mismatch at (%zu, %zu): %g, expected %g\n", c, r, out[c * rows + r],
                     in[r * cols + c]);
        return 1;
      }
  const auto wg = transpose.kernel().work_group(q.device());
  std::printf("transposed %u x %u through %zu-float tiles (kernel allows %zu work-items/group)\n",
              rows, cols, tile * (tile + 1), wg.work_group_size);
  std::printf("transpose: ok\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 1;
}
