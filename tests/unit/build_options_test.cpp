// SPDX-License-Identifier: Apache-2.0
// Pure helpers: build_options strings, detail::check_range bounds, detail::from_info_bytes
// decoding.
#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/detail/info.hpp"
#include "anycl/program.hpp"
#include "support/matchers.hpp"

using anycl::build_options;
using anycl::detail::check_range;
using anycl::detail::from_info_bytes;
using anycl::test::what;
using Catch::Matchers::Contains;

namespace {

constexpr std::size_t size_max = std::numeric_limits<std::size_t>::max();

/// The raw bytes of `values`, as a clGet*Info call would return them.
template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

std::vector<unsigned char> bytes_of(const std::string& text) {
  return std::vector<unsigned char>(text.begin(), text.end());
}

}  // namespace

TEST_CASE("build_options: empty by default", "[unit][build_options]") {
  CHECK(build_options{}.str().empty());
}

TEST_CASE("build_options: options appear in order, separated by single spaces",
          "[unit][build_options]") {
  build_options o;
  o.define("T", "float")
      .define("DEBUG")
      .include_dir("/opt/kernels/include")
      .cl_std("CL1.2")
      .flag("-cl-fast-relaxed-math")
      .define("ANYCL_WG", "256");
  CHECK(o.str() ==
        "-DT=float -DDEBUG -I/opt/kernels/include -cl-std=CL1.2 -cl-fast-relaxed-math "
        "-DANYCL_WG=256");
}

TEST_CASE("build_options: each builder returns the same object", "[unit][build_options]") {
  build_options o;
  CHECK(&o.define("A") == &o);
  CHECK(&o.define("B", "2") == &o);
  CHECK(&o.include_dir("inc") == &o);
  CHECK(&o.cl_std("CL3.0") == &o);
  CHECK(&o.flag("-w") == &o);
  CHECK(o.str() == "-DA -DB=2 -Iinc -cl-std=CL3.0 -w");
}

TEST_CASE("build_options: single options read exactly", "[unit][build_options]") {
  CHECK(build_options{}.define("_x1").str() == "-D_x1");
  CHECK(build_options{}.define("N", "-1").str() == "-DN=-1");
  CHECK(build_options{}.define("T", "unsigned_int").str() == "-DT=unsigned_int");
  CHECK(build_options{}.define("F", "1.5f").str() == "-DF=1.5f");
  CHECK(build_options{}.include_dir("relative/dir").str() == "-Irelative/dir");
  CHECK(build_options{}.cl_std("CL2.0").str() == "-cl-std=CL2.0");
  CHECK(build_options{}.flag("-cl-mad-enable -cl-no-signed-zeros").str() ==
        "-cl-mad-enable -cl-no-signed-zeros");  // a flag passes through unchanged
}

TEST_CASE("build_options: an empty flag adds nothing", "[unit][build_options]") {
  CHECK(build_options{}.flag("").str().empty());
  CHECK(build_options{}.define("A").flag("").define("B").str() == "-DA -DB");
}

TEST_CASE("build_options: bad macro names throw invalid_argument", "[unit][build_options]") {
  for (const char* name : {"", "1X", "9", "A-B", "A B", "A=B", " A", "A\"", "\xc3\xa9t\xc3\xa9"}) {
    INFO("name '" << name << "'");
    CHECK_THROWS_AS(build_options{}.define(name), std::invalid_argument);
    CHECK_THROWS_AS(build_options{}.define(name, "1"), std::invalid_argument);
  }
  CHECK_THROWS_MATCHES(build_options{}.define("1X"), std::invalid_argument,
                       what(Contains("'1X'") && Contains("not a macro name")));
}

TEST_CASE("build_options: values with whitespace, quotes or backslashes throw",
          "[unit][build_options]") {
  for (const char* value : {"a b", "a\tb", "a\nb", " a", "a ", "\"x\"", "'x'", "a\\b"}) {
    INFO("value '" << value << "'");
    CHECK_THROWS_AS(build_options{}.define("V", value), std::invalid_argument);
    CHECK_THROWS_AS(build_options{}.include_dir(value), std::invalid_argument);
    CHECK_THROWS_AS(build_options{}.cl_std(value), std::invalid_argument);
  }
  CHECK_THROWS_MATCHES(build_options{}.define("V", "a b"), std::invalid_argument,
                       what(Contains("'a b'") && Contains("whitespace")));
}

TEST_CASE("build_options: empty values throw", "[unit][build_options]") {
  CHECK_THROWS_MATCHES(build_options{}.define("V", ""), std::invalid_argument,
                       what(Contains("empty value")));
  CHECK_THROWS_AS(build_options{}.include_dir(""), std::invalid_argument);
  CHECK_THROWS_AS(build_options{}.cl_std(""), std::invalid_argument);
}

TEST_CASE("build_options: a NUL byte in a flag throws", "[unit][build_options]") {
  CHECK_THROWS_AS(build_options{}.flag(std::string_view("-w\0-x", 5)), std::invalid_argument);
}

