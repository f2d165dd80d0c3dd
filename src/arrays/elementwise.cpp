// SPDX-License-Identifier: Apache-2.0
// Element-wise expressions (generated kernels, one per expression shape) and user element-wise
// kernels.
#include "anycl/elementwise.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>

#include "anycl/error.hpp"

namespace anycl {
namespace detail {

class context_kernels;
// array.cpp: the per-context kernel table every array of a context holds.
std::shared_ptr<context_kernels> kernels_for(const anycl::context& ctx);

namespace {

std::atomic<std::uint64_t> builds{0};

// Which generated sources have been built for each context's kernel table, to count builds. Keys
// only: the kernels themselves live in the table, which dies with the context's last array.
struct built_sources {
  std::weak_ptr<context_kernels> owner;
  std::unordered_set<std::string> keys;
};
std::mutex built_mutex;
std::map<cl_context, built_sources>& built() {
  static auto* b = new std::map<cl_context, built_sources>();
  return *b;
}

// generated_kernel() plus the build count.
kernel counted_kernel(const command_queue& q, const std::string& source,
                      const std::string& program_name, const std::string& name,
                      const build_options& options) {
  kernel k = generated_kernel(q, source, program_name, name, options);
  const anycl::context ctx = q.context();
  std::shared_ptr<context_kernels> owner = kernels_for(ctx);
  std::string key = options.str();
  key += '\0';
  key += source;
  std::lock_guard<std::mutex> lock(built_mutex);
  auto& table = built();
  for (auto i = table.begin(); i != table.end();)
    i = i->second.owner.expired() && i->first != ctx.get() ? table.erase(i) : std::next(i);
  built_sources& b = table[ctx.get()];
  if (b.owner.lock() != owner) {
    b.owner = owner;
    b.keys.clear();
  }
  if (b.keys.insert(std::move(key)).second) ++builds;
  return k;
}

void require_same_context(const anycl::context& a, const anycl::context& b, const char* what) {
  if (a != b)
    throw std::invalid_argument(std::string(what) +
                                ": arrays of different OpenCL contexts in one expression");
}

}  // namespace

std::uint64_t expression_builds() noexcept { return builds.load(); }

void throw_scalar_range(const std::string& value, scalar_type t) {
  throw std::invalid_argument("anycl expression: the scalar " + value + " does not fit in " +
                              cl_type_name(t) + ", the element type of the expression next to it");
}

kernel_arg expression_arg::arg() const noexcept {
  if (is_buffer) return arg_traits<anycl::buffer>::make(mem);
  return raw_arg(bytes.data(), size);
}

// --- expression_builder ---

expression_builder::expression_builder(std::string prefix) : prefix_(std::move(prefix)) {}

std::string expression_builder::add_array(const array_core& a) {
  if (!a.valid())
    throw std::invalid_argument(
        "anycl expression: an operand array is empty (default-constructed)");
  const array_layout& l = a.layout();
  if (code_.arrays.empty()) {
    code_.extents = l.extents;
  } else {
    if (l.extents != code_.extents)
      throw std::invalid_argument("anycl expression: operands of shapes " + code_.extents.str() +
                                  " and " + l.extents.str() +
                                  " (element-wise operands need equal shapes)");
    if (a.queue().get() != code_.arrays.front().queue().get())
      require_same_context(code_.arrays.front().queue().context(), a.queue().context(),
                           "anycl expression");
  }
  code_.arrays.push_back(a);
  const std::string name = prefix_ + std::to_string(next_++);
  if (!code_.params.empty()) code_.params += ", ";
  code_.params += std::string("global const ") + cl_type_name(a.type()) + "* " + name + ", ulong " +
                  name + "_off";
  expression_arg mem;
  mem.is_buffer = true;
  mem.mem = a.buffer();
  code_.args.push_back(std::move(mem));
  const cl_ulong off = l.offset;
  expression_arg o;
  o.size = sizeof off;
  std::memcpy(o.bytes.data(), &off, sizeof off);
  code_.args.push_back(o);
  if (l.contiguous()) return name + "[" + name + "_off + k]";
  const cl_ulong4 st = padded_strides(l);
  code_.params += ", ulong4 " + name + "_st";
  expression_arg s;
  s.size = sizeof st;
  std::memcpy(s.bytes.data(), &st, sizeof st);
  code_.args.push_back(s);
  code_.uses_extents = true;
  return name + "[anycl_strided_index(k, " + prefix_ + "_ext, " + name + "_st, " + name + "_off)]";
}

std::string expression_builder::add_scalar(scalar_type t, const void* value) {
  const std::string name = prefix_ + std::to_string(next_++);
  if (!code_.params.empty()) code_.params += ", ";
  code_.params += std::string(cl_type_name(t)) + " " + name;
  expression_arg v;
  v.size = size_of(t);
  std::memcpy(v.bytes.data(), value, v.size);
  code_.args.push_back(v);
  return name;
}

expression_code expression_builder::finish(std::string value, scalar_type t) {
  if (code_.arrays.empty()) throw std::invalid_argument("anycl expression: no array operand");
  if (code_.uses_extents) {
    code_.params += ", ulong4 " + prefix_ + "_ext";
    const cl_ulong4 ext = padded_extents(array_layout::dense(code_.extents));
    expression_arg e;
    e.size = sizeof ext;
    std::memcpy(e.bytes.data(), &ext, sizeof ext);
    code_.args.push_back(e);
  }
  code_.value = std::move(value);
  code_.element = t;
  code_.type = cl_type_name(t);
  return std::move(code_);
}

// --- evaluation ---

void evaluate(const array_core& dst, const expression_code& code) {
  if (!dst.valid()) throw std::invalid_argument("anycl expression: the destination array is empty");
  if (dst.type() != code.element)
    throw std::invalid_argument(std::string("anycl expression: a ") + code.type +
                                " expression into an array of " + cl_type_name(dst.type()));
  if (dst.layout().extents != code.extents)
    throw std::invalid_argument("anycl expression: assigning an expression of shape " +
                                code.extents.str() + " to an array of shape " +
                                dst.layout().extents.str());
  if (dst.queue().get() != code.queue().get())
    require_same_context(dst.queue().context(), code.queue().context(), "anycl expression");
  const std::size_t n = code.size();
  if (n == 0) return;

  bool shares_buffer = false;
  for (const array_core& a : code.arrays) {
    if (a.buffer().get() != dst.buffer().get()) continue;
    shares_buffer = true;
    const bool same_layout =
        a.layout().offset == dst.layout().offset && a.layout().strides == dst.layout().strides;
    if (!same_layout && dst.may_overlap(a)) {
      // Another layout of the same elements: work-items would read elements others have written.
      array_core tmp(dst.queue(), dst.type(), dst.layout().extents);
      evaluate(tmp, code);
      dst.assign(tmp);
      return;
    }
  }

  const command_queue& q = dst.queue();
  const bool dst_contiguous = dst.layout().contiguous();
  const bool needs_extents = !dst_contiguous && !code.uses_extents;
  // restrict on the destination when no operand reads its buffer lets the compiler vectorise
  // without run-time alias checks.
  std::string src = "#include \"anycl/loop.h\"\nkernel void anycl_expr(global ";
  src += code.type;
  src += shares_buffer ? "* r" : "* restrict r";
  src += ", ulong r_off, ";
  if (!dst_contiguous) src += "ulong4 r_st, ";
  src += code.params;
  if (needs_extents) src += ", ulong4 e_ext";
  src += ", ulong n, ulong chunk) {\n  ANYCL_FOR_EACH(k, n, chunk) { r[";
  src += dst_contiguous ? "r_off + k" : "anycl_strided_index(k, e_ext, r_st, r_off)";
  src += "] = ";
  src += code.value;
  src += "; }\n}\n";
  const device_profile prof = profile(q);
  kernel k = counted_kernel(q, src, "anycl-expression", "anycl_expr", prof.options);

  const launch_plan plan = plan_for(prof, n, size_of(code.element));
  const cl_ulong r_off = dst.layout().offset, count = n, chunk = plan.chunk;
  const cl_ulong4 r_st = padded_strides(dst.layout());
  const cl_ulong4 ext = padded_extents(array_layout::dense(code.extents));
  std::vector<kernel_arg> args;
  args.reserve(code.args.size() + 6);
  args.push_back(arg_traits<anycl::buffer>::make(dst.buffer()));
  args.push_back(arg_traits<cl_ulong>::make(r_off));
  if (!dst_contiguous) args.push_back(arg_traits<cl_ulong4>::make(r_st));
  for (const expression_arg& a : code.args) args.push_back(a.arg());
  if (needs_extents) args.push_back(arg_traits<cl_ulong4>::make(ext));
  args.push_back(arg_traits<cl_ulong>::make(count));
  args.push_back(arg_traits<cl_ulong>::make(chunk));

  std::vector<event> deps = dependencies({&dst});
  for (const array_core& a : code.arrays) {
    event e = a.last_event();
    if (!e) continue;
    bool dup = false;
    for (const event& x : deps) dup = dup || x.get() == e.get();
    if (!dup) deps.push_back(std::move(e));
  }
  event e = enqueue_kernel(k, q, plan.range(), args.data(), args.size(), deps);
  dst.record(e);
  for (const array_core& a : code.arrays) a.record(e);
}

// --- user element-wise kernels ---

struct elementwise_state {
  anycl::context ctx;
  std::string name;
  std::string source;
  std::vector<elementwise_kernel::parameter> params;
  std::string signature;  // the parameter list as given, for messages
  // The kernel built at construction and the options it was built with.
  kernel built;
  std::string built_options;
};

namespace {

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

const char* const accepted_types =
    "char, uchar, short, ushort, int, uint, long, ulong, float, double (or 'unsigned char' ...)";

bool scalar_named(const std::string& w, scalar_type& t) {
  static const std::pair<const char*, scalar_type> names[] = {
      {"char", scalar_type::i8},    {"uchar", scalar_type::u8},  {"short", scalar_type::i16},
      {"ushort", scalar_type::u16}, {"int", scalar_type::i32},   {"uint", scalar_type::u32},
      {"long", scalar_type::i64},   {"ulong", scalar_type::u64}, {"float", scalar_type::f32},
      {"double", scalar_type::f64}};
  for (const auto& [n, st] : names)
    if (w == n) {
      t = st;
      return true;
    }
  return false;
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

[[noreturn]] void bad_param(const std::string& kernel_name, const std::string& param,
                            const std::string& why) {
  throw std::invalid_argument("elementwise_kernel '" + kernel_name + "': parameter '" + param +
                              "': " + why);
}

elementwise_kernel::parameter parse_parameter(const std::string& kernel_name,
                                              const std::string& text) {
  // Tokens: identifiers and '*'.
  std::vector<std::string> tok;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '*') {
      tok.emplace_back("*");
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
        ++j;
      tok.push_back(text.substr(i, j - i));
      i = j;
    } else {
      bad_param(kernel_name, text, std::string("unexpected character '") + c + "'");
    }
  }
  elementwise_kernel::parameter p;
  if (tok.size() < 2) bad_param(kernel_name, text, "expected a type and a name");
  p.name = tok.back();
  tok.pop_back();
  if (!is_identifier(p.name) || std::isdigit(static_cast<unsigned char>(p.name[0])))
    bad_param(kernel_name, text, "the name '" + p.name + "' is not an identifier");
  bool global = false, have_type = false, is_unsigned = false, is_signed_kw = false;
  bool const_pointer = false;
  int stars = 0;
  for (const std::string& w : tok) {
    scalar_type t;
    if (w == "*") {
      ++stars;
    } else if (w == "global" || w == "__global") {
      global = true;
    } else if (w == "const" || w == "restrict" || w == "__restrict" || w == "volatile") {
      if (w == "const" && stars > 0) const_pointer = true;
    } else if (w == "local" || w == "__local" || w == "constant" || w == "__constant" ||
               w == "private" || w == "__private") {
      bad_param(kernel_name, text,
                "'" + w +
                    "' memory is not supported: pointers are 'global T*', each taking an "
                    "array<T>");
    } else if (w == "unsigned") {
      is_unsigned = true;
    } else if (w == "signed") {
      is_signed_kw = true;
    } else if (scalar_named(w, t)) {
      if (have_type) bad_param(kernel_name, text, "two types");
      if (stars > 0) bad_param(kernel_name, text, "the type comes before '*'");
      have_type = true;
      p.type = t;
    } else {
      bad_param(kernel_name, text,
                "unsupported type or keyword '" + w + "'; the types are " + accepted_types +
                    " and global pointers to them");
    }
  }
  if (!have_type) {
    if (!is_unsigned && !is_signed_kw) bad_param(kernel_name, text, "no type");
    p.type = scalar_type::i32;  // 'unsigned' alone is unsigned int
  }
  if (is_unsigned && is_signed_kw) bad_param(kernel_name, text, "both signed and unsigned");
  if (is_unsigned || is_signed_kw) {
    if (is_floating(p.type) || (have_type && !is_signed(p.type)))
      bad_param(kernel_name, text, "'signed'/'unsigned' with a type that cannot take it");
    if (is_unsigned) p.type = unsigned_of(p.type);
  }
  if (stars > 1) bad_param(kernel_name, text, "pointers to pointers are not supported");
  p.pointer = stars == 1;
  if (p.pointer && !global)
    bad_param(kernel_name, text, "a pointer parameter must be 'global' (global float* x)");
  if (!p.pointer && global) bad_param(kernel_name, text, "'global' on a scalar");
  if (const_pointer)
    bad_param(kernel_name, text,
              "a const pointer cannot be offset to the array's first element; drop the const "
              "after '*'");
  std::string decl;
  for (const std::string& w : tok) {
    if (!decl.empty() && w != "*") decl += ' ';
    decl += w;
  }
  p.declaration = decl + " " + p.name;
  return p;
}

std::vector<elementwise_kernel::parameter> parse_parameters(const std::string& kernel_name,
                                                            const std::string& list) {
  std::vector<elementwise_kernel::parameter> out;
  if (trim(list).empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string item =
        trim(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty())
      throw std::invalid_argument("elementwise_kernel '" + kernel_name +
                                  "': an empty parameter in '" + list + "'");
    elementwise_kernel::parameter p = parse_parameter(kernel_name, item);
    for (const auto& q : out)
      if (q.name == p.name) bad_param(kernel_name, item, "the name '" + p.name + "' is taken");
    const bool reserved =
        p.name == "i" || p.name == "i_end" || p.name == "k" || p.name.rfind("anycl_", 0) == 0 ||
        (p.name.size() >= 5 && p.name.compare(p.name.size() - 5, 5, "__off") == 0);
    if (reserved)
      bad_param(
          kernel_name, item,
          "the name '" + p.name + "' is reserved (i, i_end, k, anycl_..., ...__off are AnyCL's)");
    out.push_back(std::move(p));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Converts a call's scalar to parameter type `t` into `out`; false when it does not convert.
template <class T>
bool convert_to(const call_arg& a, unsigned char* out) {
  T v{};
  if (a.k == call_arg::kind::floating) {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else {
      v = static_cast<T>(a.d);
    }
  } else if (a.k == call_arg::kind::signed_integer) {
    if constexpr (std::is_integral_v<T>) {
      if (a.i < 0 ? (!std::is_signed_v<T> ||
                     a.i < static_cast<long long>(std::numeric_limits<T>::min()))
                  : static_cast<unsigned long long>(a.i) >
                        static_cast<unsigned long long>(std::numeric_limits<T>::max()))
        return false;
    }
    v = static_cast<T>(a.i);
  } else {
    if constexpr (std::is_integral_v<T>) {
      if (a.u > static_cast<unsigned long long>(std::numeric_limits<T>::max())) return false;
    }
    v = static_cast<T>(a.u);
  }
  std::memcpy(out, &v, sizeof v);
  return true;
}

bool convert_scalar_arg(const call_arg& a, scalar_type t, unsigned char* out) {
  switch (t) {
    case scalar_type::i8:
      return convert_to<std::int8_t>(a, out);
    case scalar_type::i16:
      return convert_to<std::int16_t>(a, out);
    case scalar_type::i32:
      return convert_to<std::int32_t>(a, out);
    case scalar_type::i64:
      return convert_to<std::int64_t>(a, out);
    case scalar_type::u8:
      return convert_to<std::uint8_t>(a, out);
    case scalar_type::u16:
      return convert_to<std::uint16_t>(a, out);
    case scalar_type::u32:
      return convert_to<std::uint32_t>(a, out);
    case scalar_type::u64:
      return convert_to<std::uint64_t>(a, out);
    case scalar_type::f32:
      return convert_to<float>(a, out);
    case scalar_type::f64:
      return convert_to<double>(a, out);
    case scalar_type::c64:  // parameter lists name real types only
    case scalar_type::c128:
      break;
  }
  return false;
}

std::string scalar_text(const call_arg& a) {
  if (a.k == call_arg::kind::floating) return std::to_string(static_cast<double>(a.d));
  if (a.k == call_arg::kind::signed_integer) return std::to_string(a.i);
  return std::to_string(a.u);
}

}  // namespace
}  // namespace detail

elementwise_kernel::elementwise_kernel(const anycl::context& ctx, const std::string& params,
                                       const std::string& body, const std::string& name,
                                       const std::string& preamble) {
  if (!ctx) throw std::invalid_argument("elementwise_kernel: the context is empty");
  if (!detail::is_identifier(name) || (name.rfind("anycl_", 0) == 0 && name != "anycl_elementwise"))
    throw std::invalid_argument("elementwise_kernel: the name '" + name +
                                "' is not an identifier (or starts with anycl_)");
  if (detail::trim(body).empty())
    throw std::invalid_argument("elementwise_kernel '" + name + "': the body is empty");
  auto s = std::make_shared<detail::elementwise_state>();
  s->ctx = ctx;
  s->name = name;
  s->signature = params;
  s->params = detail::parse_parameters(name, params);

  std::string src = "#include \"anycl/loop.h\"\n";
  if (!preamble.empty()) src += preamble + "\n";
  src += "kernel void " + name + "(";
  for (const parameter& p : s->params) {
    src += p.declaration;
    if (p.pointer) src += ", ulong " + p.name + "__off";
    src += ", ";
  }
  src += "ulong anycl_n, ulong anycl_chunk) {\n";
  for (const parameter& p : s->params)
    if (p.pointer) src += "  " + p.name + " += " + p.name + "__off;\n";
  src += "  ANYCL_FOR_EACH(i, anycl_n, anycl_chunk) {\n" + body + "\n;\n  }\n}\n";
  s->source = std::move(src);

  // Built now, for the first device, so that a body that does not compile fails here.
  const std::vector<device> devs = ctx.devices();
  const command_queue q(ctx, devs.front());
  const build_options options = detail::library_options(q);
  s->built =
      detail::generated_kernel(q, s->source, "elementwise_kernel '" + name + "'", name, options);
  s->built_options = options.str();
  s_ = std::move(s);
}

const std::string& elementwise_kernel::name() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->name;
}
const std::vector<elementwise_kernel::parameter>& elementwise_kernel::parameters() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->params;
}
const std::string& elementwise_kernel::source() const {
  if (!s_) throw std::invalid_argument("elementwise_kernel: default-constructed");
  return s_->source;
}

