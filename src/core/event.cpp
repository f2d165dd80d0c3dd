// SPDX-License-Identifier: Apache-2.0
// Events: waiting, status, profiling, user events and exception-safe callbacks.
#include "anycl/event.hpp"

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>

#include "anycl/context.hpp"
#include "core/event_state.hpp"
#include "core/info.hpp"
#include "core/process.hpp"

namespace anycl {

namespace detail {
callback_sync_t& callback_sync() {
  static callback_sync_t sync;
  return sync;
}

namespace {
// How many on_complete() callbacks this thread is inside (user-event callbacks nest in
// set_complete()).
thread_local int callback_depth = 0;
}  // namespace

void check_not_in_callback(const char* what) {
  if (callback_depth > 0)
    throw std::logic_error(std::string(what) +
                           " inside an event callback: OpenCL leaves blocking calls in callbacks "
                           "undefined, and a wait for the callback's own event never returns; "
                           "wait outside the callback, or order commands with wait lists");
}
}  // namespace detail

event event::adopt(cl_event raw) noexcept {
  event e;
  e.h_ = detail::handle<cl_event>::adopt(raw);
  return e;
}

event event::retain(cl_event raw) {
  event e;
  e.h_ = detail::handle<cl_event>::retain(raw);
  return e;
}

cl_int event::raw_status() const {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("event: status of an empty event");
  cl_event ev = get();
  return detail::query<cl_int>(
      "clGetEventInfo", CL_EVENT_COMMAND_EXECUTION_STATUS, [&](size_t s, void* p, size_t* r) {
        return clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, s, p, r);
      });
}

event_status event::status() const {
  cl_int s = raw_status();
  switch (s) {
    case CL_COMPLETE:
      return event_status::complete;
    case CL_RUNNING:
      return event_status::running;
    case CL_SUBMITTED:
      return event_status::submitted;
    case CL_QUEUED:
      return event_status::queued;
    default:
      return event_status::error;
  }
}

namespace detail {
void wait_for_event(cl_event ev, const char* call, const char* detail) {
  cl_int status = clWaitForEvents(1, &ev);
  if (status == CL_SUCCESS) return;
  cl_int exec = CL_COMPLETE;
  clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(exec), &exec, nullptr);
  throw_api_error(call, exec < 0 ? exec : status, detail);
}
}  // namespace detail

void event::wait() const {
  detail::check_not_forked();
  if (!h_) return;
  detail::check_not_in_callback("event::wait");
  // On failure this throws without waiting for callbacks: some drivers (POCL 3.1) never call the
  // CL_COMPLETE callbacks of a failed user event.
  detail::wait_for_event(get(), "clWaitForEvents",
                         "the command failed with this status (or a command it waited for did); "
                         "the queue stays usable");
  auto state = std::atomic_load(&state_);
  if (!state) return;
  auto& sync = detail::callback_sync();
  std::unique_lock<std::mutex> lock(sync.m);
  sync.cv.wait(lock, [&] { return state->pending == 0; });
  if (state->error) std::rethrow_exception(state->error);
}

namespace {
std::chrono::nanoseconds profile(cl_event ev, cl_profiling_info param) {
  detail::check_not_forked();
  if (ev == nullptr) throw std::invalid_argument("event: profiling time of an empty event");
  cl_ulong t = 0;
  cl_int status = clGetEventProfilingInfo(ev, param, sizeof(t), &t, nullptr);
  ANYCL_CHECK(status, "clGetEventProfilingInfo",
              "the event's queue needs queue_properties{.profiling = true}, and the command must "
              "have completed");
  return std::chrono::nanoseconds(static_cast<std::chrono::nanoseconds::rep>(t));
}
}  // namespace

std::chrono::nanoseconds event::queued_time() const {
  return profile(get(), CL_PROFILING_COMMAND_QUEUED);
}
std::chrono::nanoseconds event::submit_time() const {
  return profile(get(), CL_PROFILING_COMMAND_SUBMIT);
}
std::chrono::nanoseconds event::start_time() const {
  return profile(get(), CL_PROFILING_COMMAND_START);
}
std::chrono::nanoseconds event::end_time() const {
  return profile(get(), CL_PROFILING_COMMAND_END);
}
std::chrono::nanoseconds event::duration() const { return end_time() - start_time(); }

// --- callbacks ---
namespace {
struct callback_data {
  std::weak_ptr<detail::event_state> state;
  std::function<void(cl_int)> fn;
};

void CL_CALLBACK callback_trampoline(cl_event, cl_int status, void* user) noexcept {
  std::unique_ptr<callback_data> data(static_cast<callback_data*>(user));
  std::exception_ptr thrown;
  ++detail::callback_depth;
  try {
    data->fn(status);
  } catch (...) {
    thrown = std::current_exception();
  }
  --detail::callback_depth;
  if (auto state = data->state.lock()) {
    auto& sync = detail::callback_sync();
    std::lock_guard<std::mutex> lock(sync.m);
    if (thrown && !state->error) state->error = thrown;
    --state->pending;
    sync.cv.notify_all();
  } else if (thrown) {
    std::fprintf(stderr,
                 "anycl: warning: an event callback threw after every copy of its event was "
                 "dropped; the exception is lost\n");
  }
}
}  // namespace

void event::on_complete(std::function<void(cl_int status)> fn) const {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("event::on_complete on an empty event");
  if (!fn) throw std::invalid_argument("event::on_complete: empty callback");
  auto& sync = detail::callback_sync();
  std::shared_ptr<detail::event_state> state;
  {
    std::lock_guard<std::mutex> lock(sync.m);
    if (!state_) std::atomic_store(&state_, std::make_shared<detail::event_state>());
    state = state_;
    ++state->pending;
  }
  auto data = std::make_unique<callback_data>(callback_data{state, std::move(fn)});
  cl_int status = clSetEventCallback(get(), CL_COMPLETE, callback_trampoline, data.get());
  if (status != CL_SUCCESS) {
    std::lock_guard<std::mutex> lock(sync.m);
    --state->pending;
  }
  ANYCL_CHECK(status, "clSetEventCallback", "registering a completion callback");
  data.release();  // the trampoline owns it now
}

// --- user events ---
user_event::user_event(const context& ctx) {
  detail::check_not_forked();
  cl_int status = CL_SUCCESS;
  cl_event raw = clCreateUserEvent(ctx.get(), &status);
  ANYCL_CHECK(status, "clCreateUserEvent", "");
  static_cast<event&>(*this) = event::adopt(raw);
}

void user_event::set_complete() const {
  detail::check_not_forked();
  ANYCL_CHECK(clSetUserEventStatus(get(), CL_COMPLETE), "clSetUserEventStatus",
              "a user event can be completed once");
}

void user_event::set_error(cl_int status) const {
  detail::check_not_forked();
  if (status >= 0)
    throw std::invalid_argument("user_event::set_error: status " + std::to_string(status) +
                                " is not negative");
  ANYCL_CHECK(clSetUserEventStatus(get(), status), "clSetUserEventStatus",
              "a user event can be completed once");
}

void wait_all(const std::vector<event>& events) {
  for (const event& e : events) e.wait();
}

}  // namespace anycl
