// SPDX-License-Identifier: Apache-2.0
// Launch geometry (range, nd_range) and the checks validate_launch makes before the driver sees it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "anycl/nd_range.hpp"
#include "launch/limits.hpp"
#include "support/matchers.hpp"

using anycl::nd_range;
using anycl::range;
using anycl::detail::launch_limits;
using anycl::detail::validate_launch;
using anycl::test::what;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();
constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

/// A GPU-like device: 1024 x 1024 x 64 work-items per group dimension, 256 per group for the
/// kernel, 64 KiB of local memory of which the kernel declares 4 KiB itself.
launch_limits gpu_limits() {
  launch_limits l;
  l.max_item_sizes = {1024, 1024, 64};
  l.max_dims = 3;
  l.kernel_work_group_size = 256;
  l.device_local_memory = 65536;
  l.kernel_local_memory = 4096;
  return l;
}

/// Sets the work-item cap for one test and restores the default (0) afterwards.
struct cap_guard {
  explicit cap_guard(std::uint64_t cap) { anycl::set_max_work_items(cap); }
  ~cap_guard() { anycl::set_max_work_items(0); }
  cap_guard(const cap_guard&) = delete;
  cap_guard& operator=(const cap_guard&) = delete;
};

/// The message validate_launch throws as E ("" if it throws nothing).
template <class E>
std::string launch_error(const nd_range& r, const launch_limits& l = gpu_limits(),
                         std::uint64_t local_bytes = 0) {
  try {
    validate_launch(r, l, local_bytes, "blur");
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("range: constructors set sizes and dimension count", "[unit][nd_range]") {
  range none;
  CHECK(none.dims() == 0);

  range one(5);
  CHECK(one.dims() == 1);
  CHECK(one[0] == 5);
  CHECK(one[1] == 1);  // unused dimensions read 1, as OpenCL expects
  CHECK(one[2] == 1);

  range two(4, 6);
  CHECK(two.dims() == 2);
  CHECK(two[0] == 4);
  CHECK(two[1] == 6);
  CHECK(two[2] == 1);

  range three(2, 3, 7);
  CHECK(three.dims() == 3);
  CHECK(three.data()[0] == 2);
  CHECK(three.data()[1] == 3);
  CHECK(three.data()[2] == 7);

  range listed{9, 8};
  CHECK(listed.dims() == 2);
  CHECK(listed[0] == 9);
  CHECK(listed[1] == 8);
  CHECK(listed[2] == 1);

  range empty_list(std::initializer_list<std::size_t>{});
  CHECK(empty_list.dims() == 0);
}

TEST_CASE("range: more than 3 sizes throw invalid_argument", "[unit][nd_range]") {
  CHECK_THROWS_MATCHES((range{1, 2, 3, 4}), std::invalid_argument, what(Contains("4 sizes")));
  CHECK_THROWS_AS((range{1, 1, 1, 1, 1}), std::invalid_argument);
  CHECK_NOTHROW(range{1, 2, 3});
}

TEST_CASE("nd_range: keeps global, local and offset", "[unit][nd_range]") {
  nd_range r(range(64, 32), range(8, 4), range(1, 2));
  CHECK(r.dims() == 2);
  CHECK(r.global()[0] == 64);
  CHECK(r.global()[1] == 32);
  CHECK(r.local()[0] == 8);
  CHECK(r.local()[1] == 4);
  CHECK(r.offset()[0] == 1);
  CHECK(r.offset()[1] == 2);

  nd_range plain(100);
  CHECK(plain.dims() == 1);
  CHECK(plain.local().dims() == 0);
  CHECK(plain.offset().dims() == 0);
}

TEST_CASE("nd_range: a global size with 0 dimensions throws", "[unit][nd_range]") {
  CHECK_THROWS_MATCHES(nd_range(range{}), std::invalid_argument, what(Contains("0 dimensions")));
  CHECK_THROWS_AS(nd_range(range(std::initializer_list<std::size_t>{})), std::invalid_argument);
}

TEST_CASE("nd_range: local and offset must have the global size's dimension count",
          "[unit][nd_range]") {
  CHECK_THROWS_MATCHES(nd_range(range(8, 8), range(4)), std::invalid_argument,
                       what(Contains("local size has 1 dimensions") && Contains("global size 2")));
  CHECK_THROWS_AS(nd_range(range(8), range(4, 1)), std::invalid_argument);
  CHECK_THROWS_MATCHES(nd_range(range(8, 8, 8), range{}, range(1, 1)), std::invalid_argument,
                       what(Contains("offset has 2 dimensions") && Contains("global size 3")));
  CHECK_NOTHROW(nd_range(range(8, 8), range{}, range(0, 0)));
  CHECK_NOTHROW(nd_range(range(8, 8), range(2, 2), range{}));
}

TEST_CASE("nd_range: empty when some global size is 0", "[unit][nd_range]") {
  CHECK(nd_range(0).empty());
  CHECK(nd_range(range(4, 0, 3)).empty());
  CHECK(nd_range(range(4, 3, 0)).empty());
  CHECK_FALSE(nd_range(1).empty());
  CHECK_FALSE(nd_range(range(4, 1, 3)).empty());
  CHECK_FALSE(nd_range(range(4, 2), range{}, range(0, 0)).empty());  // a 0 offset is not empty
}

TEST_CASE("validate_launch: valid launches pass", "[unit][nd_range]") {
  cap_guard cap(std::uint64_t{1} << 40);
  CHECK_NOTHROW(validate_launch(nd_range(1000), gpu_limits(), 0, "k"));
  CHECK_NOTHROW(
      validate_launch(nd_range(range(1024, 1024), range(16, 16)), gpu_limits(), 1024, "k"));
  CHECK_NOTHROW(
      validate_launch(nd_range(range(256, 8, 64), range(1, 4, 64)), gpu_limits(), 0, "k"));
  CHECK_NOTHROW(
      validate_launch(nd_range(range(64), range(64), range(1000)), gpu_limits(), 61440, "k"));
  // Unknown limits (0) are not checked.
  launch_limits unknown;
  CHECK_NOTHROW(validate_launch(nd_range(range(4096), range(4096)), unknown, 1 << 30, "k"));
}

TEST_CASE("validate_launch: a local size that does not divide the global size names both",
          "[unit][nd_range]") {
  const std::string m = launch_error<std::invalid_argument>(nd_range(range(1000), range(64)));
  CHECK_THAT(m, Contains("kernel 'blur'"));
  CHECK_THAT(m, Contains("global size 1000"));
  CHECK_THAT(m, Contains("local size 64"));
  CHECK_THAT(m, Contains("dimension 0"));
  CHECK_THAT(m, Contains("1024"));  // 1000 rounded up to a multiple of 64

  const std::string m2 =
      launch_error<std::invalid_argument>(nd_range(range(64, 100), range(8, 16)));
  CHECK_THAT(m2, Contains("global size 100"));
  CHECK_THAT(m2, Contains("local size 16"));
  CHECK_THAT(m2, Contains("dimension 1"));
  CHECK_THAT(m2, Contains("112"));
}

TEST_CASE("validate_launch: a local size of 0 throws", "[unit][nd_range]") {
  CHECK_THAT(launch_error<std::invalid_argument>(nd_range(range(64, 64), range(8, 0))),
             Contains("local size 0 in dimension 1"));
  CHECK_THAT(launch_error<std::invalid_argument>(nd_range(range(64), range(0)), launch_limits{}),
             Contains("local size 0"));
}

TEST_CASE("validate_launch: a local size above CL_DEVICE_MAX_WORK_ITEM_SIZES throws",
          "[unit][nd_range]") {
  const std::string m =
      launch_error<std::invalid_argument>(nd_range(range(128, 128, 128), range(1, 1, 128)));
  CHECK_THAT(m, Contains("local size 128 in dimension 2"));
  CHECK_THAT(m, Contains("64"));
  CHECK_THAT(m, Contains("CL_DEVICE_MAX_WORK_ITEM_SIZES"));
  CHECK(
      launch_error<std::invalid_argument>(nd_range(range(128, 128, 64), range(1, 1, 64))).empty());
}

TEST_CASE("validate_launch: a work-group above the kernel's work-group size throws",
          "[unit][nd_range]") {
  const std::string m =
      launch_error<std::invalid_argument>(nd_range(range(1024, 1024), range(32, 16)));
  CHECK_THAT(m, Contains("32 x 16"));
  CHECK_THAT(m, Contains("512"));
  CHECK_THAT(m, Contains("256"));
  CHECK_THAT(m, Contains("CL_KERNEL_WORK_GROUP_SIZE"));
  // Exactly the kernel's limit is fine.
  CHECK(launch_error<std::invalid_argument>(nd_range(range(1024, 1024), range(16, 16))).empty());
}

TEST_CASE("validate_launch: more dimensions than the device supports throw", "[unit][nd_range]") {
  launch_limits l = gpu_limits();
  l.max_dims = 2;
  CHECK_THAT(launch_error<std::invalid_argument>(nd_range(range(2, 2, 2)), l),
             Contains("3 dimensions"));
  CHECK(launch_error<std::invalid_argument>(nd_range(range(2, 2)), l).empty());
}

TEST_CASE("validate_launch: offset + global size overflowing size_t is out of range",
          "[unit][nd_range]") {
  cap_guard cap(u64_max);
  const std::string m =
      launch_error<std::out_of_range>(nd_range(range(16), range{}, range(size_max - 15)));
  CHECK_THAT(m, Contains("overflows"));
  CHECK_THAT(m, Contains("dimension 0"));
  CHECK_THAT(
      launch_error<std::out_of_range>(nd_range(range(1, 1, size_max), range{}, range(0, 0, 1))),
      Contains("dimension 2"));
  // The last work-item id fits exactly: offset + global == SIZE_MAX.
  CHECK_NOTHROW(
      validate_launch(nd_range(range(16), range{}, range(size_max - 16)), gpu_limits(), 0, "blur"));
  CHECK_NOTHROW(
      validate_launch(nd_range(range(1), range{}, range(size_max - 1)), gpu_limits(), 0, "blur"));
}

TEST_CASE("validate_launch: the work-item cap refuses absurd sizes", "[unit][nd_range]") {
  cap_guard cap(std::uint64_t{1} << 40);
  REQUIRE(anycl::max_work_items() == std::uint64_t{1} << 40);
  const std::string m = launch_error<std::invalid_argument>(nd_range(size_max));
  CHECK_THAT(m, Contains("exceeds the limit of 1099511627776"));
  CHECK_THAT(m, Contains(std::to_string(size_max)));
  CHECK_THAT(m, Contains("set_max_work_items"));
  // 2^20 * 2^20 is exactly the cap; one more factor of 2 is above it.
  CHECK(launch_error<std::invalid_argument>(nd_range(range(1 << 20, 1 << 20))).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(1 << 20, 1 << 20, 2))).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(1, 1, size_max))).empty());
}

