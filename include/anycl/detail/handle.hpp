// SPDX-License-Identifier: Apache-2.0
// One owning handle for every reference-counted cl_* type (not API: public types hold one).
#pragma once

#include <utility>

#include "anycl/cl.hpp"
#include "anycl/error.hpp"
#include "anycl/export.hpp"

namespace anycl::detail {

/// Per raw type: `retain` and `release` returning a cl_int, `name` for messages, and `count`
/// moving the live-reference counter (anycl/debug.hpp) by +1 or -1.
template <class Raw>
struct handle_traits;

#define ANYCL_DECLARE_HANDLE_TRAITS(raw_type)      \
  template <>                                      \
  struct ANYCL_EXPORT handle_traits<raw_type> {    \
    static constexpr const char* name = #raw_type; \
    static const char* const retain_call;          \
    static const char* const release_call;         \
    static cl_int retain(raw_type raw) noexcept;   \
    static cl_int release(raw_type raw) noexcept;  \
    static void count(int delta) noexcept;         \
  }

ANYCL_DECLARE_HANDLE_TRAITS(cl_device_id);
ANYCL_DECLARE_HANDLE_TRAITS(cl_context);
ANYCL_DECLARE_HANDLE_TRAITS(cl_command_queue);
ANYCL_DECLARE_HANDLE_TRAITS(cl_mem);
ANYCL_DECLARE_HANDLE_TRAITS(cl_program);
ANYCL_DECLARE_HANDLE_TRAITS(cl_kernel);
ANYCL_DECLARE_HANDLE_TRAITS(cl_event);
ANYCL_DECLARE_HANDLE_TRAITS(cl_sampler);
#undef ANYCL_DECLARE_HANDLE_TRAITS

/// Owns one reference to a `Raw` object: copying retains, moving steals, destruction releases.
/// Raw handles come in only through adopt() (takes the reference) or retain() (borrows and
/// retains).
template <class Raw, class Traits = handle_traits<Raw>>
class handle {
 public:
  handle() noexcept = default;

  /// Takes ownership of the reference that a clCreate* call returned.
  static handle adopt(Raw raw) noexcept {
    if (raw != nullptr) Traits::count(1);
    return handle(raw);
  }

  /// Borrows `raw` and retains it; throws api_error if the retain fails.
  static handle retain(Raw raw) {
    if (raw != nullptr) retain_or_throw(raw);
    return handle(raw);
  }

  handle(const handle& other) : raw_(other.raw_) {
    if (raw_ != nullptr) retain_or_throw(raw_);
  }
  handle(handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
  // Two assignments, not one by value: the copy's retain may throw, and a by-value noexcept
  // operator= let GCC treat the copy assignment of a class holding a handle as non-throwing, so
  // a failed retain skipped its callers' cleanups (fault sweep: clRetainMemObject in arrays).
  handle& operator=(const handle& other) {
    handle copy(other);
    swap(copy);
    return *this;
  }
  handle& operator=(handle&& other) noexcept {
    handle taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~handle() { reset(); }

  /// Releases the reference now (the handle becomes null); failures go to the cleanup handler.
  void reset() noexcept {
    if (raw_ == nullptr) return;
    Raw raw = std::exchange(raw_, nullptr);
    Traits::count(-1);
    cl_int status = Traits::release(raw);
    if (status != CL_SUCCESS) report_cleanup_error(Traits::name, Traits::release_call, status);
  }

  void swap(handle& other) noexcept { std::swap(raw_, other.raw_); }
  Raw get() const noexcept { return raw_; }
  explicit operator bool() const noexcept { return raw_ != nullptr; }
  friend bool operator==(const handle& a, const handle& b) noexcept { return a.raw_ == b.raw_; }
  friend bool operator!=(const handle& a, const handle& b) noexcept { return a.raw_ != b.raw_; }

 private:
  explicit handle(Raw raw) noexcept : raw_(raw) {}
  static void retain_or_throw(Raw raw) {
    cl_int status = Traits::retain(raw);
    if (status != CL_SUCCESS) throw_api_error(Traits::retain_call, status, Traits::name);
    Traits::count(1);
  }
  Raw raw_ = nullptr;
};

}  // namespace anycl::detail
