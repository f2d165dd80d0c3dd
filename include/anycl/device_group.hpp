// SPDX-License-Identifier: Apache-2.0
// Several devices in one process: a group of devices with one in-order queue each, the split of an
// index range among them in proportion to weights, and a helper that runs work on every device at
// once (layer 8, docs/8-scale-out.md).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/command_queue.hpp"
#include "anycl/context.hpp"
#include "anycl/device.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// A half-open range [begin, end) of element indices: one device's share of a larger range.
struct index_range {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const noexcept { return end - begin; }
  bool empty() const noexcept { return end == begin; }
  friend bool operator==(const index_range& a, const index_range& b) noexcept {
    return a.begin == b.begin && a.end == b.end;
  }
  friend bool operator!=(const index_range& a, const index_range& b) noexcept { return !(a == b); }
};

/// Splits [0, n) into weights.size() consecutive ranges whose sizes are proportional to the
/// weights: boundary k is the rounded prefix sum of the exact shares, so the sizes add up to n
/// exactly, each is within one element of its exact share, and the split depends only on n and
/// the weights (arrays split alike line up). Ranges may be empty when n is smaller than the
/// number of weights. Throws std::invalid_argument for no weights or a weight
/// that is not a finite number > 0, naming its index.
ANYCL_EXPORT std::vector<index_range> split_range(std::size_t n,
                                                  const std::vector<double>& weights);

/// Several devices used together: one context per platform among them (a single context when all
/// are on one platform, as POCL's two `pthread` devices or the sub-devices of one device are) and
/// one in-order queue per device, in the order given. Work is split among the members by
/// parallel_for_each_device; the members' queues run concurrently. Copies share the contexts and
/// queues. A group is never empty: every constructor throws std::invalid_argument rather than
/// make one without devices.
class ANYCL_EXPORT device_group {
 public:
  /// A group of `devices` (clCreateContext per platform, clCreateCommandQueueWithProperties per
  /// device). Throws std::invalid_argument for an empty list, a null device or a device listed
  /// twice (naming its index), and api_error from the driver.
  explicit device_group(const std::vector<anycl::device>& devices, queue_properties props = {});
  /// The devices the first matching alternative of `spec` selects (select_devices: `all`, a type
  /// such as `cpu`, or a shared name give several). Throws device_not_found and
  /// std::invalid_argument as select_devices does.
  static device_group from_spec(std::string_view spec, queue_properties props = {});
  /// The sub-devices of `parent` with `units` compute units each (clCreateSubDevices with
  /// CL_DEVICE_PARTITION_EQUALLY): one device's cores as several devices, e.g. to test
  /// multi-device code on one CPU or to keep work on a NUMA node. Throws std::invalid_argument
  /// for 0 units, api_error when the driver cannot partition the device.
  static device_group from_sub_devices(const anycl::device& parent, unsigned units,
                                       queue_properties props = {});

  /// The number of devices (at least 1).
  std::size_t size() const noexcept { return queues_.size(); }
  /// The devices, in the order given.
  const std::vector<anycl::device>& devices() const noexcept { return devices_; }
  /// The queues: queue i runs on device i.
  const std::vector<command_queue>& queues() const noexcept { return queues_; }
  /// Device i and its queue; std::out_of_range for i >= size().
  const anycl::device& device(std::size_t i) const;
  const command_queue& queue(std::size_t i) const;
  /// The context of device i (shared by all devices of its platform); std::out_of_range.
  anycl::context context(std::size_t i) const;
  /// The distinct contexts, one per platform, in the order of their first device.
  const std::vector<anycl::context>& contexts() const noexcept { return contexts_; }

  /// Blocks until every queue has completed its commands (clFinish on each, in order).
  void finish() const;

  /// [0, n) split among the devices as parallel_for_each_device and partitioned_array split it:
  /// size() consecutive ranges, equal (split_range with equal weights) or in proportion to
  /// `weights`, one per device. Throws std::invalid_argument for a weight count other than
  /// size(), or a weight split_range refuses.
  std::vector<index_range> split(std::size_t n) const;
  std::vector<index_range> split(std::size_t n, const std::vector<double>& weights) const;

