// SPDX-License-Identifier: Apache-2.0
// Ownership rules of detail::handle, checked through fake traits that count retains and releases.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/detail/handle.hpp"
#include "anycl/error.hpp"

namespace {

/// A stand-in for a cl_* object: its reference count and what its next retain/release returns.
struct fake_object {
  int refs = 1;  // the reference a clCreate* call would have returned
  cl_int retain_status = CL_SUCCESS;
  cl_int release_status = CL_SUCCESS;
};

/// Every traits call made, process-wide (reset by each scenario's fixture).
struct call_log {
  int retains = 0;         // successful retains
  int releases = 0;        // successful releases
  int failed_retains = 0;  // retains that returned an error
  int failed_releases = 0;
  int live = 0;  // the sum of count() deltas: references the handles own
  int total() const { return retains + releases + failed_retains + failed_releases; }
};
call_log calls;

struct fake_traits {
  static constexpr const char* name = "fake_object";
  static constexpr const char* retain_call = "fakeRetainObject";
  static constexpr const char* release_call = "fakeReleaseObject";
  static cl_int retain(fake_object* obj) {
    if (obj->retain_status != CL_SUCCESS) {
      ++calls.failed_retains;
      return obj->retain_status;
    }
    ++calls.retains;
    ++obj->refs;
    return CL_SUCCESS;
  }
  static cl_int release(fake_object* obj) {
    if (obj->release_status != CL_SUCCESS) {
      ++calls.failed_releases;
      return obj->release_status;
    }
    ++calls.releases;
    --obj->refs;
    return CL_SUCCESS;
  }
  static void count(int delta) noexcept { calls.live += delta; }
};

using fake_handle = anycl::detail::handle<fake_object*, fake_traits>;

static_assert(std::is_nothrow_move_constructible_v<fake_handle>, "moving a handle must not throw");
static_assert(std::is_nothrow_move_assignable_v<fake_handle>, "move-assigning must not throw");
static_assert(std::is_nothrow_destructible_v<fake_handle>, "destructors never throw");
static_assert(!std::is_convertible_v<fake_handle, fake_object*>, "no implicit conversion to raw");
static_assert(!std::is_convertible_v<fake_object*, fake_handle>,
              "raw handles come in only by name");

/// One recorded call to the cleanup-error handler.
struct cleanup_report {
  std::string object;
  std::string call;
  cl_int status;
};

/// Resets the call log, records cleanup errors, and restores the previous handler afterwards.
struct handle_fixture {
  std::vector<cleanup_report> reports;
  anycl::cleanup_error_handler previous;

  handle_fixture() {
    calls = call_log{};
    previous = anycl::set_cleanup_error_handler(
        [this](std::string_view object, std::string_view call, cl_int status) {
          reports.push_back({std::string(object), std::string(call), status});
        });
  }
  ~handle_fixture() { anycl::set_cleanup_error_handler(std::move(previous)); }
  handle_fixture(const handle_fixture&) = delete;
  handle_fixture& operator=(const handle_fixture&) = delete;
};

}  // namespace

TEST_CASE_METHOD(handle_fixture, "handle: adopt takes the reference without retaining",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle h = fake_handle::adopt(&obj);
    CHECK(h.get() == &obj);
    CHECK(static_cast<bool>(h));
    CHECK(calls.total() == 0);
    CHECK(obj.refs == 1);
  }
  CHECK(calls.retains == 0);
  CHECK(calls.releases == 1);
  CHECK(obj.refs == 0);
  CHECK(reports.empty());
}

TEST_CASE_METHOD(handle_fixture, "handle: the live count follows the references handles own",
                 "[unit][handle]") {
  fake_object obj;
  fake_object refused;
  refused.retain_status = CL_INVALID_MEM_OBJECT;
  {
    fake_handle a = fake_handle::adopt(&obj);
    CHECK(calls.live == 1);
    fake_handle none = fake_handle::adopt(nullptr);
    CHECK(calls.live == 1);  // a null handle owns nothing
    fake_handle b = a;
    CHECK(calls.live == 2);
    fake_handle c = std::move(b);
    CHECK(calls.live == 2);  // a move transfers, it does not add
    CHECK_THROWS_AS(fake_handle::retain(&refused), anycl::api_error);
    CHECK(calls.live == 2);  // a refused retain gives the handle nothing
    c.reset();
    CHECK(calls.live == 1);
    obj.release_status = CL_INVALID_MEM_OBJECT;
    a.reset();  // the release fails, but the handle no longer owns the reference
    CHECK(calls.live == 0);
    CHECK(reports.size() == 1);
  }
  CHECK(calls.live == 0);
}

