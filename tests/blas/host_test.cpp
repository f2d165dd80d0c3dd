// SPDX-License-Identifier: Apache-2.0
// The host-library path of anycl::blas (OpenBLAS on devices that compute in host memory) against
// the OpenCL path (CLBlast) and host loops: which devices it serves, wait lists and events,
// sub-buffers, two roles in one buffer, buffers the host may not map, and the switch. The other
// blas tests run on both paths (CTest's blas-* and blas-clblast-* entries).
#include <complex>
#include <cstdlib>
#include <string>
#include <vector>

#include "anycl/host_libraries.hpp"
#include "blas/blas_reference.hpp"

namespace blas = anycl::blas;
using blas::transpose;
namespace ref = anycl::test::blas_ref;

namespace {

cl_command_type command_type(const anycl::event& e) {
  cl_command_type t = 0;
  REQUIRE(clGetEventInfo(e.get(), CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS);
  return t;
}

// The rule, asked of the driver directly: the device is of type CPU only, says it works in host
// memory and runs native kernels.
bool qualifies(const anycl::device& d) {
  cl_device_type type = 0;
  cl_bool unified = CL_FALSE;
  cl_device_exec_capabilities caps = 0;
  clGetDeviceInfo(d.get(), CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  clGetDeviceInfo(d.get(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, nullptr);
  clGetDeviceInfo(d.get(), CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, nullptr);
  return (type & ~cl_device_type{CL_DEVICE_TYPE_DEFAULT}) == CL_DEVICE_TYPE_CPU && unified &&
         (caps & CL_EXEC_NATIVE_KERNEL) != 0;
}

// C = A B for n x n row-major matrices, in double.
std::vector<float> host_gemm(const std::vector<float>& a, const std::vector<float>& b,
                             std::size_t n) {
  std::vector<float> c(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < n; ++k) s += double(a[i * n + k]) * double(b[k * n + j]);
      c[i * n + j] = static_cast<float>(s);
    }
  return c;
}

blas::matrix_view<float> square(const anycl::buffer& b, std::size_t offset, std::size_t n) {
  return {anycl::buffer_view<float>(b, offset, n * n), n, n};
}

}  // namespace

TEST_CASE("blas: the host library serves the devices that compute in host memory", "[host]") {
  anycl::test::env e;
  const bool off = [] {
    const char* v = std::getenv("ANYCL_HOST_LIBRARIES");
    return v != nullptr && std::string(v) == "off";
  }();
  CHECK(anycl::host_memory_device(e.dev) == qualifies(e.dev));
  CHECK(anycl::host_libraries_mode() ==
        (off ? anycl::host_libraries::off : anycl::host_libraries::on));
  // Debian's libopenblas0 is installed wherever the test suite runs (tools/install-deps.sh).
  CHECK(blas::uses_host_library(e.dev) == (!off && qualifies(e.dev)));
  CHECK_THROWS_WITH(anycl::host_memory_device(anycl::device()),
                    Catch::Matchers::Contains("the device is empty"));

  // The command that ends a call tells the paths apart: CLBlast ends in a kernel.
  const std::size_t n = 8;
  const auto ha = ref::random<float>(n * n, 3), hb = ref::random<float>(n * n, 4);
  auto a = anycl::buffer::from(e.ctx, ha), b = anycl::buffer::from(e.ctx, hb);
  auto c = anycl::buffer(e.ctx, n * n * sizeof(float));
  for (auto mode : {anycl::host_libraries::on, anycl::host_libraries::off}) {
    ref::host_libraries_as scope(mode);
    const auto ev = blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, square(a, 0, n),
                               square(b, 0, n), 0.0f, square(c, 0, n));
    ev.wait();
    const bool host = mode == anycl::host_libraries::on && qualifies(e.dev);
    INFO("host path: " << host);
    CHECK((command_type(ev) == CL_COMMAND_NDRANGE_KERNEL) == !host);
    CHECK(ref::max_error(e.queue.read(anycl::buffer_view<float>(c)), host_gemm(ha, hb, n)) < 1e-5);
  }
}

TEST_CASE("blas: both paths wait for their wait list and end in an event of the result", "[host]") {
  anycl::test::env e;
  const std::size_t n = 16;
  const auto ha = ref::random<float>(n * n, 5), hb = ref::random<float>(n * n, 6);
  for (auto mode : {anycl::host_libraries::on, anycl::host_libraries::off}) {
    INFO("mode " << (mode == anycl::host_libraries::on ? "on" : "off"));
    ref::host_libraries_as scope(mode);
    auto a = anycl::buffer::from(e.ctx, ha), b = anycl::buffer::from(e.ctx, hb);
    auto c = anycl::buffer::from(e.ctx, std::vector<float>(n * n, -1.0f));
    anycl::user_event gate(e.ctx);
    const auto ev = blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, square(a, 0, n),
                               square(b, 0, n), 0.0f, square(c, 0, n), gate);
    CHECK(ev.status() != anycl::event_status::complete);
    gate.set_complete();
    ev.wait();
    // Read without the queue's order: the event alone says the result is there.
    std::vector<float> got(n * n);
    REQUIRE(clEnqueueReadBuffer(e.queue.get(), c.get(), CL_TRUE, 0, n * n * sizeof(float),
                                got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(ref::max_error(got, host_gemm(ha, hb, n)) < 1e-5);
  }
}

TEST_CASE("blas: the host path on sub-buffers, and two roles in one buffer", "[host]") {
  anycl::test::env e;
  const std::size_t n = 8, nn = n * n;
  // A, B and C side by side in one buffer; a sub-buffer at an aligned offset holds B and C.
  const std::size_t align = std::max<std::size_t>(e.dev.base_address_alignment(), 4) / 4;
  const std::size_t b_at = (nn + align - 1) / align * align;
  auto ha = ref::random<float>(b_at + 2 * nn, 7);
  auto whole = anycl::buffer::from(e.ctx, ha);
  auto sub = whole.sub_buffer(b_at * sizeof(float), 2 * nn * sizeof(float));
  std::vector<float> a(ha.begin(), ha.begin() + nn), b(ha.begin() + b_at, ha.begin() + b_at + nn);
  for (auto mode : {anycl::host_libraries::on, anycl::host_libraries::off}) {
    ref::host_libraries_as scope(mode);
    blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, square(whole, 0, n),
               square(sub, 0, n), 0.0f, square(sub, nn, n))
        .wait();
    const auto got = e.queue.read(anycl::buffer_view<float>(sub, nn, nn));
    CHECK(ref::max_error(got, host_gemm(a, b, n)) < 1e-5);
    // x and y in one buffer: swap its two halves.
    auto v = anycl::buffer::from(e.ctx, std::vector<float>{1, 2, 3, 4, 5, 6});
    blas::swap(e.queue, blas::vector_view<float>(anycl::buffer_view<float>(v, 0, 3)),
               blas::vector_view<float>(anycl::buffer_view<float>(v, 3, 3)))
        .wait();
    CHECK(e.queue.read(anycl::buffer_view<float>(v)) == std::vector<float>{4, 5, 6, 1, 2, 3});
  }
}

TEST_CASE("blas: a buffer the host may not map goes to CLBlast", "[host]") {
  anycl::test::env e;
  const std::size_t n = 8;
  const auto ha = ref::random<float>(n * n, 8), hb = ref::random<float>(n * n, 9);
  auto a = anycl::buffer::from(e.ctx, ha), b = anycl::buffer::from(e.ctx, hb);
  cl_int status = CL_SUCCESS;
  auto c =
      anycl::buffer::adopt(clCreateBuffer(e.ctx.get(), CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS,
                                          n * n * sizeof(float), nullptr, &status));
  REQUIRE(status == CL_SUCCESS);
  const auto ev = blas::gemm(e.queue, transpose::none, transpose::none, 1.0f, square(a, 0, n),
                             square(b, 0, n), 0.0f, square(c, 0, n));
  ev.wait();
  CHECK(command_type(ev) == CL_COMMAND_NDRANGE_KERNEL);
  auto out = anycl::buffer(e.ctx, n * n * sizeof(float));
  e.queue.copy(anycl::buffer_view<float>(c), anycl::buffer_view<float>(out)).wait();
  CHECK(ref::max_error(e.queue.read(anycl::buffer_view<float>(out)), host_gemm(ha, hb, n)) < 1e-5);
}
