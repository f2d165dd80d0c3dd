#include <anycl/anycl.hpp>
#include <cstdio>
#include <vector>

int main() {
  anycl::command_queue q(anycl::select_device());  // ANYCL_DEVICE, else GPU, accelerator, CPU
  anycl::kernel_loader loader(q.context());        // finds .cl files, caches the built binaries
  auto saxpy =
      loader.function<cl_uint, float, anycl::buffer_view<const float>, anycl::buffer_view<float>>(
          "anycl/demo.cl", "anycl_saxpy");
  std::vector<float> x(1000, 1.0f), y(1000, 2.0f);
  auto dx = anycl::buffer::from(q.context(), x), dy = anycl::buffer::from(q.context(), y);
  anycl::event done = saxpy(q, anycl::nd_range{1000}, 1000, 3.0f, dx, dy);  // typed and checked
  std::vector<float> r = q.read(anycl::buffer_view<float>(dy), {done});     // after done
  std::printf("y[0] = %g, y[999] = %g\n", r[0], r[999]);                    // 3 * 1 + 2 = 5
}
