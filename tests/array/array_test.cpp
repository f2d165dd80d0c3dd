// SPDX-License-Identifier: Apache-2.0
// array<T>: creation, host round trips, shapes, strided views, copies, aliasing, events, errors,
// and the launch shape (ANYCL_LAUNCH_SHAPE).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "arrays/launch_plan.hpp"
#include "support/array_reference.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

template <class T>
std::vector<T> host_iota(std::size_t n, T start = T(0), T step = T(1)) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(start + static_cast<T>(i) * step);
  return v;
}

using anycl::test::host_gather;

}  // namespace

TEMPLATE_TEST_CASE("array: from_host, to_host, zeros, full, arange for every element type",
                   "[array]", std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, float, double) {
  anycl::test::env e;
  if (std::is_same_v<TestType, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: array<double> not tested");
    return;
  }
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{97}, (std::size_t{1} << 20) + 3}) {
    INFO("n = " << n);
    auto host = host_iota<TestType>(n, TestType(3), TestType(1));
    auto a = anycl::array<TestType>::from_host(e.queue, host);
    CHECK(a.size() == n);
    CHECK(a.to_host() == host);
    CHECK(anycl::array<TestType>::zeros(e.queue, n).to_host() == std::vector<TestType>(n, 0));
    CHECK(anycl::array<TestType>::full(e.queue, n, TestType(7)).to_host() ==
          std::vector<TestType>(n, TestType(7)));
    CHECK(anycl::array<TestType>::arange(e.queue, n, TestType(2), TestType(3)).to_host() ==
          host_iota<TestType>(n, TestType(2), TestType(3)));
  }
}

TEST_CASE("array: shapes, reshape and transpose", "[array]") {
  anycl::test::env e;
  auto host = host_iota<int>(24);
  auto a = anycl::array<int>::from_host(e.queue, host, {2, 3, 4});
  CHECK(a.dims() == 3);
  CHECK(a.shape() == anycl::shape{2, 3, 4});
  CHECK(a.shape().str() == "(2, 3, 4)");
  CHECK(a.strides()[0] == 12);
  CHECK(a.strides()[2] == 1);
  CHECK(a.contiguous());
  auto m = a.reshape({6, 4});
  CHECK(m.buffer().get() == a.buffer().get());
  CHECK(m.to_host() == host);
  auto t = m.transpose();
  CHECK(t.shape() == anycl::shape{4, 6});
  CHECK_FALSE(t.contiguous());
  std::vector<int> want(24);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) want[j * 6 + i] = host[i * 4 + j];
  CHECK(t.to_host() == want);
  CHECK(t.copy().contiguous());
  CHECK(t.copy().to_host() == want);
  auto p = a.transpose({1, 2, 0});
  CHECK(p.shape() == anycl::shape{3, 4, 2});
  CHECK(p.to_host() == host_gather(host, p));
  auto four = a.reshape({1, 2, 3, 4}).transpose({3, 1, 0, 2});
  CHECK(four.to_host() == host_gather(host, four));

  REQUIRE_THROWS_WHAT(a.reshape({5, 5}), std::invalid_argument, Contains("24 elements"));
  REQUIRE_THROWS_WHAT(t.reshape({24}), std::invalid_argument, Contains("copy()"));
  REQUIRE_THROWS_WHAT(a.transpose({0, 0, 1}), std::invalid_argument, Contains("permutation"));
  REQUIRE_THROWS_WHAT((anycl::shape{1, 2, 3, 4, 5, 1, 2, 3, 4}), std::invalid_argument,
                      Contains("1 to 8 dimensions, not 9"));
  REQUIRE_THROWS_AS((anycl::shape{SIZE_MAX, 3}), std::overflow_error);
  REQUIRE_THROWS_WHAT((anycl::array<double>(e.queue, {SIZE_MAX / 4, 1})), std::overflow_error,
                      Contains("elements of double overflow size_t bytes"));
}

TEST_CASE("array: slices are views; strided slices read, write and fill", "[array]") {
  anycl::test::env e;
  auto host = host_iota<float>(60);
  auto a = anycl::array<float>::from_host(e.queue, host, {6, 10});
  auto rows = a.slice(2, 4);
  CHECK(rows.shape() == anycl::shape{2, 10});
  CHECK(rows.to_host() == std::vector<float>(host.begin() + 20, host.begin() + 40));
  auto cols = a.slice(1, 1, 9, 3);  // columns 1, 4, 7
  CHECK(cols.shape() == anycl::shape{6, 3});
  CHECK(cols.to_host() == host_gather(host, cols));
  cols.fill(-1.0f);
  auto back = a.to_host();
  for (std::size_t i = 0; i < 60; ++i) {
    const bool in = (i % 10) == 1 || (i % 10) == 4 || (i % 10) == 7;
    CHECK(back[i] == (in ? -1.0f : host[i]));
  }
  cols.set(host_iota<float>(18, 100.0f));
  CHECK(cols.to_host() == host_iota<float>(18, 100.0f));
  CHECK(a.slice(0, 3, 3).empty());
  CHECK(a.slice(0, 3, 3).to_host().empty());
  REQUIRE_THROWS_WHAT(a.slice(4, 7), std::out_of_range, Contains("extent 6"));
  REQUIRE_THROWS_WHAT(a.slice(2, 0, 1), std::invalid_argument, Contains("axis 2"));
  REQUIRE_THROWS_WHAT(a.slice(1, 0, 4, 0), std::invalid_argument, Contains("step 0"));
}

