// SPDX-License-Identifier: Apache-2.0
// Command-line kernel argument specs: parsing, initial buffer contents and value printing.
#include "arg_spec.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <stdexcept>
#include <system_error>
#include <type_traits>
#include <utility>

namespace anycl::tools {

namespace {

// --- types ---

// Calls f with a value of the host type that has `s`'s size and representation.
template <class F>
decltype(auto) with_scalar(scalar_type s, F&& f) {
  return anycl::detail::with_real_type(s, std::forward<F>(f));
}

template <class T>
void store(const T& v, unsigned char* out) {
  std::memcpy(out, &v, sizeof(T));
}

std::string type_list() {
  return anycl::real_type_names() +
         ", and vectors of them such as float4 (2, 3, 4, 8 or 16 components)";
}

// --- numbers ---

// A floating-point component from `t`, its sign already taken, into `out`. `quoted` is the text
// as written, `type` names T, both for messages.
template <class T>
void parse_float_component(std::string_view t, bool negative, const std::string& quoted,
                           const std::string& type, unsigned char* out) {
  // Straight into T: going through double would round twice for float.
  T v = 0;
  const char* end = t.data() + t.size();
  auto [ptr, ec] = std::from_chars(t.data(), end, v);
  // The sign was taken above, so a second one ("--1") is refused here.
  if (t.empty() || t[0] == '-' || ec == std::errc::invalid_argument || ptr != end)
    throw std::invalid_argument(quoted + " is not a number (" + type + ")");
  if (ec == std::errc::result_out_of_range)
    throw std::invalid_argument(quoted + " is out of range for " + type);
  store(negative ? -v : v, out);
}

// Stores the integer of `magnitude` and sign `negative` as a T into `out`; throws
// std::invalid_argument(`out_of_range`) when T cannot hold it.
template <class T>
void store_integer(unsigned long long magnitude, bool negative, const std::string& out_of_range,
                   unsigned char* out) {
  using limits = std::numeric_limits<T>;
  if constexpr (std::is_signed_v<T>) {
    const auto max = static_cast<unsigned long long>(limits::max());
    if (magnitude > max + (negative ? 1 : 0)) throw std::invalid_argument(out_of_range);
    // -(magnitude) computed without overflow, also for the most negative value.
    const long long v = negative ? (magnitude == 0 ? 0 : -static_cast<long long>(magnitude - 1) - 1)
                                 : static_cast<long long>(magnitude);
    store(static_cast<T>(v), out);
  } else {
    if ((negative && magnitude != 0) || magnitude > limits::max())
      throw std::invalid_argument(out_of_range);
    store(static_cast<T>(magnitude), out);
  }
}

// An integer component from `t`, its sign already taken, into `out`: decimal or 0x-hexadecimal,
// within T's range. `quoted` and `type` as for parse_float_component.
template <class T>
void parse_integer_component(std::string_view t, bool negative, const std::string& quoted,
                             const std::string& type, unsigned char* out) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  unsigned long long magnitude = 0;
  const char* end = t.data() + t.size();
  auto [ptr, ec] = std::from_chars(t.data(), end, magnitude, base);
  if (t.empty() || ec == std::errc::invalid_argument || ptr != end)
    throw std::invalid_argument(quoted + " is not a whole number (" + type +
                                "; decimal or 0x-hexadecimal)");
  using limits = std::numeric_limits<T>;
  const std::string range = " is out of range for " + type + " (" + std::to_string(+limits::min()) +
                            " to " + std::to_string(+limits::max()) + ")";
  if (ec == std::errc::result_out_of_range) throw std::invalid_argument(quoted + range);
  store_integer<T>(magnitude, negative, quoted + range, out);
}

// Parses one component of type T from `text` into `out`. `type` names T in messages; the caller
// prefixes the spec.
template <class T>
void parse_component(std::string_view text, const std::string& type, unsigned char* out) {
  if (text.empty()) throw std::invalid_argument("a value is missing");
  std::string_view t = text;
  bool negative = false;
  if (t[0] == '-' || t[0] == '+') {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  const std::string quoted = "'" + std::string(text) + "'";
  if constexpr (std::is_floating_point_v<T>) {
    parse_float_component<T>(t, negative, quoted, type, out);
  } else {
    parse_integer_component<T>(t, negative, quoted, type, out);
  }
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (;;) {
    const std::size_t at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// One element of `type` from comma-separated values into type.size() bytes (3-vector padding is
// zero). With `broadcast`, a single value sets every component.
std::vector<unsigned char> parse_element(const element_type& type, std::string_view text,
                                         bool broadcast) {
  const std::vector<std::string_view> parts = split(text, ',');
  if (parts.size() != type.width && !(broadcast && parts.size() == 1)) {
    std::string want = std::to_string(type.width) + " comma-separated values";
    if (broadcast) want = "1 value or " + want;
    if (type.width == 1) want = "1 value";
    throw std::invalid_argument(type.name() + " needs " + want + ", got " +
                                std::to_string(parts.size()) + " ('" + std::string(text) + "')");
  }
  std::vector<unsigned char> bytes(type.size(), 0);
  const std::string name = cl_type_name(type.scalar);
  for (unsigned c = 0; c < type.width; ++c) {
    const std::string_view part = parts.size() == 1 ? parts[0] : parts[c];
    with_scalar(type.scalar, [&](auto tag) {
      parse_component<decltype(tag)>(part, name, bytes.data() + c * type.scalar_size());
    });
  }
  return bytes;
}

// COUNT: a whole number of elements, at least 1.
std::size_t parse_count(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("COUNT is missing");
  std::size_t n = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (text[0] == '-' || text[0] == '+' || ec == std::errc::invalid_argument || ptr != end)
    throw std::invalid_argument("COUNT must be a positive whole number of elements, got '" +
                                std::string(text) + "'");
  if (ec == std::errc::result_out_of_range)
    throw std::invalid_argument("COUNT " + std::string(text) + " is too large");
  if (n == 0) throw std::invalid_argument("COUNT must be at least 1 (OpenCL has no empty buffers)");
  return n;
}

}  // namespace

buffer_init parse_init(std::string_view text, const element_type& type) {
  buffer_init init;
  init.text = std::string(text);
  if (text.rfind("file=", 0) == 0) {  // a path may hold ':'; it is the rest of the spec
    init.kind = init_kind::file;
    init.path = std::string(text.substr(5));
    if (init.path.empty()) throw std::invalid_argument("file= needs a PATH: file=PATH");
    return init;
  }
  if (const std::size_t colon = text.find(':'); colon != std::string_view::npos)
    throw std::invalid_argument("unexpected '" + std::string(text.substr(colon)) +
                                "' after INIT '" + std::string(text.substr(0, colon)) + "'");
  const std::size_t eq = text.find('=');
  const std::string_view key = text.substr(0, eq);
  const std::string_view value = eq == std::string_view::npos ? "" : text.substr(eq + 1);
  if (key == "zero" || key == "range") {
    if (eq != std::string_view::npos)
      throw std::invalid_argument("INIT '" + std::string(key) + "' takes no value");
    init.kind = key == "zero" ? init_kind::zero : init_kind::range;
  } else if (key == "fill") {
    if (value.empty()) throw std::invalid_argument("fill needs a value: fill=V");
    init.kind = init_kind::fill;
    init.fill = parse_element(type, value, true);
  } else if (key == "random") {
    if (value.empty()) throw std::invalid_argument("random needs a seed: random=SEED");
    const char* end = value.data() + value.size();
    auto [ptr, ec] = std::from_chars(value.data(), end, init.seed);
    if (ec != std::errc{} || ptr != end)
      throw std::invalid_argument("random=SEED needs a whole number from 0 to 2^64-1, got '" +
                                  std::string(value) + "'");
    init.kind = init_kind::random;
  } else {
    throw std::invalid_argument("unknown INIT '" + std::string(text) +
                                "': use zero, fill=V, range, random=SEED or file=PATH");
  }
  return init;
}

namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a small generator with a fixed, documented output, so a
// seed gives the same buffer everywhere (std:: distributions differ between libraries).
std::uint64_t splitmix64(std::uint64_t& state) noexcept {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

void check_init_file(const arg_spec& spec) {
  namespace fs = std::filesystem;
  if (spec.init.kind != init_kind::file) return;
  const std::string& path = spec.init.path;
  const std::string where = "argument '" + spec.text + "': file=" + path;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw std::runtime_error(where + ": no such file");
  // A FIFO or device would block or never end; only regular files are read.
  if (!fs::is_regular_file(st)) throw std::runtime_error(where + ": not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error(where + ": " + ec.message());
  if (size != spec.bytes())
    throw std::runtime_error(where + " holds " + std::to_string(size) + " bytes; " +
                             std::to_string(spec.count) + " x " + spec.type.name() + " needs " +
                             std::to_string(spec.bytes()) + " (" +
                             std::to_string(spec.type.size()) + " bytes each)");
}

namespace {

std::vector<unsigned char> read_file(const arg_spec& spec) {
  check_init_file(spec);
  const std::string& path = spec.init.path;
  const std::string where = "argument '" + spec.text + "': file=" + path;
  std::vector<unsigned char> bytes(spec.bytes());
  std::ifstream in(path, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    throw std::runtime_error(where + ": cannot read it");
  return bytes;
}

template <class T>
std::string format_component(const unsigned char* p, bool json) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(v)) return json ? "\"nan\"" : "nan";
    if (std::isinf(v))
      return std::string(json ? "\"" : "") + (v < 0 ? "-inf" : "inf") + (json ? "\"" : "");
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest exact form
    return ec == std::errc{} ? std::string(buf, end) : std::string("?");
  } else if constexpr (std::is_signed_v<T>) {
    return std::to_string(static_cast<long long>(v));
  } else {
    return std::to_string(static_cast<unsigned long long>(v));
  }
}

}  // namespace

// --- element types ---

const char* kind_name(arg_kind k) noexcept {
  switch (k) {
    case arg_kind::in:
      return "in";
    case arg_kind::out:
      return "out";
    case arg_kind::inout:
      return "inout";
    case arg_kind::local:
      return "local";
    case arg_kind::svm:
      return "svm";
    case arg_kind::image:
      return "image";
    case arg_kind::sampler:
      return "sampler";
    case arg_kind::scalar:
      break;
  }
  return "scalar";
}

std::size_t element_type::scalar_size() const noexcept { return size_of(scalar); }

std::string element_type::name() const {
  std::string n = cl_type_name(scalar);
  return width == 1 ? n : n + std::to_string(width);
}

element_type parse_element_type(std::string_view name) {
  const std::size_t digits = name.find_last_not_of("0123456789") + 1;
  const std::string_view base = name.substr(0, digits), width = name.substr(digits);
  if (base == "half")
    throw std::invalid_argument("type '" + std::string(name) +
                                "' is not supported (the host has no half type); use float");
  if (const anycl::scalar_type_info* e = anycl::find_real_type(base)) {
    element_type t;
    t.scalar = e->type;
    if (width.empty()) return t;
    if (width == "2" || width == "3" || width == "4" || width == "8" || width == "16") {
      t.width = static_cast<unsigned>(std::stoul(std::string(width)));
      return t;
    }
    throw std::invalid_argument("bad vector width " + std::string(width) + " in '" +
                                std::string(name) +
                                "': OpenCL vectors have 2, 3, 4, 8 or 16 components");
  }
  throw std::invalid_argument("unknown type '" + std::string(name) + "'; types: " + type_list());
}

// --- specs ---

const char* const arg_spec_help =
    "  TYPE:VALUE               a value: int:-3, float:2.5, uint:0xff; vectors take one value\n"
    "                           per component: uint2:1,2, float4:1,2,3,4 (3-vectors 3 values)\n"
    "  in:TYPE:COUNT[:INIT]     a buffer of COUNT elements the kernel reads\n"
    "  inout:TYPE:COUNT[:INIT]  a buffer the kernel reads and writes; printed afterwards\n"
    "  out:TYPE:COUNT           a buffer of zeros the kernel writes; printed afterwards\n"
    "  local:TYPE:COUNT         __local memory of COUNT elements per work-group\n"
    "  svm:TYPE:COUNT[:INIT]    a coarse-grained shared virtual memory allocation, passed as a\n"
    "                           pointer; printed afterwards\n"
    "  IMAGE:FORMAT:SIZES[:INIT]  an image; printed afterwards when the kernel may write it:\n"
    "                           image1d:FORMAT:W, image2d:FORMAT:W,H, image3d:FORMAT:W,H,D,\n"
    "                           image1d_array:FORMAT:W,LAYERS, image2d_array:FORMAT:W,H,LAYERS\n"
    "                           FORMAT is ORDER/TYPE as anycl-info lists them: CL_RGBA/CL_FLOAT,\n"
    "                           or r/unorm_int8 (any case, CL_ optional); a pixel holds one value\n"
    "                           per channel in its stored type (CL_UNORM_INT8: uchar)\n"
    "  sampler:ADDRESSING:FILTER[:COORDS]  a sampler: ADDRESSING none, clamp_to_edge, clamp,\n"
    "                           repeat or mirrored_repeat; FILTER nearest or linear; COORDS\n"
    "                           unnormalized (the default) or normalized\n"
    "TYPE: char uchar short ushort int uint long ulong float double, or a vector of one with\n"
    "2, 3, 4, 8 or 16 components (float4); a 3-vector takes the room of a 4-vector.\n"
    "INIT (default zero):\n"
    "  zero | fill=V (V: one value, or one per component) | range (component k holds k,\n"
    "  wrapping in narrow integer types) | random=SEED (SplitMix64 from SEED, one draw per\n"
    "  component: integers uniform in 0..99, floats uniform in [0,1)) | file=PATH (raw bytes,\n"
    "  exactly COUNT * sizeof(TYPE) of them, in the device's byte order)\n";

namespace {

// The kind of memory a spec's first field names (in, out, inout, local, svm); nothing for a TYPE.
std::optional<arg_kind> memory_kind(std::string_view head) {
  if (head == "in") return arg_kind::in;
  if (head == "out") return arg_kind::out;
  if (head == "inout") return arg_kind::inout;
  if (head == "local") return arg_kind::local;
  if (head == "svm") return arg_kind::svm;
  return std::nullopt;
}

// The INIT of a buffer spec: in: and inout: take one, out: and local: do not.
buffer_init parse_buffer_init(const arg_spec& s, std::string_view text) {
  if (s.kind == arg_kind::out)
    throw std::invalid_argument(
        "out: buffers start as zeros and take no INIT; use inout:TYPE:COUNT:INIT to give "
        "initial values");
  if (s.kind == arg_kind::local)
    throw std::invalid_argument("local memory takes no INIT: the kernel fills it, per work-group");
  return parse_init(text, s.type);
}

// TYPE:COUNT[:INIT] after the `head` of a buffer or local memory spec (s.kind set) into `s`.
void parse_memory_spec(arg_spec& s, std::string_view head, std::string_view rest) {
  const std::string form = std::string(head) + ":TYPE:COUNT";
  if (rest.empty() || rest[0] == ':') throw std::invalid_argument("TYPE is missing: " + form);
  const std::size_t c2 = rest.find(':');
  s.type = parse_element_type(rest.substr(0, c2));
  if (c2 == std::string_view::npos) throw std::invalid_argument("COUNT is missing: " + form);
  const std::string_view after = rest.substr(c2 + 1);
  const std::size_t c3 = after.find(':');
  s.count = parse_count(after.substr(0, c3));
  if (s.count > std::numeric_limits<std::size_t>::max() / s.type.size())
    throw std::invalid_argument("COUNT " + std::to_string(s.count) + " of " + s.type.name() +
                                " is too large: the bytes overflow size_t");
  if (c3 != std::string_view::npos) s.init = parse_buffer_init(s, after.substr(c3 + 1));
}

// The TYPE of a TYPE:VALUE spec; when `head` is no type, the message says what specs look like.
element_type value_type(std::string_view head) {
  try {
    return parse_element_type(head);
  } catch (const std::invalid_argument& e) {
    if (head.find_first_of("0123456789") == 0 || head.find('=') != std::string_view::npos)
      throw std::invalid_argument("expected TYPE:VALUE (e.g. int:" + std::string(head) +
                                  ") or in/out/inout/local/svm:TYPE:COUNT");
    throw std::invalid_argument(std::string(e.what()) +
                                "; memory is in:, out:, inout:, local:, svm:, image2d: (and the "
                                "other image types) or sampler:");
  }
}

// A TYPE:VALUE spec, split at its first ':' into `head` and `rest`, into `s`.
void parse_value_spec(arg_spec& s, std::string_view head, std::string_view rest) {
  s.type = value_type(head);
  if (rest.empty()) throw std::invalid_argument("VALUE is missing: " + s.type.name() + ":VALUE");
  if (const std::size_t extra = rest.find(':'); extra != std::string_view::npos)
    throw std::invalid_argument("unexpected '" + std::string(rest.substr(extra)) +
                                "' after the value");
  s.value = parse_element(s.type, rest, false);
}

}  // namespace

arg_spec parse_arg_spec(std::string_view text) {
  arg_spec s;
  s.text = std::string(text);
  try {
    if (text.empty()) throw std::invalid_argument("empty; expected TYPE:VALUE or in:TYPE:COUNT");
    const std::size_t colon = text.find(':');
    const std::string_view head = text.substr(0, colon);
    const std::string_view rest =
        colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    if (const std::optional<arg_kind> kind = memory_kind(head)) {
      s.kind = *kind;
      parse_memory_spec(s, head, rest);
    } else if (head == "sampler") {
      parse_sampler_spec(s, rest);
    } else if (!parse_image_spec(s, head, rest)) {
      parse_value_spec(s, head, rest);
    }
    return s;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("argument '" + s.text + "': " + e.what());
  }
}

std::vector<unsigned char> initial_contents(const arg_spec& spec) {
  if (spec.init.kind == init_kind::file) return read_file(spec);
  std::vector<unsigned char> out(spec.bytes(), 0);
  const element_type& t = spec.type;
  const std::size_t ss = t.scalar_size(), es = t.size();
  switch (spec.init.kind) {
    case init_kind::zero:
    case init_kind::file:
      break;
    case init_kind::fill:
      for (std::size_t e = 0; e < spec.count; ++e)
        std::memcpy(out.data() + e * es, spec.init.fill.data(), es);
      break;
    case init_kind::range:
    case init_kind::random: {
      std::uint64_t state = spec.init.seed, k = 0;
      const bool random = spec.init.kind == init_kind::random;
      with_scalar(t.scalar, [&](auto tag) {
        using T = decltype(tag);
        for (std::size_t e = 0; e < spec.count; ++e) {
          for (unsigned c = 0; c < t.width; ++c, ++k) {
            unsigned char* p = out.data() + e * es + c * ss;
            const std::uint64_t x = random ? splitmix64(state) : k;
            if constexpr (std::is_same_v<T, float>) {
              store(random ? static_cast<float>(x >> 40) * 0x1p-24f : static_cast<float>(x), p);
            } else if constexpr (std::is_same_v<T, double>) {
              store(random ? static_cast<double>(x >> 11) * 0x1p-53 : static_cast<double>(x), p);
            } else {
              // Through the unsigned type: narrowing wraps, with no implementation-defined step.
              store(static_cast<std::make_unsigned_t<T>>(random ? x % 100 : x), p);
            }
          }
        }
      });
      break;
    }
  }
  return out;
}

std::string format_element(const element_type& type, const unsigned char* p, bool json) {
  std::string s = type.width == 1 ? "" : json ? "[" : "(";
  for (unsigned c = 0; c < type.width; ++c) {
    if (c != 0) s += json ? ", " : ",";
    s += with_scalar(type.scalar, [&](auto tag) {
      return format_component<decltype(tag)>(p + c * type.scalar_size(), json);
    });
  }
  return s + (type.width == 1 ? "" : json ? "]" : ")");
}

std::vector<std::size_t> parse_sizes(std::string_view text, std::string_view flag) {
  const std::string f(flag);
  const std::vector<std::string_view> parts = split(text, ',');
  if (text.empty() || parts.size() > 3)
    throw std::invalid_argument(f + " takes 1 to 3 comma-separated sizes (X[,Y[,Z]]), got '" +
                                std::string(text) + "'");
  std::vector<std::size_t> sizes;
  for (std::string_view p : parts) {
    std::size_t n = 0;
    const char* end = p.data() + p.size();
    auto [ptr, ec] = std::from_chars(p.data(), end, n);
    if (p.empty() || p[0] == '-' || p[0] == '+' || ec != std::errc{} || ptr != end)
      throw std::invalid_argument(f + " needs positive whole numbers, got '" + std::string(text) +
                                  "'");
    if (n == 0)
      throw std::invalid_argument(f + " sizes must be at least 1, got '" + std::string(text) + "'");
    sizes.push_back(n);
  }
  return sizes;
}

}  // namespace anycl::tools
