// SPDX-License-Identifier: Apache-2.0
// User-kernel parameter lists: tokens, one parameter's words, the list, and scalar arguments.
#include "arrays/param_list.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace anycl::detail {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

namespace {

bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool one_of(const std::string& w, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* x) { return w == x; });
}

bool is_address_space(const std::string& w) {
  return one_of(w, {"local", "__local", "constant", "__constant", "private", "__private"});
}

// Words that are not names: types, qualifiers, address spaces.
bool is_keyword(const std::string& w) {
  return find_real_type(w) != nullptr || is_address_space(w) ||
         one_of(w, {"global", "__global", "const", "__const", "restrict", "__restrict", "volatile",
                    "signed", "unsigned"});
}

std::string type_list() {
  std::string s;
  for (std::size_t i = 0; i < real_scalar_types; ++i)
    s += std::string(i ? ", " : "") + scalar_types[i].cl_name;
  return s + " (or 'unsigned char' ...)";
}

scalar_type unsigned_of(scalar_type t) {
  switch (t) {
    case scalar_type::i8:
      return scalar_type::u8;
    case scalar_type::i16:
      return scalar_type::u16;
    case scalar_type::i64:
      return scalar_type::u64;
    default:
      return scalar_type::u32;
  }
}

// What the words of a parameter (all but its name) said.
struct words_seen {
  bool global = false, have_type = false, is_unsigned = false, is_signed_kw = false;
  bool const_pointer = false;
  int stars = 0;
};

// Parses one parameter; every refusal names it.
class param_parser {
 public:
  param_parser(const param_list_rules& rules, std::size_t index, std::string text)
      : rules_(rules), index_(index) {
    p_.text = std::move(text);
  }

  parsed_parameter parse() {
    std::vector<std::string> tok = tokens();
    check_name(tok);
    tok.pop_back();
    words_seen seen;
    for (const std::string& w : tok) read_word(w, seen);
    finish(seen);
    std::string decl;
    for (const std::string& w : tok) {
      if (!decl.empty() && w != "*") decl += ' ';
      decl += w;
    }
    p_.declaration = decl + " " + p_.name;
    return p_;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(rules_.who + ": parameter " + std::to_string(index_ + 1) + " '" +
                                p_.text + "': " + why);
  }

 private:
  // Identifiers (and numbers) and '*'; white space between them.
  std::vector<std::string> tokens() const {
    const std::string& t = p_.text;
    std::vector<std::string> tok;
    for (std::size_t i = 0; i < t.size();) {
      if (std::isspace(static_cast<unsigned char>(t[i]))) {
        ++i;
      } else if (t[i] == '*') {
        tok.emplace_back("*");
        ++i;
      } else if (is_word_char(t[i])) {
        std::size_t j = i;
        while (j < t.size() && is_word_char(t[j])) ++j;
        tok.push_back(t.substr(i, j - i));
        i = j;
      } else {
        fail(std::string("unexpected character '") + t[i] + "'");
      }
    }
    return tok;
  }

  void check_name(const std::vector<std::string>& tok) {
    p_.name = tok.back();
    if (p_.name == "*" || is_keyword(p_.name))
      fail("no parameter name (expected a type and a name)");
    if (tok.size() < 2) fail("no type (expected a type and a name)");
    if (!is_identifier(p_.name)) fail("'" + p_.name + "' is not a name (not an identifier)");
    const std::string& n = p_.name;
    const bool off = n.size() >= 5 && n.compare(n.size() - 5, 5, "__off") == 0;
    const auto& r = rules_.reserved;
    if (std::find(r.begin(), r.end(), n) != r.end() || n.rfind("anycl_", 0) == 0 || off) {
      std::string names;
      for (const std::string& x : r) names += x + ", ";
      fail("the name '" + n + "' is reserved (" + names + "anycl_..., ...__off are AnyCL's)");
    }
  }

  void read_word(const std::string& w, words_seen& seen) {
    if (w == "*") {
      ++seen.stars;
    } else if (w == "global" || w == "__global") {
      seen.global = true;
    } else if (w == "const" || w == "__const") {
      (seen.stars > 0 ? seen.const_pointer : p_.is_const) = true;
    } else if (one_of(w, {"restrict", "__restrict", "volatile"})) {
    } else if (is_address_space(w)) {
      fail("'" + w + "' memory is not supported: only global pointers and scalars are supported");
    } else if (w == "unsigned" || w == "signed") {
      (w == "unsigned" ? seen.is_unsigned : seen.is_signed_kw) = true;
    } else if (const scalar_type_info* t = find_real_type(w)) {
      if (seen.have_type) fail("more than one type: two types in one parameter");
      if (seen.stars > 0) fail("the type comes before '*'");
      seen.have_type = true;
      p_.type = t->type;
    } else {
      fail("unsupported type or keyword '" + w + "'; the types are " + type_list() +
           " and global pointers to them");
    }
  }

