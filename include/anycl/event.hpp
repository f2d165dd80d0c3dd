// SPDX-License-Identifier: Apache-2.0
// Events: completion, status, profiling times, user events, callbacks, and wait lists.
#pragma once

#include <chrono>
#include <functional>
#include <initializer_list>
#include <memory>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/export.hpp"

namespace anycl {

class context;
namespace detail {
struct event_state;
}

/// The state of a command, from clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS).
enum class event_status { queued, submitted, running, complete, error };

/// Owns a cl_event (copies retain it). Copies made after on_complete() also share the exception a
/// callback may throw.
class ANYCL_EXPORT event {
 public:
  event() noexcept = default;
  static event adopt(cl_event raw) noexcept;
  static event retain(cl_event raw);

  cl_event get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }

  /// Blocks until the command completes (clWaitForEvents) and until the callbacks registered
  /// through on_complete() have run. Throws api_error if the command failed (with its status), and
  /// rethrows the first exception thrown by one of those callbacks. Called from inside a callback
  /// it throws std::logic_error, as do the queue's blocking calls (finish, read, write, map):
  /// OpenCL leaves blocking calls in callbacks undefined.
  void wait() const;

  /// The execution status; event_status::error when the status is negative (see raw_status()).
  event_status status() const;
  /// The raw CL_EVENT_COMMAND_EXECUTION_STATUS: CL_COMPLETE, ..., or a negative error code.
  cl_int raw_status() const;

  /// Profiling times on the device clock (the queue needs profiling enabled, else api_error with
  /// CL_PROFILING_INFO_NOT_AVAILABLE). Wait first: times are only valid once the command completed.
  std::chrono::nanoseconds queued_time() const;
  std::chrono::nanoseconds submit_time() const;
  std::chrono::nanoseconds start_time() const;
  std::chrono::nanoseconds end_time() const;
  /// end_time() - start_time(): how long the command ran on the device.
  std::chrono::nanoseconds duration() const;

  /// Calls `fn(status)` once the command completes or fails (clSetEventCallback). The callback runs
  /// on a driver thread (or synchronously on the thread completing a user event) through a noexcept
  /// trampoline: an exception it throws is captured and rethrown from wait().
  void on_complete(std::function<void(cl_int status)> fn) const;

 protected:
  detail::handle<cl_event> h_;
  // Created by the first on_complete(); launches without callbacks allocate nothing.
  mutable std::shared_ptr<detail::event_state> state_;
};

/// An event completed by the host (clCreateUserEvent): a gate for commands that wait on it.
class ANYCL_EXPORT user_event : public event {
 public:
  explicit user_event(const context& ctx);
  /// Marks the event complete (clSetUserEventStatus with CL_COMPLETE).
  void set_complete() const;
  /// Marks the event failed; `status` must be negative. Commands waiting on it fail too.
  void set_error(cl_int status) const;
};

/// Events a command waits for. Non-owning: the events must outlive the call it is passed to, which
/// holds for temporaries in the same expression. Null events are skipped.
class wait_list {
 public:
  wait_list() = default;
  wait_list(const event& e) { add(e); }  // NOLINT: one event converts implicitly
  wait_list(std::initializer_list<event> events) {
    for (const event& e : events) add(e);
  }
  wait_list(const std::vector<event>& events) {  // NOLINT
    for (const event& e : events) add(e);
  }
  cl_uint size() const noexcept { return static_cast<cl_uint>(raw_.size()); }
  const cl_event* data() const noexcept { return raw_.empty() ? nullptr : raw_.data(); }

 private:
  void add(const event& e) {
    if (e.get() != nullptr) raw_.push_back(e.get());
  }
  std::vector<cl_event> raw_;
};

/// Waits for every event (see event::wait); throws for the first that failed.
ANYCL_EXPORT void wait_all(const std::vector<event>& events);

}  // namespace anycl
