// SPDX-License-Identifier: Apache-2.0
// Device groups, the weighted split of an index range, and running work on every device at once.
#include "anycl/device_group.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "anycl/array.hpp"
#include "anycl/device_selector.hpp"
#include "anycl/elementwise.hpp"

namespace anycl {

// --- split_range ---

std::vector<index_range> split_range(std::size_t n, const std::vector<double>& weights) {
  if (weights.empty()) throw std::invalid_argument("split_range: no weights given");
  long double total = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double w = weights[i];
    if (!std::isfinite(w) || !(w > 0))
      throw std::invalid_argument("split_range: weight " + std::to_string(i) + " is " +
                                  std::to_string(w) + "; weights must be finite and > 0");
    total += w;
  }
  // Boundary k is the rounded prefix sum of the exact shares. Rounding and the prefix sums are
  // monotonic, so the boundaries never decrease, the last is n, and each size is within one
  // element of its exact share.
  std::vector<index_range> out(weights.size());
  long double prefix = 0;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    prefix += weights[i];
    std::size_t end = n;
    if (i + 1 < weights.size()) {
      const long double x = static_cast<long double>(n) * (prefix / total) + 0.5L;
      if (x < static_cast<long double>(n)) end = static_cast<std::size_t>(x);
      if (end > n) end = n;
      if (end < begin) end = begin;
    }
    out[i] = index_range{begin, end};
    begin = end;
  }
  return out;
}

// --- device_group ---

device_group::device_group(const std::vector<anycl::device>& devices, queue_properties props) {
  if (devices.empty())
    throw std::invalid_argument("device_group: no devices given; a group needs at least one");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i])
      throw std::invalid_argument("device_group: device " + std::to_string(i) + " is null");
    for (std::size_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        throw std::invalid_argument("device_group: device " + std::to_string(i) + " ('" +
                                    devices[i].name() + "') is device " + std::to_string(j) +
                                    " again; each device may appear once");
  }
  // One context per platform, over that platform's devices in the order given.
  std::vector<cl_platform_id> platforms;
  std::vector<std::vector<anycl::device>> members;
  std::vector<std::size_t> context_of(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const cl_platform_id p = devices[i].platform().get();
    std::size_t k = 0;
    while (k < platforms.size() && platforms[k] != p) ++k;
    if (k == platforms.size()) {
      platforms.push_back(p);
      members.emplace_back();
    }
    members[k].push_back(devices[i]);
    context_of[i] = k;
  }
  for (const auto& m : members) contexts_.emplace_back(m);
  for (std::size_t i = 0; i < devices.size(); ++i)
    queues_.emplace_back(contexts_[context_of[i]], devices[i], props);
  devices_ = devices;
}

device_group device_group::from_spec(std::string_view spec, queue_properties props) {
  return device_group(select_devices(spec), props);
}

device_group device_group::from_sub_devices(const anycl::device& parent, unsigned units,
                                            queue_properties props) {
  if (!parent) throw std::invalid_argument("device_group::from_sub_devices: the device is null");
  if (units == 0)
    throw std::invalid_argument(
        "device_group::from_sub_devices: 0 compute units per sub-device; give at least 1");
  return device_group(parent.create_sub_devices_equally(units), props);
}

namespace {
void check_index(const char* what, std::size_t i, std::size_t n) {
  if (i >= n)
    throw std::out_of_range(std::string("device_group::") + what + ": index " + std::to_string(i) +
                            " for a group of " + std::to_string(n) + " device(s)");
}
}  // namespace

const anycl::device& device_group::device(std::size_t i) const {
  check_index("device", i, devices_.size());
  return devices_[i];
}

const command_queue& device_group::queue(std::size_t i) const {
  check_index("queue", i, queues_.size());
  return queues_[i];
}

anycl::context device_group::context(std::size_t i) const {
  check_index("context", i, queues_.size());
  return queues_[i].context();
}

void device_group::finish() const {
  for (const auto& q : queues_) q.finish();
}

// --- parallel_for_each_device ---

std::vector<index_range> device_group::split(std::size_t n) const {
  return split_range(n, std::vector<double>(size(), 1.0));
}

std::vector<index_range> device_group::split(std::size_t n,
                                             const std::vector<double>& weights) const {
  if (weights.size() != size())
    throw std::invalid_argument("device_group::split: " + std::to_string(weights.size()) +
                                " weight(s) for a group of " + std::to_string(size()) +
                                " device(s); give one per device");
  return split_range(n, weights);
}

namespace detail {

void run_on_devices(const device_group& group, const std::vector<index_range>& shares,
                    const per_device_fn& fn) {
  if (shares.size() != group.size())
    throw std::invalid_argument("run_on_devices: " + std::to_string(shares.size()) +
                                " shares for a group of " + std::to_string(group.size()));
  std::vector<std::exception_ptr> errors(group.size());
  auto run = [&](std::size_t i) {
    const command_queue& q = group.queues()[i];
    try {
      fn(i, q, shares[i]);
    } catch (...) {
      errors[i] = std::current_exception();
      // Let what fn enqueued before it failed complete: its buffers may die once we return.
      try {
        q.finish();
      } catch (...) {  // NOLINT(bugprone-empty-catch): fn's error is the one worth reporting
      }
      return;
    }
    try {
      q.finish();
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };

  // The first device with work runs on the calling thread, each other one on a thread of its own.
  std::vector<std::thread> threads;
  threads.reserve(group.size());
  std::size_t here = group.size();
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (shares[i].empty()) continue;
    if (here == group.size()) {
      here = i;
      continue;
    }
    try {
      threads.emplace_back(run, i);
    } catch (...) {  // std::system_error: no thread for this device
      errors[i] = std::current_exception();
    }
  }
  if (here != group.size()) run(here);
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace detail

// --- measured weights ---

std::vector<double> measure_weights(const device_group& group, std::size_t n) {
  if (n == 0) throw std::invalid_argument("measure_weights: n is 0; give the elements to time");
  std::vector<double> weights;
  weights.reserve(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    const command_queue& q = group.queue(i);
    auto x = array<float>::empty(q, n);
    auto y = array<float>::empty(q, n);
    x.fill(1.0f);
    y.fill(0.0f);
    y = 2.0f * x + y;  // builds the kernel and touches the memory
    y.wait();
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
      const auto start = std::chrono::steady_clock::now();
      y = 2.0f * x + y;
      y.wait();
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (rep == 0 || s < best) best = s;
    }
    // A run too short for the clock still gets a finite weight (split_range needs > 0).
    weights.push_back(static_cast<double>(n) / std::max(best, 1e-9));
  }
  return weights;
}

}  // namespace anycl