TEST_CASE("validate_launch: products that overflow 64 bits are refused", "[unit][nd_range]") {
  cap_guard cap(u64_max);  // only the overflow itself can refuse these
  const std::size_t two32 = std::size_t{1} << 32;
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(two32, two32, two32))).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(two32, two32))).empty());
  CHECK_FALSE(
      launch_error<std::invalid_argument>(nd_range(range(std::size_t{1} << 63, 2))).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(size_max, 2))).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(3, size_max / 2))).empty());
  // Just below the overflow: 2^32 * (2^32 - 1) and SIZE_MAX * 1 * 1 fit in 64 bits.
  CHECK(launch_error<std::invalid_argument>(nd_range(range(two32, two32 - 1))).empty());
  CHECK(launch_error<std::invalid_argument>(nd_range(range(size_max, 1, 1))).empty());
}

TEST_CASE("set_max_work_items: changes the cap, 0 restores the default", "[unit][nd_range]") {
  anycl::set_max_work_items(0);
  const std::uint64_t default_cap = anycl::max_work_items();
  if (std::getenv("ANYCL_MAX_WORK_ITEMS") == nullptr) CHECK(default_cap == std::uint64_t{1} << 40);
  {
    cap_guard cap(1000);
    CHECK(anycl::max_work_items() == 1000);
    CHECK(launch_error<std::invalid_argument>(nd_range(1000)).empty());
    CHECK(launch_error<std::invalid_argument>(nd_range(range(10, 10, 10))).empty());
    CHECK_THAT(launch_error<std::invalid_argument>(nd_range(1001)),
               Contains("exceeds the limit of 1000"));
    CHECK_FALSE(launch_error<std::invalid_argument>(nd_range(range(10, 10, 11))).empty());
  }
  CHECK(anycl::max_work_items() == default_cap);
}