event elementwise_kernel::launch(const command_queue& queue, const std::size_t* n_given,
                                 const detail::call_arg* args, std::size_t count) const {
  using detail::call_arg;
  if (!s_) throw std::invalid_argument("elementwise_kernel: called default-constructed");
  const detail::elementwise_state& s = *s_;
  const std::string who = "elementwise_kernel '" + s.name + "'";
  if (!queue) throw std::invalid_argument(who + ": the queue is empty");
  if (count != s.params.size())
    throw std::invalid_argument(who + ": " + std::to_string(count) + " arguments given, it takes " +
                                std::to_string(s.params.size()) + " (" + s.signature + ")");
  const anycl::context qctx = queue.context();
  if (qctx != s.ctx)
    throw std::invalid_argument(who + ": the queue is on another context than the kernel");

  // Values first (their addresses must not move), then the argument list.
  std::vector<std::array<unsigned char, 8>> values(2 * count + 2);
  std::vector<detail::kernel_arg> kargs;
  kargs.reserve(2 * count + 2);
  std::vector<const detail::array_core*> arrays;
  std::size_t n = n_given ? *n_given : 0;
  bool have_n = n_given != nullptr;
  std::size_t elem_bytes = 4;
  for (std::size_t i = 0; i < count; ++i) {
    const parameter& p = s.params[i];
    const call_arg& a = args[i];
    const std::string arg = "argument " + std::to_string(i) + " ('" + p.declaration + "')";
    if (p.pointer) {
      if (a.k != call_arg::kind::array)
        throw std::invalid_argument(who + ": " + arg + " takes an array<" + cl_type_name(p.type) +
                                    ">, not a scalar");
      const detail::array_core& c = *a.array;
      if (!c.valid())
        throw std::invalid_argument(who + ": " + arg + " is an empty (default-constructed) array");
      if (c.type() != p.type)
        throw std::invalid_argument(who + ": " + arg + " takes an array of " +
                                    cl_type_name(p.type) + ", given an array of " +
                                    cl_type_name(c.type()));
      if (!c.layout().contiguous())
        throw std::invalid_argument(
            who + ": " + arg +
            " is a strided view; pass a contiguous array (view.copy(), assigned back if written)");
      if (c.queue().get() != queue.get() && c.queue().context() != qctx)
        throw std::invalid_argument(who + ": " + arg + " is an array of another context");
      if (!have_n) {
        n = c.layout().extents.size();
        elem_bytes = size_of(c.type());
        have_n = true;
      }
      arrays.push_back(&c);
      kargs.push_back(detail::arg_traits<anycl::buffer>::make(c.buffer()));
      const cl_ulong off = c.layout().offset;
      std::memcpy(values[2 * i].data(), &off, sizeof off);
      kargs.push_back(detail::raw_arg(values[2 * i].data(), sizeof off));
    } else {
      if (a.k == call_arg::kind::array)
        throw std::invalid_argument(who + ": " + arg + " takes a scalar, given an array");
      if (!detail::convert_scalar_arg(a, p.type, values[2 * i].data()))
        throw std::invalid_argument(who + ": " + arg + ": " +
                                    (a.k == call_arg::kind::floating
                                         ? "a floating-point value for an integer parameter"
                                         : "the value " + detail::scalar_text(a) +
                                               " does not fit in " + cl_type_name(p.type)));
      kargs.push_back(detail::raw_arg(values[2 * i].data(), size_of(p.type)));
    }
  }
  if (!have_n)
    throw std::invalid_argument(who +
                                ": no array argument to take the size from; pass an "
                                "anycl::element_count{n} after the queue");

  std::vector<event> deps;
  for (const detail::array_core* c : arrays) {
    event e = c->last_event();
    if (!e) continue;
    bool dup = false;
    for (const event& x : deps) dup = dup || x.get() == e.get();
    if (!dup) deps.push_back(std::move(e));
  }
  if (n == 0) return queue.marker(deps);

  const build_options options = detail::library_options(queue);
  kernel k = options.str() == s.built_options
                 ? s.built
                 : detail::generated_kernel(queue, s.source, "elementwise_kernel '" + s.name + "'",
                                            s.name, options);
  const detail::launch_plan plan = detail::plan_launch(queue, n, elem_bytes);
  const cl_ulong count_n = n, chunk = plan.chunk;
  kargs.push_back(detail::arg_traits<cl_ulong>::make(count_n));
  kargs.push_back(detail::arg_traits<cl_ulong>::make(chunk));
  event e = detail::enqueue_kernel(k, queue, plan.range(), kargs.data(), kargs.size(), deps);
  for (const detail::array_core* c : arrays) c->record(e);
  return e;
}

}  // namespace anycl