TEST_CASE_METHOD(handle_fixture, "handle: retain borrows and retains exactly once",
                 "[unit][handle]") {
  fake_object obj;  // refs == 1: the caller's own reference
  {
    fake_handle h = fake_handle::retain(&obj);
    CHECK(h.get() == &obj);
    CHECK(calls.retains == 1);
    CHECK(calls.releases == 0);
    CHECK(obj.refs == 2);
  }
  CHECK(calls.retains == 1);
  CHECK(calls.releases == 1);
  CHECK(obj.refs == 1);  // the caller's reference is untouched
  CHECK(calls.retains == calls.releases);
}

TEST_CASE_METHOD(handle_fixture, "handle: copying retains and each copy releases once",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle a = fake_handle::adopt(&obj);
    {
      fake_handle b(
          a);  // NOLINT(performance-unnecessary-copy-initialization): the copy is the test
      CHECK(b.get() == &obj);
      CHECK(a.get() == &obj);
      CHECK(a == b);
      CHECK(calls.retains == 1);
      CHECK(obj.refs == 2);
      fake_handle c = b;
      CHECK(calls.retains == 2);
      CHECK(obj.refs == 3);
    }
    CHECK(calls.releases == 2);
    CHECK(obj.refs == 1);
    CHECK(a.get() == &obj);
  }
  CHECK(calls.releases == 3);
  CHECK(obj.refs == 0);
  CHECK(calls.retains + 1 == calls.releases);  // + 1: the adopted creation reference
}

TEST_CASE_METHOD(handle_fixture, "handle: moving steals without retaining and nulls the source",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle a = fake_handle::adopt(&obj);
    fake_handle b(std::move(a));
    CHECK(b.get() == &obj);
    CHECK(a.get() == nullptr);  // NOLINT(bugprone-use-after-move): a moved-from handle is null
    CHECK_FALSE(static_cast<bool>(a));
    CHECK(calls.total() == 0);
    fake_handle c = std::move(b);
    CHECK(c.get() == &obj);
    CHECK(b.get() == nullptr);  // NOLINT(bugprone-use-after-move)
    CHECK(calls.total() == 0);
    CHECK(obj.refs == 1);
  }
  CHECK(calls.retains == 0);
  CHECK(calls.releases == 1);  // only the last owner released
  CHECK(obj.refs == 0);
}

TEST_CASE_METHOD(handle_fixture, "handle: copy-assignment retains the new value, releases the old",
                 "[unit][handle]") {
  fake_object first, second;
  {
    fake_handle a = fake_handle::adopt(&first);
    fake_handle b = fake_handle::adopt(&second);
    a = b;
    CHECK(a.get() == &second);
    CHECK(b.get() == &second);
    CHECK(calls.retains == 1);
    CHECK(calls.releases == 1);
    CHECK(first.refs == 0);  // released right away, not at scope end
    CHECK(second.refs == 2);
  }
  CHECK(first.refs == 0);
  CHECK(second.refs == 0);
  CHECK(calls.retains == 1);
  CHECK(calls.releases == 3);
  CHECK(calls.retains + 2 == calls.releases);  // two adopted objects
}

TEST_CASE_METHOD(handle_fixture, "handle: move-assignment releases the old value without retaining",
                 "[unit][handle]") {
  fake_object first, second;
  {
    fake_handle a = fake_handle::adopt(&first);
    fake_handle b = fake_handle::adopt(&second);
    a = std::move(b);
    CHECK(a.get() == &second);
    CHECK(b.get() == nullptr);  // NOLINT(bugprone-use-after-move)
    CHECK(calls.retains == 0);
    CHECK(calls.releases == 1);
    CHECK(first.refs == 0);
    CHECK(second.refs == 1);
  }
  CHECK(second.refs == 0);
  CHECK(calls.retains == 0);
  CHECK(calls.releases == 2);
}

TEST_CASE_METHOD(handle_fixture, "handle: assigning into a null handle releases nothing",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle a = fake_handle::adopt(&obj);
    fake_handle empty;
    empty = a;
    CHECK(calls.retains == 1);
    CHECK(calls.releases == 0);
    fake_handle other;
    other = std::move(a);
    CHECK(calls.retains == 1);
    CHECK(calls.releases == 0);
    CHECK(other.get() == &obj);
    CHECK(obj.refs == 2);
  }
  CHECK(obj.refs == 0);
  CHECK(calls.retains + 1 == calls.releases);
}