  /// True for copies of one group (the same queues); two groups made separately from the same
  /// devices differ, as their contexts do.
  friend bool operator==(const device_group& a, const device_group& b) noexcept {
    if (a.queues_.size() != b.queues_.size()) return false;
    for (std::size_t i = 0; i < a.queues_.size(); ++i)
      if (a.queues_[i].get() != b.queues_[i].get()) return false;
    return true;
  }
  friend bool operator!=(const device_group& a, const device_group& b) noexcept {
    return !(a == b);
  }

 private:
  std::vector<anycl::device> devices_;
  std::vector<anycl::context> contexts_;
  std::vector<command_queue> queues_;
};

/// Weights for split_range in proportion to what each device of `group` actually does: every
/// device in turn runs the bandwidth-bound `y = 2 * x + y` over `n` floats (once to build and
/// warm up, then three timed runs) and its weight is elements per second of its best run. An
/// explicit call, never implicit: timings are noisy, vary with load, and cost a kernel build per
/// context. Devices that share hardware (POCL's two `pthread` devices, sub-devices) are each
/// measured alone, so their weights describe one device at a time. Throws std::invalid_argument
/// for n = 0, api_error or build_error from the driver.
ANYCL_EXPORT std::vector<double> measure_weights(const device_group& group,
                                                 std::size_t n = std::size_t{1} << 22);

namespace detail {
/// The type-erased work of parallel_for_each_device: fn(device index, its queue, its share).
using per_device_fn = std::function<void(std::size_t, const command_queue&, index_range)>;
/// Runs fn(i, queue i, shares[i]) for every device with a non-empty share, each on a thread of
/// its own (the first on the calling thread), finishes each such queue after its fn returns, and
/// once all are done rethrows the error of the lowest-numbered failing device. `shares` holds one
/// range per device (std::invalid_argument otherwise).
ANYCL_EXPORT void run_on_devices(const device_group& group, const std::vector<index_range>& shares,
                                 const per_device_fn& fn);
/// fn(i, queue, range) or fn(queue, range) as a per_device_fn (fn is referenced, not copied).
template <class Fn>
per_device_fn bind_per_device(Fn& fn) {
  if constexpr (std::is_invocable_v<Fn&, std::size_t, const command_queue&, index_range>) {
    return [&fn](std::size_t i, const command_queue& q, index_range r) { fn(i, q, r); };
  } else {
    static_assert(std::is_invocable_v<Fn&, const command_queue&, index_range>,
                  "AnyCL: parallel_for_each_device needs fn(const anycl::command_queue&, "
                  "anycl::index_range) or fn(std::size_t device, const anycl::command_queue&, "
                  "anycl::index_range)");
    return [&fn](std::size_t, const command_queue& q, index_range r) { fn(q, r); };
  }
}
}  // namespace detail

/// Runs `fn(queue, range)` for every device of `group` at once, each on a thread of its own with
/// the device's queue and its share of [0, n), split by split_range with the given weights (one
/// per device; a faster device gets a larger share). fn may also take the device's index first,
/// `fn(i, queue, range)`, to fill a per-device slot. fn may enqueue work and return, or block
/// (read results, run reductions): each device's queue is finished after its fn returns, so all
/// enqueued work is complete when this returns. Devices whose share is empty (n smaller than the
/// group) are not called, and n = 0 calls nothing, as an empty loop does. If fn or the finish
/// throws on some devices, the others still run to the end; then the exception of the
/// lowest-numbered failing device is rethrown unchanged (its type kept, so api_error or
/// std::out_of_range can be caught as usual). fn runs concurrently with itself: what it shares
/// between devices must be thread-safe. Throws std::invalid_argument, before any device runs, for
/// weights of the wrong count or not finite and > 0.
template <class Fn>
void parallel_for_each_device(const device_group& group, std::size_t n,
                              const std::vector<double>& weights, Fn&& fn) {
  detail::run_on_devices(group, group.split(n, weights), detail::bind_per_device(fn));
}

/// The same with equal shares.
template <class Fn>
void parallel_for_each_device(const device_group& group, std::size_t n, Fn&& fn) {
  detail::run_on_devices(group, group.split(n), detail::bind_per_device(fn));
}

}  // namespace anycl
