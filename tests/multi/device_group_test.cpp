// SPDX-License-Identifier: Apache-2.0
// device_group and parallel_for_each_device on two devices (POCL_DEVICES="pthread pthread", tag
// [multi]) and on the sub-devices of one device (tag [multi_sub]), against the host and against
// one device doing all the work.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/device_group.hpp"
#include "anycl/elementwise.hpp"
#include "anycl/reduce.hpp"
#include "support/device_fixture.hpp"

using Catch::Matchers::Contains;

namespace {

std::uint64_t seed_for(const char* what) {
  const std::uint64_t seed = std::random_device{}();
  UNSCOPED_INFO(what << ": seed " << seed);
  return seed;
}

std::vector<std::int32_t> random_ints(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int32_t> d(-1000000, 1000000);
  std::vector<std::int32_t> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> d(0.0f, 100.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

// The index of the group's queue `q` (fn is told the queue, not the index).
std::size_t index_of(const anycl::device_group& g, const anycl::command_queue& q) {
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g.queue(i).get() == q.get()) return i;
  throw std::logic_error("test: a queue that is not the group's");
}

// What one pass of the integer work gives: y = 3 * x + 7 element-wise, and sum(y).
struct int_result {
  std::vector<std::int32_t> y;
  std::int64_t sum = 0;
};

// The work on every device of `g`, each on its share of `x`; the partial sums are combined on
// the host (64-bit integer sums: exact, in any order).
int_result int_work(const anycl::device_group& g, const std::vector<std::int32_t>& x,
                    const std::vector<double>* weights = nullptr) {
  int_result r;
  r.y.assign(x.size(), 0);
  std::vector<std::int64_t> partial(g.size(), 0);
  auto fn = [&](const anycl::command_queue& q, anycl::index_range share) {
    auto a = anycl::array<std::int32_t>::from_host(q, x.data() + share.begin, share.size());
    anycl::array<std::int32_t> y = 3 * a + 7;
    y.to_host(r.y.data() + share.begin);  // disjoint parts of one vector: no lock needed
    partial[index_of(g, q)] = anycl::sum(y);
  };
  if (weights != nullptr)
    anycl::parallel_for_each_device(g, x.size(), *weights, fn);
  else
    anycl::parallel_for_each_device(g, x.size(), fn);
  for (std::int64_t p : partial) r.sum += p;
  return r;
}

// The same on one queue.
int_result int_work(const anycl::command_queue& q, const std::vector<std::int32_t>& x) {
  auto a = anycl::array<std::int32_t>::from_host(q, x);
  anycl::array<std::int32_t> y = 3 * a + 7;
  return {y.to_host(), anycl::sum(y)};
}

// Checks the integer work on `g` against the host and against one device, exactly.
void check_int_work(const anycl::device_group& g, std::size_t n) {
  const auto x = random_ints(n, seed_for("int work"));
  std::vector<std::int32_t> host_y(n);
  std::int64_t host_sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    host_y[k] = 3 * x[k] + 7;
    host_sum += host_y[k];
  }
  const int_result multi = int_work(g, x);
  CHECK(multi.y == host_y);
  CHECK(multi.sum == host_sum);
  const int_result single = int_work(g.queue(0), x);
  CHECK(multi.y == single.y);
  CHECK(multi.sum == single.sum);
  // Unequal shares give the same answer.
  const std::vector<double> weights = [&] {
    std::vector<double> w(g.size(), 1.0);
    w.back() = 3.0;
    return w;
  }();
  const int_result weighted = int_work(g, x, &weights);
  CHECK(weighted.y == host_y);
  CHECK(weighted.sum == host_sum);
}

// Float work: sqrt(x) * 2 + 1 and its sum, against the host within a stated tolerance, and
// element-wise equal to one device (the same kernel on the same kind of device).
void check_float_work(const anycl::device_group& g, std::size_t n) {
  const auto x = random_floats(n, seed_for("float work"));
  std::vector<float> y(n);
  std::vector<double> partial(g.size(), 0);
  anycl::parallel_for_each_device(
      g, n, [&](const anycl::command_queue& q, anycl::index_range share) {
        auto a = anycl::array<float>::from_host(q, x.data() + share.begin, share.size());
        anycl::array<float> b = sqrt(a) * 2.0f + 1.0f;
        b.to_host(y.data() + share.begin);
        partial[index_of(g, q)] = anycl::sum(b);
      });
  double multi_sum = 0;
  for (double p : partial) multi_sum += p;
  // OpenCL C allows sqrt 3 ulp; with two more roundings that stays well inside 1e-6 relative.
  double host_sum = 0;
  std::size_t bad = 0, first_bad = n;
  for (std::size_t k = 0; k < n; ++k) {
    const double h = std::sqrt(static_cast<double>(x[k])) * 2.0 + 1.0;
    host_sum += h;
    if (std::fabs(static_cast<double>(y[k]) - h) > 1e-6 * h) {
      ++bad;
      if (first_bad == n) first_bad = k;
    }
  }
  INFO("first element off by more than 1e-6: " << first_bad);
  CHECK(bad == 0);
  CHECK(multi_sum == Approx(host_sum).epsilon(1e-6));

  auto one = anycl::array<float>::from_host(g.queue(0), x);
  anycl::array<float> b = sqrt(one) * 2.0f + 1.0f;
  CHECK(b.to_host() == y);
  CHECK(static_cast<double>(anycl::sum(b)) == Approx(multi_sum).epsilon(1e-6));
}

anycl::device_group two_devices() {
  auto g = anycl::device_group::from_spec("all");
  REQUIRE(g.size() >= 2);  // POCL_DEVICES="pthread pthread"
  return g;
}

}  // namespace