TEST_CASE_METHOD(handle_fixture, "handle: self-assignment keeps the object alive",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle h = fake_handle::adopt(&obj);
    fake_handle& alias = h;  // through a reference, as self-assignment happens in real code
    h = alias;
    CHECK(h.get() == &obj);
    CHECK(obj.refs == 1);
    CHECK(calls.retains == calls.releases);  // copy-and-swap may retain once and release once

    h = std::move(alias);
    CHECK(h.get() == &obj);
    CHECK(obj.refs == 1);
    CHECK(calls.retains == calls.releases);
  }
  CHECK(obj.refs == 0);
  CHECK(calls.retains + 1 == calls.releases);
}

TEST_CASE_METHOD(handle_fixture, "handle: the destructor releases exactly once", "[unit][handle]") {
  fake_object obj;
  obj.refs = 5;  // other owners elsewhere
  { fake_handle h = fake_handle::adopt(&obj); }
  CHECK(calls.releases == 1);
  CHECK(calls.retains == 0);
  CHECK(obj.refs == 4);
}

TEST_CASE_METHOD(handle_fixture, "handle: reset releases now and leaves a null handle",
                 "[unit][handle]") {
  fake_object obj;
  fake_handle h = fake_handle::adopt(&obj);
  h.reset();
  CHECK(h.get() == nullptr);
  CHECK_FALSE(static_cast<bool>(h));
  CHECK(calls.releases == 1);
  CHECK(obj.refs == 0);
  h.reset();  // a second reset has nothing to release
  CHECK(calls.releases == 1);
  CHECK(calls.total() == 1);
}

TEST_CASE_METHOD(handle_fixture, "handle: null handles never call the traits", "[unit][handle]") {
  {
    fake_handle a;
    CHECK(a.get() == nullptr);
    CHECK_FALSE(static_cast<bool>(a));
    fake_handle b = fake_handle::adopt(nullptr);
    fake_handle c = fake_handle::retain(nullptr);
    fake_handle d(a);
    fake_handle e(std::move(b));
    d = c;
    e = std::move(d);
    a.reset();
    CHECK(a == c);
    CHECK_FALSE(a != c);
  }
  CHECK(calls.total() == 0);
  CHECK(reports.empty());
}

TEST_CASE_METHOD(handle_fixture, "handle: swap exchanges objects without traits calls",
                 "[unit][handle]") {
  fake_object first, second;
  {
    fake_handle a = fake_handle::adopt(&first);
    fake_handle b = fake_handle::adopt(&second);
    a.swap(b);
    CHECK(a.get() == &second);
    CHECK(b.get() == &first);
    CHECK(a != b);
    CHECK(calls.total() == 0);
  }
  CHECK(first.refs == 0);
  CHECK(second.refs == 0);
  CHECK(calls.releases == 2);
}

TEST_CASE_METHOD(
    handle_fixture,
    "handle: a failed release goes to the cleanup handler with object, call and status",
    "[unit][handle]") {
  fake_object obj;
  obj.release_status = CL_INVALID_MEM_OBJECT;
  SECTION("in the destructor") {
    CHECK_NOTHROW([&] { fake_handle h = fake_handle::adopt(&obj); }());
  }
  SECTION("in reset") {
    fake_handle h = fake_handle::adopt(&obj);
    CHECK_NOTHROW(h.reset());
    CHECK(h.get() == nullptr);  // the handle gives the reference up even though the release failed
  }
  SECTION("when assignment drops the old value") {
    fake_object other;
    {
      fake_handle h = fake_handle::adopt(&obj);
      CHECK_NOTHROW(h = fake_handle::adopt(&other));
      CHECK(h.get() == &other);
    }
    CHECK(other.refs == 0);
  }
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].object == "fake_object");
  CHECK(reports[0].call == "fakeReleaseObject");
  CHECK(reports[0].status == CL_INVALID_MEM_OBJECT);
  CHECK(calls.failed_releases == 1);
  CHECK(obj.refs == 1);  // the fake refused the release: nothing was released twice
}

TEST_CASE("handle: a throwing cleanup handler does not escape the destructor", "[unit][handle]") {
  calls = call_log{};
  int handler_calls = 0;
  anycl::cleanup_error_handler previous = anycl::set_cleanup_error_handler(
      [&handler_calls](std::string_view, std::string_view, cl_int) {
        ++handler_calls;
        throw std::runtime_error("handler failure");
      });
  fake_object obj;
  obj.release_status = CL_OUT_OF_RESOURCES;
  // A throwing handler must be swallowed (the default warning is printed instead), not terminate.
  CHECK_NOTHROW([&] { fake_handle h = fake_handle::adopt(&obj); }());
  anycl::set_cleanup_error_handler(std::move(previous));
  CHECK(handler_calls == 1);
  CHECK(calls.failed_releases == 1);
}

