// SPDX-License-Identifier: Apache-2.0
// Matches an exception's what() with a string matcher, checking its type too:
//   REQUIRE_THROWS_WHAT(expr, anycl::api_error, Contains("CL_INVALID_KERNEL_NAME") &&
//   Contains("saxpy"));
#pragma once

#include <catch2/catch.hpp>

#include <exception>
#include <string>
#include <utility>

namespace anycl::test {

template <class M>
class what_matcher : public Catch::MatcherBase<std::exception> {
 public:
  explicit what_matcher(M m) : m_(std::move(m)) {}
  bool match(const std::exception& e) const override { return m_.match(e.what()); }
  std::string describe() const override { return "what() " + m_.toString(); }

 private:
  M m_;
};

template <class M>
what_matcher<M> what(M m) {
  return what_matcher<M>(std::move(m));
}

}  // namespace anycl::test

#define REQUIRE_THROWS_WHAT(expr, type, matcher) \
  REQUIRE_THROWS_MATCHES(expr, type, ::anycl::test::what(matcher))