// --- the group ---

TEST_CASE("device_group: one context over the devices of a platform, one queue each", "[multi]") {
  auto g = two_devices();
  REQUIRE(g.contexts().size() == 1);
  CHECK(g.devices() == anycl::select_devices("all"));
  for (std::size_t i = 0; i < g.size(); ++i) {
    CHECK(g.queue(i).device() == g.device(i));
    CHECK(g.context(i) == g.contexts()[0]);
    CHECK(g.queue(i).context() == g.contexts()[0]);
    CHECK_FALSE(g.queue(i).properties().out_of_order);
  }
  CHECK(g.contexts()[0].devices().size() == g.size());
  // From a list, in the order given, with queue properties.
  auto r = anycl::device_group({g.device(1), g.device(0)}, {false, true});
  CHECK(r.device(0) == g.device(1));
  CHECK(r.queue(1).properties().profiling);
  auto copy = r;  // copies share the queues
  CHECK(copy.queue(0).get() == r.queue(0).get());
  g.finish();
  REQUIRE_THROWS_WHAT(g.queue(g.size()), std::out_of_range,
                      Contains("device_group::queue: index 2") && Contains("group of 2"));
  REQUIRE_THROWS_AS(g.device(99), std::out_of_range);
  REQUIRE_THROWS_AS(g.context(99), std::out_of_range);
}

TEST_CASE("device_group: an empty, null or repeated device list is refused", "[multi]") {
  auto devs = anycl::select_devices("all");
  REQUIRE_THROWS_WHAT(anycl::device_group(std::vector<anycl::device>{}), std::invalid_argument,
                      Contains("no devices given"));
  REQUIRE_THROWS_WHAT(anycl::device_group({devs[0], anycl::device{}}), std::invalid_argument,
                      Contains("device 1 is null"));
  REQUIRE_THROWS_WHAT(anycl::device_group({devs[0], devs[0]}), std::invalid_argument,
                      Contains("device 1") && Contains("is device 0 again"));
  REQUIRE_THROWS_WHAT(anycl::device_group::from_sub_devices(devs[0], 0), std::invalid_argument,
                      Contains("0 compute units"));
  REQUIRE_THROWS_AS(anycl::device_group::from_spec("no-such-device-anywhere"),
                    anycl::device_not_found);
}