TEST_CASE("validate_launch: __local bytes above the device's local memory throw",
          "[unit][nd_range]") {
  const nd_range r(range(256), range(64));
  // 61440 argument bytes + 4096 declared in the kernel = 65536: exactly the device's memory.
  CHECK(launch_error<std::invalid_argument>(r, gpu_limits(), 61440).empty());
  const std::string m = launch_error<std::invalid_argument>(r, gpu_limits(), 61441);
  CHECK_THAT(m, Contains("needs 65537 bytes"));
  CHECK_THAT(m, Contains("61441 in arguments"));
  CHECK_THAT(m, Contains("4096 declared in the kernel"));
  CHECK_THAT(m, Contains("65536"));
  CHECK_THAT(m, Contains("CL_DEVICE_LOCAL_MEM_SIZE"));

  // The kernel's own __local memory alone can exceed the device's.
  launch_limits l = gpu_limits();
  l.kernel_local_memory = 65537;
  CHECK_FALSE(launch_error<std::invalid_argument>(r, l, 0).empty());

  // A sum that wraps around 64 bits is refused, even when the device's size is unknown.
  l = gpu_limits();
  l.device_local_memory = 0;
  CHECK(launch_error<std::invalid_argument>(r, l, u64_max - 4096).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(r, l, u64_max - 4095).empty());
  CHECK_FALSE(launch_error<std::invalid_argument>(r, gpu_limits(), u64_max).empty());
}