TEST_CASE("array: to_host and set of 2-D, 3-D and other strided views equal the host's",
          "[array]") {
  anycl::test::env e;
  // Views whose rows have stride 1 move as one rectangular transfer; the others (columns with a
  // step, transposed) through a kernel. Each is read, then written, against the host's gather.
  auto host = host_iota<std::int32_t>(5 * 7 * 11);
  auto a = anycl::array<std::int32_t>::from_host(e.queue, host, {5, 7, 11});
  const std::vector<anycl::array<std::int32_t>> views = {
      a.slice(1, 2, 6),                                // 3-D box, rows 2..5 of each slice
      a.slice(2, 3, 10).slice(0, 1, 4),                // 3-D box with an offset
      a.slice(0, 2, 3).slice(2, 1, 8),                 // a 2-D box after an extent-1 axis
      a.slice(0, 0, 5, 2).slice(2, 0, 6),              // slices with a step
      a.slice(2, 0, 11, 3),                            // columns with a step: a kernel
      a.slice(0, 1, 2).reshape({7, 11}).transpose()};  // transposed: a kernel
  std::int32_t next = 1000;
  for (std::size_t i = 0; i < views.size(); ++i) {
    INFO("view " << i << " of shape " << views[i].shape().str());
    const auto& v = views[i];
    CHECK(v.to_host() == host_gather(host, v));
    std::vector<std::int32_t> fresh(v.size());
    for (auto& x : fresh) x = next++;
    v.set(fresh);
    CHECK(v.to_host() == fresh);
    // Elements outside the view are unchanged: the host's copy gets the same writes.
    const auto where = host_gather(host_iota<std::int32_t>(host.size()), v);
    for (std::size_t k = 0; k < where.size(); ++k)
      host[static_cast<std::size_t>(where[k])] = fresh[k];
    CHECK(a.to_host() == host);
  }
}

TEST_CASE("array: copies share, copy() does not, assign handles overlap", "[array]") {
  anycl::test::env e;
  auto host = host_iota<std::int32_t>(100);
  auto a = anycl::array<std::int32_t>::from_host(e.queue, host);
  anycl::array<std::int32_t> shared = a;
  auto deep = a.copy();
  a.fill(5);
  CHECK(shared.to_host() == std::vector<std::int32_t>(100, 5));
  CHECK(deep.to_host() == host);

  // Overlapping shift within one buffer: a[1:] = a[:-1] must read before it writes.
  auto b = anycl::array<std::int32_t>::from_host(e.queue, host);
  b.slice(1, 100).assign(b.slice(0, 99));
  auto got = b.to_host();
  CHECK(got[0] == 0);
  for (int i = 1; i < 100; ++i) CHECK(got[i] == i - 1);

  anycl::array<std::int32_t> c = anycl::array<std::int32_t>::zeros(e.queue, 3);
  c.swap(deep);
  CHECK(c.size() == 100);
  CHECK(deep.size() == 3);
  REQUIRE_THROWS_WHAT(c.assign(deep), std::invalid_argument,
                      Contains("array::assign: an array of shape (3) does not broadcast to (100)"));
  REQUIRE_THROWS_WHAT(c.set(std::vector<std::int32_t>(3)), std::invalid_argument,
                      Contains("3 host elements for an array of 100"));
  REQUIRE_THROWS_WHAT(anycl::array<std::int32_t>::from_host(e.queue, host, {3, 3}),
                      std::invalid_argument, Contains("100 host elements for an array of 9"));
  anycl::array<float> none;
  REQUIRE_THROWS_WHAT(none.to_host(), std::invalid_argument, Contains("empty"));
  REQUIRE_THROWS_WHAT(anycl::array<float>(anycl::command_queue{}, 4), std::invalid_argument,
                      Contains("queue is empty"));
  REQUIRE_THROWS_WHAT(anycl::array<float>(c.core()), std::invalid_argument,
                      Contains("holds int elements"));
}