  void finish(const words_seen& s) {
    if (!s.have_type) {
      if (!s.is_unsigned && !s.is_signed_kw) fail("no type");
      p_.type = scalar_type::i32;  // 'unsigned' alone is unsigned int
    }
    if (s.is_unsigned && s.is_signed_kw) fail("both signed and unsigned");
    if (s.is_unsigned || s.is_signed_kw) {
      if (is_floating(p_.type) || (s.have_type && !is_signed(p_.type)))
        fail("'signed'/'unsigned' with a type that cannot take it");
      if (s.is_unsigned) p_.type = unsigned_of(p_.type);
    }
    if (s.stars > 1) fail("pointers to pointers are not supported");
    p_.pointer = s.stars == 1;
    if (p_.pointer && !s.global)
      fail(
          "a pointer needs 'global' (a pointer parameter must be 'global', as in 'global float* "
          "x')");
    if (!p_.pointer && s.global) fail("'global' on a scalar: 'global' applies to pointers only");
    if (s.const_pointer)
      fail(
          "a const pointer cannot be offset to the array's first element; drop the const after "
          "'*'");
  }

  const param_list_rules& rules_;
  std::size_t index_;
  parsed_parameter p_;
};

}  // namespace

std::vector<parsed_parameter> parse_param_list(const std::string& list,
                                               const param_list_rules& rules) {
  std::vector<parsed_parameter> out;
  if (trim(list).empty()) return out;
  for (std::size_t start = 0;;) {
    const std::size_t comma = list.find(',', start);
    const std::size_t end = comma == std::string::npos ? list.size() : comma;
    param_parser parser(rules, out.size(), trim(list.substr(start, end - start)));
    if (trim(list.substr(start, end - start)).empty())
      parser.fail("an empty parameter (a stray comma?)");
    parsed_parameter p = parser.parse();
    for (const parsed_parameter& q : out)
      if (q.name == p.name) parser.fail("the name '" + p.name + "' is taken: it is declared twice");
    out.push_back(std::move(p));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {

std::string number_text(const call_arg& a) {
  if (a.k == call_arg::kind::signed_integer) return std::to_string(a.i);
  if (a.k == call_arg::kind::unsigned_integer) return std::to_string(a.u);
  std::ostringstream s;
  s << std::setprecision(17) << static_cast<double>(a.d);
  return s.str();
}

// Whether `a` fits T (integer T: exactly, a floating value as a whole number; float: in range).
template <class T>
bool fits(const call_arg& a) {
  using limits = std::numeric_limits<T>;
  if (a.k == call_arg::kind::floating) {
    if (!std::isfinite(a.d)) return !std::is_integral_v<T>;
    if constexpr (std::is_integral_v<T>) {
      // 2^digits is exact in long double; whole values below it (and above -2^digits) fit.
      const long double top = std::ldexp(1.0L, limits::digits);
      return a.d == std::trunc(a.d) && a.d < top && (std::is_signed_v<T> ? a.d >= -top : a.d >= 0);
    } else {
      return std::fabs(a.d) <= static_cast<long double>(limits::max());
    }
  }
  if constexpr (std::is_integral_v<T>) {
    if (a.k == call_arg::kind::signed_integer && a.i < 0)
      return std::is_signed_v<T> && a.i >= static_cast<long long>(limits::min());
    const unsigned long long v =
        a.k == call_arg::kind::signed_integer ? static_cast<unsigned long long>(a.i) : a.u;
    return v <= static_cast<unsigned long long>(limits::max());
  }
  return true;
}

}  // namespace

std::string convert_argument(const call_arg& a, scalar_type t, unsigned char* out) {
  return with_real_type(t, [&](auto tag) -> std::string {
    using T = decltype(tag);
    if (a.k == call_arg::kind::floating && std::is_integral_v<T> && a.d != std::trunc(a.d))
      return "a floating-point value for an integer parameter must be a whole number, not " +
             number_text(a);
    if (!fits<T>(a)) return "the value " + number_text(a) + " does not fit in " + cl_type_name(t);
    const T v = a.k == call_arg::kind::floating         ? static_cast<T>(a.d)
                : a.k == call_arg::kind::signed_integer ? static_cast<T>(a.i)
                                                        : static_cast<T>(a.u);
    std::memcpy(out, &v, sizeof v);
    return {};
  });
}

}  // namespace anycl::detail
