// SPDX-License-Identifier: Apache-2.0
// Turns the bytes of a clGet*Info answer into a typed value (not API).
#pragma once

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace anycl::detail {

template <class T>
struct is_std_vector : std::false_type {};
template <class U, class A>
struct is_std_vector<std::vector<U, A>> : std::true_type {};

/// Converts raw info bytes to T: std::string (trailing NUL dropped), std::vector<U>, or a trivially
/// copyable value of exactly the answer's size.
template <class T>
T from_info_bytes(const std::vector<unsigned char>& bytes, const char* what) {
  if constexpr (std::is_same_v<T, std::string>) {
    std::string s(bytes.begin(), bytes.end());
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
  } else if constexpr (is_std_vector<T>::value) {
    using U = typename T::value_type;
    static_assert(std::is_trivially_copyable_v<U>,
                  "info<std::vector<U>> needs a trivially copyable U");
    if (bytes.size() % sizeof(U) != 0)
      throw std::invalid_argument(
          std::string(what) + ": answer of " + std::to_string(bytes.size()) +
          " bytes is not a whole number of " + std::to_string(sizeof(U)) + "-byte elements");
    T out(bytes.size() / sizeof(U));
    if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "info<T> needs a trivially copyable T");
    if (bytes.size() != sizeof(T))
      throw std::invalid_argument(std::string(what) + ": answer has " +
                                  std::to_string(bytes.size()) + " bytes, the requested type " +
                                  std::to_string(sizeof(T)));
    T out;
    std::memcpy(&out, bytes.data(), sizeof(T));
    return out;
  }
}

}  // namespace anycl::detail