TEST_CASE("handle: set_cleanup_error_handler returns the previous handler", "[unit][handle]") {
  int first_calls = 0;
  anycl::cleanup_error_handler original = anycl::set_cleanup_error_handler(
      [&first_calls](std::string_view, std::string_view, cl_int) { ++first_calls; });
  anycl::cleanup_error_handler first =
      anycl::set_cleanup_error_handler([](std::string_view, std::string_view, cl_int) {});
  REQUIRE(static_cast<bool>(first));
  first("x", "y", CL_INVALID_VALUE);
  CHECK(first_calls == 1);
  // Reinstalling `first` makes failed releases reach it again.
  anycl::set_cleanup_error_handler(first);
  anycl::detail::report_cleanup_error("cl_mem", "clReleaseMemObject", CL_INVALID_MEM_OBJECT);
  CHECK(first_calls == 2);
  anycl::set_cleanup_error_handler(std::move(original));
}

TEST_CASE_METHOD(handle_fixture, "handle: a failed retain on copy throws api_error naming the call",
                 "[unit][handle]") {
  fake_object obj;
  {
    fake_handle a = fake_handle::adopt(&obj);
    obj.retain_status = CL_OUT_OF_RESOURCES;
    try {
      fake_handle b(a);
      FAIL("copying a handle whose retain fails did not throw");
    } catch (const anycl::api_error& e) {
      CHECK(e.call() == "fakeRetainObject");
      CHECK(e.status() == CL_OUT_OF_RESOURCES);
      CHECK(e.detail() == "fake_object");
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith(
                               "fakeRetainObject failed: CL_OUT_OF_RESOURCES (-5): fake_object"));
    }
    CHECK(a.get() == &obj);  // the source is untouched
    CHECK(calls.failed_retains == 1);
    CHECK(calls.releases == 0);  // the failed copy owns nothing, so it releases nothing

    fake_handle target;
    CHECK_THROWS_AS(target = a, anycl::api_error);
    CHECK(target.get() == nullptr);
    CHECK(calls.releases == 0);
    obj.retain_status = CL_SUCCESS;
  }
  CHECK(calls.retains == 0);
  CHECK(calls.releases == 1);
  CHECK(obj.refs == 0);
  CHECK(reports.empty());
}

TEST_CASE_METHOD(handle_fixture, "handle: a failed retain() throws and owns nothing",
                 "[unit][handle]") {
  fake_object obj;
  obj.retain_status = CL_INVALID_CONTEXT;
  CHECK_THROWS_MATCHES(fake_handle::retain(&obj), anycl::api_error,
                       Catch::Matchers::Predicate<anycl::api_error>(
                           [](const anycl::api_error& e) {
                             return e.call() == "fakeRetainObject" &&
                                    e.status() == CL_INVALID_CONTEXT;
                           },
                           "names fakeRetainObject and CL_INVALID_CONTEXT"));
  CHECK(calls.failed_retains == 1);
  CHECK(calls.releases == 0);
  CHECK(obj.refs == 1);
}

namespace {
/// A class holding a handle with the implicit copy assignment, as buffer and array_core are.
struct holder {
  fake_handle h;
  int tag = 0;
};
static_assert(!std::is_nothrow_copy_assignable_v<holder>,
              "copy-assigning a class that holds a handle may throw (the retain)");

// Copy-assigns `from` into `to` inside a try block with a cleanup of its own; true when the
// catch ran (with a by-value noexcept operator=, GCC skipped it and the objects of the caller
// leaked: the fault sweep's clRetainMemObject runs in arrays).
bool assignment_failure_reaches_catch(holder& to, const holder& from, fake_handle& cleanup) {
  fake_handle local = std::move(cleanup);
  try {
    to = from;
  } catch (const anycl::api_error&) {
    local.reset();
    return true;
  }
  return false;
}
}  // namespace

TEST_CASE_METHOD(handle_fixture,
                 "handle: a failed retain in a holder's copy assignment unwinds through the caller",
                 "[unit][handle]") {
  fake_object target{}, source{}, extra{};
  source.retain_status = CL_OUT_OF_RESOURCES;
  {
    holder to{fake_handle::adopt(&target), 1};
    const holder from{fake_handle::adopt(&source), 2};
    fake_handle cleanup = fake_handle::adopt(&extra);
    CHECK(assignment_failure_reaches_catch(to, from, cleanup));
    CHECK(to.h.get() == &target);  // unchanged: the assignment failed before touching it
    CHECK(extra.refs == 0);        // the catch released it
  }
  CHECK(calls.live == 0);
  CHECK(calls.failed_retains == 1);
}
