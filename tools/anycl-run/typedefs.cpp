// SPDX-License-Identifier: Apache-2.0
// Simple typedefs found in a kernel's source and resolved for anycl-run's argument check.
#include "typedefs.hpp"

#include <cctype>

#include "arg_check.hpp"

namespace anycl::tools {

namespace {

// `source` with comments replaced by spaces (string literals are rare in kernels; a "//" inside
// one only hides the rest of that line from the search).
std::string without_comments(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source.compare(i, 2, "//") == 0) {
      while (i < source.size() && source[i] != '\n') ++i;
      out += '\n';
    } else if (source.compare(i, 2, "/*") == 0) {
      const std::size_t end = source.find("*/", i + 2);
      i = end == std::string_view::npos ? source.size() : end + 1;
      out += ' ';
    } else {
      out += source[i];
    }
  }
  return out;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Adds `typedef <body>;` to `out` when the body is words and stars ending in the alias's name.
void add_typedef(const std::string& body, type_aliases& out) {
  if (body.find_first_of("{}()[]") != std::string::npos) return;
  std::size_t end = body.size();
  while (end > 0 && !word_char(body[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && word_char(body[begin - 1])) --begin;
  if (begin == end || std::isdigit(static_cast<unsigned char>(body[begin])) != 0) return;
  const std::string type = body.substr(0, begin);
  if (type.find_first_not_of(" \t\n\r*") == std::string::npos) return;
  out[body.substr(begin, end - begin)] = type;
}

}  // namespace

type_aliases find_typedefs(std::string_view source) {
  const std::string text = without_comments(source);
  type_aliases out;
  for (std::size_t at = text.find("typedef"); at != std::string::npos;
       at = text.find("typedef", at + 7)) {
    if ((at > 0 && word_char(text[at - 1])) || (at + 7 < text.size() && word_char(text[at + 7])))
      continue;
    const std::size_t semi = text.find(';', at);
    if (semi == std::string::npos) break;
    add_typedef(text.substr(at + 7, semi - at - 7), out);
  }
  return out;
}

std::string resolve_alias(const type_aliases& aliases, const std::string& normalized) {
  std::string t = normalized;
  for (int round = 0; round < 16; ++round) {
    const std::size_t star = t.find('*');
    const std::string base = t.substr(0, star);
    const std::string stars = star == std::string::npos ? "" : t.substr(star);
    auto it = aliases.find(base);
    if (it == aliases.end()) return t;
    t = normalize_type_name(it->second) + stars;
  }
  return t;
}

}  // namespace anycl::tools