TEST_CASE("prepare: expressions on two devices of one context are refused", "[multi]") {
  auto g = two_devices();
  auto a = anycl::array<float>::zeros(g.queue(0), 8);
  auto b = anycl::array<float>::zeros(g.queue(1), 8);
  REQUIRE_THROWS_WHAT(anycl::prepare(a + 1.0f, b * 2.0f), std::invalid_argument,
                      Contains("anycl::prepare") && Contains("different devices"));
}

// --- parallel_for_each_device ---

TEST_CASE("parallel_for_each_device: every index once, on each device's own queue", "[multi]") {
  auto g = two_devices();
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{1000003}}) {
    std::mutex m;
    std::vector<anycl::index_range> seen(g.size());
    std::vector<int> calls(g.size(), 0);
    anycl::parallel_for_each_device(g, n, [&](const anycl::command_queue& q, anycl::index_range r) {
      std::lock_guard<std::mutex> lock(m);
      const std::size_t i = index_of(g, q);
      seen[i] = r;
      ++calls[i];
    });
    const auto want = anycl::split_range(n, std::vector<double>(g.size(), 1.0));
    for (std::size_t i = 0; i < g.size(); ++i) {
      INFO("n " << n << ", device " << i);
      CHECK(calls[i] == (want[i].empty() ? 0 : 1));  // empty shares are not called
      if (!want[i].empty()) CHECK(seen[i] == want[i]);
    }
  }
  // Weighted: the shares split_range gives.
  std::vector<double> w(g.size(), 1.0);
  w[0] = 3.0;
  std::vector<anycl::index_range> seen(g.size());
  anycl::parallel_for_each_device(g, 4000, w,
                                  [&](const anycl::command_queue& q, anycl::index_range r) {
                                    seen[index_of(g, q)] = r;  // one slot per device
                                  });
  CHECK(seen == anycl::split_range(4000, w));
  if (g.size() == 2) CHECK(seen == std::vector<anycl::index_range>{{0, 3000}, {3000, 4000}});
  // fn may take the device's index first.
  std::vector<std::size_t> index_seen(g.size(), g.size());
  anycl::parallel_for_each_device(
      g, 4000, [&](std::size_t i, const anycl::command_queue& q, anycl::index_range) {
        index_seen[i] = index_of(g, q);
      });
  for (std::size_t i = 0; i < g.size(); ++i) CHECK(index_seen[i] == i);
  // n = 0 is an empty loop: nothing is called.
  std::atomic<int> called{0};
  anycl::parallel_for_each_device(
      g, 0, [&](const anycl::command_queue&, anycl::index_range) { ++called; });
  CHECK(called == 0);
}

TEST_CASE("parallel_for_each_device: integers equal the host and one device exactly", "[multi]") {
  auto g = two_devices();
  check_int_work(g, (std::size_t{1} << 20) + 37);
  check_int_work(g, 3);  // shares of one and two elements
}

TEST_CASE("parallel_for_each_device: floats match the host within 1e-6", "[multi]") {
  check_float_work(two_devices(), (std::size_t{1} << 19) + 11);
}

TEST_CASE("parallel_for_each_device: a device's error is rethrown after every device finished",
          "[multi]") {
  auto g = two_devices();
  const std::size_t n = 1 << 16;
  const std::size_t last = g.size() - 1;
  std::vector<std::vector<std::int32_t>> done(g.size());
  std::atomic<int> calls{0};
  auto work = [&](const anycl::command_queue& q, anycl::index_range r) {
    ++calls;
    const std::size_t i = index_of(g, q);
    if (i == last) throw std::runtime_error("device " + std::to_string(i) + " failed");
    auto a = anycl::array<std::int32_t>::arange(q, r.size(), static_cast<std::int32_t>(r.begin));
    done[i] = a.to_host();
  };
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, n, work), std::runtime_error,
                      Contains("device " + std::to_string(last) + " failed"));
  CHECK(calls == static_cast<int>(g.size()));
  // The devices that did not fail finished their work.
  const auto shares = anycl::split_range(n, std::vector<double>(g.size(), 1.0));
  for (std::size_t i = 0; i < last; ++i) {
    REQUIRE(done[i].size() == shares[i].size());
    CHECK(done[i].front() == static_cast<std::int32_t>(shares[i].begin));
    CHECK(done[i].back() == static_cast<std::int32_t>(shares[i].end - 1));
  }

  // Several failures: the lowest-numbered device's error, with its type kept.
  auto both = [&](const anycl::command_queue& q, anycl::index_range) {
    const std::size_t i = index_of(g, q);
    if (i == 0) g.queue(g.size());  // std::out_of_range from AnyCL
    throw std::runtime_error("device " + std::to_string(i) + " failed");
  };
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, n, both), std::out_of_range,
                      Contains("device_group::queue"));
}

