// SPDX-License-Identifier: Apache-2.0
// Typed clGet*Info queries for the sources.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "anycl/detail/info.hpp"
#include "core/check.hpp"

namespace anycl::detail {

/// Calls fn(size, ptr, size_ret) twice (size, then data) and returns the bytes.
template <class Fn>
std::vector<unsigned char> query_bytes(const char* call, unsigned param, Fn&& fn) {
  std::size_t size = 0;
  ANYCL_CHECK(fn(0, nullptr, &size), call, "size of parameter 0x", std::hex, param);
  std::vector<unsigned char> out(size);
  if (size != 0) ANYCL_CHECK(fn(size, out.data(), nullptr), call, "parameter 0x", std::hex, param);
  return out;
}

/// A typed answer: scalars in one call, strings and vectors in two.
template <class T, class Fn>
T query(const char* call, unsigned param, Fn&& fn) {
  if constexpr (std::is_same_v<T, std::string> || is_std_vector<T>::value) {
    return from_info_bytes<T>(query_bytes(call, param, fn), call);
  } else {
    T value{};
    ANYCL_CHECK(fn(sizeof(T), &value, nullptr), call, "parameter 0x", std::hex, param);
    return value;
  }
}

/// True if the space-separated list `list` contains `name` as a whole word.
inline bool has_word(const std::string& list, std::string_view name) {
  if (name.empty()) return false;
  std::size_t pos = 0;
  while ((pos = list.find(name, pos)) != std::string::npos) {
    bool start = pos == 0 || list[pos - 1] == ' ';
    std::size_t end = pos + name.size();
    bool stop = end == list.size() || list[end] == ' ';
    if (start && stop) return true;
    pos = end;
  }
  return false;
}

}  // namespace anycl::detail
