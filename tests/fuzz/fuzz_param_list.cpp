// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the user-kernel parameter lists (detail::parse_param_list) and the conversion of
// scalar call arguments (detail::convert_argument). A list must parse or throw
// std::invalid_argument naming the caller and the parameter; a parsed list's declarations must
// parse back to the same parameters. A conversion must succeed exactly when a second, wider
// reference says the value fits the parameter's type, and then store that value.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/scalar_type.hpp"
#include "arrays/param_list.hpp"

namespace {

using anycl::scalar_type;
using anycl::detail::call_arg;
using anycl::detail::param_list_rules;
using anycl::detail::parsed_parameter;

[[noreturn]] void fail(const char* what, const std::string& input) {
  std::fprintf(stderr, "fuzz_param_list: %s for '%s'\n", what, input.c_str());
  std::abort();
}

// The two callers' rules, as elementwise_kernel and reduction_kernel give them.
const param_list_rules& rules(bool reduction) {
  static const param_list_rules ew{"elementwise_kernel 'fuzz'", {"i", "i_end", "k"}};
  static const param_list_rules rd{"anycl::reduction_kernel", {"i", "a", "b"}};
  return reduction ? rd : ew;
}

bool reserved(const std::string& n, const param_list_rules& r) {
  for (const std::string& x : r.reserved)
    if (n == x) return true;
  return n.rfind("anycl_", 0) == 0 || (n.size() >= 5 && n.compare(n.size() - 5, 5, "__off") == 0);
}

void check_list(const std::string& list, const param_list_rules& r) {
  std::vector<parsed_parameter> ps;
  try {
    ps = anycl::detail::parse_param_list(list, r);
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).rfind(r.who + ": parameter ", 0) != 0)
      fail("a refusal that names neither the caller nor the parameter", list);
    return;
  }
  std::string again;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const parsed_parameter& p = ps[i];
    if (!anycl::detail::is_identifier(p.name) || reserved(p.name, r))
      fail("an accepted name that is not a free identifier", list);
    for (std::size_t j = 0; j < i; ++j)
      if (ps[j].name == p.name) fail("a name accepted twice", list);
    const std::string tail = " " + p.name;
    if (p.declaration.size() < tail.size() ||
        p.declaration.compare(p.declaration.size() - tail.size(), tail.size(), tail) != 0)
      fail("a declaration that does not end in its name", list);
    again += (i ? ", " : "") + p.declaration;
  }
  std::vector<parsed_parameter> qs;
  try {
    qs = anycl::detail::parse_param_list(again, r);
  } catch (const std::invalid_argument&) {
    fail("the normalized declarations do not parse", list);
  }
  if (qs.size() != ps.size()) fail("the normalized declarations changed the count", list);
  for (std::size_t i = 0; i < ps.size(); ++i)
    if (qs[i].name != ps[i].name || qs[i].type != ps[i].type || qs[i].pointer != ps[i].pointer ||
        qs[i].is_const != ps[i].is_const || qs[i].declaration != ps[i].declaration)
      fail("the normalized declarations changed a parameter", list);
}

// The reference: does `a` fit `T`? Integers through __int128, floating values through long
// double against the type's own limits (exact in x86's 64-bit long double mantissa).
template <class T>
bool reference_fits(const call_arg& a) {
  if constexpr (std::is_integral_v<T>) {
    using lim = std::numeric_limits<T>;
    if (a.k == call_arg::kind::floating)
      return std::isfinite(a.d) && a.d == std::trunc(a.d) &&
             a.d >= static_cast<long double>(lim::min()) &&
             a.d <= static_cast<long double>(lim::max());
    const __int128 v = a.k == call_arg::kind::signed_integer ? __int128{a.i} : __int128{a.u};
    return v >= __int128{lim::min()} && v <= __int128{lim::max()};
  } else {
    return a.k != call_arg::kind::floating || !std::isfinite(a.d) ||
           std::fabs(a.d) <= static_cast<long double>(std::numeric_limits<T>::max());
  }
}

// Whether the stored bytes hold `a`'s value (integers exactly; floating types rounded).
template <class T>
bool stored_value(const call_arg& a, const unsigned char* out) {
  T v;
  std::memcpy(&v, out, sizeof v);
  const long double want = a.k == call_arg::kind::floating         ? a.d
                           : a.k == call_arg::kind::signed_integer ? static_cast<long double>(a.i)
                                                                   : static_cast<long double>(a.u);
  if constexpr (std::is_integral_v<T>) return static_cast<long double>(v) == want;
  const T rounded = static_cast<T>(want);
  return std::isnan(want) ? std::isnan(v) : v == rounded;
}

void check_conversion(const std::uint8_t* data, std::size_t size) {
  if (size < 10) return;
  call_arg a;
  const unsigned kind = data[0] % 3;
  const auto t = static_cast<scalar_type>(data[1] % anycl::real_scalar_types);
  std::uint64_t bits;
  std::memcpy(&bits, data + 2, sizeof bits);
  if (kind == 0) {
    a.k = call_arg::kind::signed_integer;
    a.i = static_cast<long long>(bits);
  } else if (kind == 1) {
    a.k = call_arg::kind::unsigned_integer;
    a.u = bits;
  } else {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    a.k = call_arg::kind::floating;
    a.d = d;
  }
  unsigned char out[8] = {};
  const std::string why = anycl::detail::convert_argument(a, t, out);
  const std::string what = std::string(anycl::cl_type_name(t)) + " from " + std::to_string(bits);
  anycl::detail::with_real_type(t, [&](auto tag) {
    using T = decltype(tag);
    if (why.empty() != reference_fits<T>(a)) fail("accepted and refused disagree", what);
    if (why.empty() && !stored_value<T>(a, out)) fail("the stored value differs", what);
    if (!why.empty() && why.find(anycl::cl_type_name(t)) == std::string::npos &&
        why.find("whole number") == std::string::npos)
      fail("a refusal that names neither the type nor the rule", what);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the part: even, a parameter list; odd, a scalar conversion.
  if (data[0] % 2 == 1) {
    check_conversion(data + 1, size - 1);
    return 0;
  }
  const std::string list(reinterpret_cast<const char*>(data + 1), size - 1);
  check_list(list, rules(false));
  check_list(list, rules(true));
  return 0;
}