TEST_CASE("build_options: a rejected option leaves the options unchanged",
          "[unit][build_options]") {
  build_options o;
  o.define("A", "1");
  CHECK_THROWS(o.define("B", "two words"));
  CHECK_THROWS(o.define("3C"));
  CHECK_THROWS(o.include_dir("my dir"));
  CHECK(o.str() == "-DA=1");
  o.define("B");
  CHECK(o.str() == "-DA=1 -DB");
}

TEST_CASE("check_range: ranges inside the limit pass, including the boundaries",
          "[unit][check_range]") {
  CHECK_NOTHROW(check_range("t", 0, 0, 0));
  CHECK_NOTHROW(check_range("t", 0, 10, 10));
  CHECK_NOTHROW(check_range("t", 10, 0, 10));  // an empty range at the end
  CHECK_NOTHROW(check_range("t", 7, 3, 10));   // offset + count == limit
  CHECK_NOTHROW(check_range("t", 3, 4, 10));
  CHECK_NOTHROW(check_range("t", 0, size_max, size_max));
  CHECK_NOTHROW(check_range("t", size_max, 0, size_max));
  CHECK_NOTHROW(check_range("t", size_max - 1, 1, size_max));
}

TEST_CASE("check_range: one past the limit throws out_of_range", "[unit][check_range]") {
  CHECK_THROWS_AS(check_range("t", 0, 1, 0), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", 0, 11, 10), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", 7, 4, 10), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", 10, 1, 10), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", 11, 0, 10), std::out_of_range);  // an empty range past the end
}

TEST_CASE("check_range: offset + count overflowing size_t throws", "[unit][check_range]") {
  CHECK_THROWS_AS(check_range("t", 1, size_max, 10), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", size_max, 1, size_max), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", 2, size_max - 1, size_max),
                  std::out_of_range);  // sum wraps to 0
  CHECK_THROWS_AS(check_range("t", size_max, size_max, size_max), std::out_of_range);
  CHECK_THROWS_AS(check_range("t", size_max, size_max, 10), std::out_of_range);
}

TEST_CASE("check_range: the message names the caller, the range and the size",
          "[unit][check_range]") {
  CHECK_THROWS_MATCHES(
      check_range("buffer_view", 7, 4, 10), std::out_of_range,
      what(Contains("buffer_view") && Contains("7") && Contains("4") && Contains("size 10")));
}

TEST_CASE("from_info_bytes: strings drop trailing NULs only", "[unit][info]") {
  CHECK(from_info_bytes<std::string>(bytes_of(std::string("pthread-haswell\0", 16)), "name") ==
        "pthread-haswell");
  CHECK(from_info_bytes<std::string>(bytes_of(std::string("abc")), "name") == "abc");
  CHECK(from_info_bytes<std::string>({}, "name").empty());
  CHECK(from_info_bytes<std::string>(bytes_of(std::string("\0", 1)), "name").empty());
  CHECK(from_info_bytes<std::string>(bytes_of(std::string("ab\0\0", 4)), "name") == "ab");
  const std::string inner = from_info_bytes<std::string>(bytes_of(std::string("a\0b\0", 4)), "n");
  CHECK(inner == std::string("a\0b", 3));
}

TEST_CASE("from_info_bytes: vectors take whole elements", "[unit][info]") {
  const std::vector<std::size_t> sizes = {1024, 1024, 64};
  CHECK(from_info_bytes<std::vector<std::size_t>>(bytes_of(sizes), "sizes") == sizes);
  CHECK(from_info_bytes<std::vector<std::size_t>>({}, "sizes").empty());
  const std::vector<cl_uint> words = {0xdeadbeefu, 7u};
  CHECK(from_info_bytes<std::vector<cl_uint>>(bytes_of(words), "words") == words);
}

TEST_CASE("from_info_bytes: a size that is not a whole number of elements throws", "[unit][info]") {
  std::vector<unsigned char> bytes(sizeof(std::size_t) * 2 + 1, 0);
  CHECK_THROWS_MATCHES(
      from_info_bytes<std::vector<std::size_t>>(bytes, "CL_DEVICE_MAX_WORK_ITEM_SIZES"),
      std::invalid_argument,
      what(Contains("CL_DEVICE_MAX_WORK_ITEM_SIZES") && Contains(std::to_string(bytes.size()))));
}

TEST_CASE("from_info_bytes: scalars need exactly their size", "[unit][info]") {
  const std::vector<cl_uint> one = {42};
  CHECK(from_info_bytes<cl_uint>(bytes_of(one), "units") == 42u);
  const std::vector<cl_ulong> big = {std::uint64_t{1} << 40};
  CHECK(from_info_bytes<cl_ulong>(bytes_of(big), "mem") == (std::uint64_t{1} << 40));
  CHECK_THROWS_AS(from_info_bytes<cl_uint>(bytes_of(big), "units"), std::invalid_argument);
  CHECK_THROWS_AS(from_info_bytes<cl_ulong>(bytes_of(one), "mem"), std::invalid_argument);
  CHECK_THROWS_MATCHES(from_info_bytes<cl_uint>({}, "units"), std::invalid_argument,
                       what(Contains("units")));
}