TEST_CASE("device_group::split: the shares parallel_for_each_device and partitioned_array use",
          "[multi]") {
  auto g = two_devices();
  // Equal shares, within one element, in order; and in proportion to weights, as split_range.
  const std::vector<anycl::index_range> equal = g.split(11);
  REQUIRE(equal.size() == 2);
  CHECK(equal[0].begin == 0);
  CHECK(equal[0].end == equal[1].begin);
  CHECK(equal[1].end == 11);
  CHECK(std::max(equal[0].size(), equal[1].size()) - std::min(equal[0].size(), equal[1].size()) ==
        1);
  CHECK(g.split(11) == anycl::split_range(11, {1.0, 1.0}));
  CHECK(g.split(100, {1.0, 3.0}) == anycl::split_range(100, {1.0, 3.0}));
  CHECK(g.split(100, {1.0, 3.0})[0].size() == 25);
  // The shares parallel_for_each_device hands out are these.
  std::vector<anycl::index_range> seen(2);
  anycl::parallel_for_each_device(
      g, 100, std::vector<double>{1.0, 3.0},
      [&](std::size_t i, const anycl::command_queue&, anycl::index_range r) { seen[i] = r; });
  CHECK(seen == g.split(100, {1.0, 3.0}));
  REQUIRE_THROWS_WHAT(g.split(10, {1.0, 2.0, 3.0}), std::invalid_argument,
                      Contains("device_group::split") && Contains("3 weight(s) for a group of 2"));
}

TEST_CASE("parallel_for_each_device: weights of the wrong count or not > 0 are refused",
          "[multi]") {
  auto g = two_devices();
  bool called = false;
  auto fn = [&](const anycl::command_queue&, anycl::index_range) { called = true; };
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, 10, std::vector<double>{1.0}, fn),
                      std::invalid_argument,
                      Contains("1 weight(s) for a group of 2") && Contains("one per device"));
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, 10, std::vector<double>{}, fn),
                      std::invalid_argument, Contains("0 weight(s)"));
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, 10, std::vector<double>{1.0, 0.0}, fn),
                      std::invalid_argument, Contains("weight 1") && Contains("> 0"));
  REQUIRE_THROWS_WHAT(anycl::parallel_for_each_device(g, 10, std::vector<double>{-2.0, 1.0}, fn),
                      std::invalid_argument, Contains("weight 0"));
  REQUIRE_THROWS_WHAT(
      anycl::parallel_for_each_device(
          g, 10, std::vector<double>{1.0, std::numeric_limits<double>::quiet_NaN()}, fn),
      std::invalid_argument, Contains("weight 1"));
  CHECK_FALSE(called);  // refused before any device runs
}

// --- sub-devices ---

TEST_CASE("device_group: the sub-devices of one device work as a group", "[multi_sub]") {
  anycl::device parent = anycl::select_device();
  if (parent.compute_units() < 2) {
    WARN("the device has one compute unit: no sub-devices to group");
    return;
  }
  auto g = anycl::device_group::from_sub_devices(parent, 1);
  REQUIRE(g.size() == parent.compute_units());
  REQUIRE(g.contexts().size() == 1);
  for (const auto& d : g.devices()) CHECK(d.is_sub_device());
  check_int_work(g, (std::size_t{1} << 18) + 5);
  check_float_work(g, (std::size_t{1} << 16) + 1);
  g.finish();
}
