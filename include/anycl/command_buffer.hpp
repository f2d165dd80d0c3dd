// SPDX-License-Identifier: Apache-2.0
// Command buffers: record kernel launches, copies and fills once, replay them many times
// (cl_khr_command_buffer where the device has it, the same commands enqueued one by one elsewhere).
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>

#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"
#include "anycl/kernel.hpp"
#include "anycl/nd_range.hpp"

namespace anycl {

/// How a command_buffer replays its commands.
enum class command_buffer_mode {
  automatic,  ///< native where the device has cl_khr_command_buffer, emulated elsewhere
  native,     ///< cl_khr_command_buffer (std::invalid_argument where the device has none)
  emulated    ///< each command enqueued on the queue at every replay
};

namespace detail {
struct command_buffer_state;
}

/// A sequence of commands recorded for one queue and replayed by enqueue(). Commands run in the
/// order recorded, each after the one before, as on an in-order queue, whatever the queue's
/// order. Arguments are captured when a command is recorded: later changes to a kernel's
/// arguments, or to the host values given, do not reach the recording; update() changes a
/// launch's arguments for later replays. Recording ends at the first enqueue(). Code never
/// branches on the driver: the emulated mode runs the same commands through plain enqueues.
/// Copies share the recording. Thread-safe.
class ANYCL_EXPORT command_buffer {
 public:
  command_buffer() = default;
  /// An empty recording for `queue`. automatic follows ANYCL_COMMAND_BUFFER=native|emulated|auto
  /// when set (std::invalid_argument for another value). native on a device without
  /// cl_khr_command_buffer throws std::invalid_argument naming the extension and the device.
  explicit command_buffer(const command_queue& queue,
                          command_buffer_mode mode = command_buffer_mode::automatic);

  /// True when replays go through cl_khr_command_buffer.
  bool native() const noexcept;
  /// Commands recorded.
  std::size_t size() const noexcept;
  const command_queue& queue() const;

  /// Records a launch of `f` over `range` with `args` (converted as a call of `f` converts them);
  /// returns its index for update(). Checks as a launch does (arity, __local sizes, the range
  /// against the device and kernel limits), now rather than at replay.
  template <class... Ts, class... Args, class = std::enable_if_t<sizeof...(Args) == sizeof...(Ts)>>
  std::size_t launch(const kernel_function<Ts...>& f, const nd_range& range, const Args&... args) {
    return record_args(f.kernel(), range, detail::as_param<Ts>(args)...);
  }
  /// Replaces the arguments of launch `index` for the replays after this call (natively by
  /// recording the buffer again at the next enqueue). Throws std::out_of_range for an index that
  /// is not a launch, std::invalid_argument when `f` is not the kernel recorded there.
  template <class... Ts, class... Args, class = std::enable_if_t<sizeof...(Args) == sizeof...(Ts)>>
  void update(std::size_t index, const kernel_function<Ts...>& f, const Args&... args) {
    update_args(index, f.kernel(), detail::as_param<Ts>(args)...);
  }
  /// Records a copy of `src` into `dst` (equal sizes, no overlap within one buffer).
  template <class T>
  std::size_t copy(const buffer_view<const T>& src, const buffer_view<T>& dst) {
    if (src.size() != dst.size())
      throw std::invalid_argument("command_buffer::copy: source of " + std::to_string(src.size()) +
                                  " elements, destination of " + std::to_string(dst.size()));
    return copy_bytes(src.buffer(), src.byte_offset(), dst.buffer(), dst.byte_offset(),
                      dst.bytes());
  }
  template <class T>
  std::size_t copy(const buffer_view<T>& src, const buffer_view<T>& dst) {
    return copy(buffer_view<const T>(src), dst);
  }
  /// Records a fill of `dst` with `value`.
  template <class T>
  std::size_t fill(const buffer_view<T>& dst, const T& value) {
    return fill_bytes(dst.buffer(), dst.byte_offset(), dst.bytes(), &value, sizeof(T));
  }
  std::size_t copy_bytes(const buffer& src, std::size_t src_offset, const buffer& dst,
                         std::size_t dst_offset, std::size_t bytes);
  std::size_t fill_bytes(const buffer& dst, std::size_t offset, std::size_t bytes,
                         const void* pattern, std::size_t pattern_size);

  /// Replays every command after `waits`; returns the event of the replay's end. Ends recording.
  /// A replay of a native buffer the device cannot run twice at once waits for the one before.
  event enqueue(const wait_list& waits = {});

 private:
  template <class... As>
  std::size_t record_args(const kernel& k, const nd_range& r, const As&... as) {
    detail::kernel_arg a[] = {detail::arg_traits<As>::make(as)..., {}};
    return record_launch(k, r, a, sizeof...(As));
  }
  template <class... As>
  void update_args(std::size_t index, const kernel& k, const As&... as) {
    detail::kernel_arg a[] = {detail::arg_traits<As>::make(as)..., {}};
    update_launch(index, k, a, sizeof...(As));
  }
  std::size_t record_launch(const kernel& k, const nd_range& r, const detail::kernel_arg* args,
                            std::size_t count);
  void update_launch(std::size_t index, const kernel& k, const detail::kernel_arg* args,
                     std::size_t count);
  detail::command_buffer_state& state() const;

  std::shared_ptr<detail::command_buffer_state> s_;
};

}  // namespace anycl