TEST_CASE("array: commands on two queues are ordered by the recorded events", "[array]") {
  anycl::test::env e;
  anycl::command_queue other(e.ctx, e.dev, {true, false});  // out of order
  const std::size_t n = 1 << 20;
  auto a = anycl::array<float>::zeros(other, n);
  a.fill(2.0f);  // on the out-of-order queue
  // A view on the first queue reads after the pending fill.
  anycl::array<float> b = anycl::array<float>::from_host(e.queue, std::vector<float>(n, 1.0f));
  a.assign(b);
  a.slice(0, 10).fill(3.0f);
  auto got = a.to_host();
  CHECK(got[0] == 3.0f);
  CHECK(got[9] == 3.0f);
  CHECK(got[10] == 1.0f);
  CHECK(got[n - 1] == 1.0f);
  CHECK(a.last_event());
}

TEST_CASE("array: launch plans cover every element exactly once", "[array]") {
  for (bool cpu : {true, false}) {
    anycl::detail::device_profile p;
    p.cpu = cpu;
    p.compute_units = cpu ? 2 : 80;
    p.max_work_group = 1024;
    for (std::size_t n : {std::size_t{1}, std::size_t{17}, std::size_t{4097}, std::size_t{1} << 26,
                          (std::size_t{1} << 26) + 3}) {
      auto plan = anycl::detail::plan_for(p, n, 4);
      INFO("cpu " << cpu << " n " << n);
      CHECK(plan.global % plan.local == 0);
      if (cpu) {
        CHECK(plan.global * plan.chunk >= n);
        CHECK((plan.global - 1) * plan.chunk < n);
      } else {
        CHECK(plan.chunk == 1);
        CHECK(plan.global >= plan.local);
      }
    }
  }
}

namespace {

// Sets ANYCL_LAUNCH_SHAPE for one scope and puts back what was there.
class launch_shape_env {
 public:
  explicit launch_shape_env(const char* value) {
    if (const char* old = std::getenv("ANYCL_LAUNCH_SHAPE")) old_ = old;
    had_ = std::getenv("ANYCL_LAUNCH_SHAPE") != nullptr;
    ::setenv("ANYCL_LAUNCH_SHAPE", value, 1);
  }
  ~launch_shape_env() {
    if (had_)
      ::setenv("ANYCL_LAUNCH_SHAPE", old_.c_str(), 1);
    else
      ::unsetenv("ANYCL_LAUNCH_SHAPE");
  }
  launch_shape_env(const launch_shape_env&) = delete;
  launch_shape_env& operator=(const launch_shape_env&) = delete;

 private:
  std::string old_;
  bool had_ = false;
};

}  // namespace

TEST_CASE("array: ANYCL_LAUNCH_SHAPE gives every algorithm the CPU or the GPU shape", "[array]") {
  const std::size_t n = (std::size_t{1} << 20) + 3;
  std::vector<std::int32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::int32_t>(i % 1000) - 500;
  const std::int64_t want = std::accumulate(host.begin(), host.end(), std::int64_t{0});
  for (const char* shape : {"cpu", "gpu", "auto", ""}) {
    INFO("ANYCL_LAUNCH_SHAPE=" << shape);
    launch_shape_env set(shape);
    anycl::test::env e;  // a fresh context: the shape is read when a context first meets a device
    const bool cpu =
        std::string(shape) == "cpu" || ((std::string(shape) == "auto" || *shape == '\0') &&
                                        e.dev.type() == anycl::device_type::cpu);
    CHECK(anycl::detail::profile(e.queue).cpu == cpu);
    const anycl::detail::launch_plan plan = anycl::detail::plan_launch(e.queue, n, 4);
    CHECK(plan.cpu == cpu);
    if (cpu) {
      CHECK(plan.local == 1);
      CHECK(plan.chunk > 1);
    } else {
      CHECK(plan.local == std::min<std::size_t>(256, e.dev.max_work_group_size()));
      CHECK(plan.chunk == 1);
    }
    // The kernels of that shape give the host's answers.
    auto a = anycl::array<std::int32_t>::from_host(e.queue, host);
    CHECK(anycl::sum(a) == want);
    auto b = anycl::array<std::int32_t>::zeros(e.queue, n);
    b = a * 2 + 1;
    const auto hb = b.to_host();
    CHECK(hb[0] == 2 * host[0] + 1);
    CHECK(hb[n - 1] == 2 * host[n - 1] + 1);
  }
}

TEST_CASE("array: a bad ANYCL_LAUNCH_SHAPE is refused with the valid values", "[array]") {
  for (const char* bad : {"GPU", "gpu ", "fpga", "1"}) {
    INFO("ANYCL_LAUNCH_SHAPE=" << bad);
    launch_shape_env set(bad);
    anycl::test::env e;
    CHECK_THROWS_AS(anycl::array<float>::zeros(e.queue, 4), std::invalid_argument);
    CHECK_THROWS_WITH(anycl::array<float>::zeros(e.queue, 4),
                      Contains("ANYCL_LAUNCH_SHAPE='" + std::string(bad) + "'") &&
                          Contains("auto") && Contains("cpu") && Contains("gpu"));
  }
}
