// SPDX-License-Identifier: Apache-2.0
// anycl-run's check of argument specs against a kernel's declared parameters: address spaces,
// element and value types, typedefs resolved through the source, and what fits instead.
#include "arg_check.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace anycl::tools {

namespace {

const char* space_prefix(address_space s) {
  switch (s) {
    case address_space::global:
      return "__global ";
    case address_space::constant:
      return "__constant ";
    case address_space::local:
      return "__local ";
    case address_space::private_:
      break;
  }
  return "";
}

bool known_type(const std::string& name) {
  try {
    (void)parse_element_type(name);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// What to pass for a parameter of normalized type `t` in `space`, e.g. "in:float:COUNT".
std::string what_fits(address_space space, const std::string& t) {
  const bool pointer = !t.empty() && t.back() == '*';
  const std::string pointee = pointer ? t.substr(0, t.size() - 1) : t;
  const std::string elem = pointee == "void" ? "TYPE" : pointee;
  switch (space) {
    case address_space::global:
      return "in:" + elem + ":COUNT, out:" + elem + ":COUNT, inout:" + elem +
             ":COUNT or svm:" + elem + ":COUNT";
    case address_space::constant:
      return "in:" + elem + ":COUNT (__constant memory is read-only)";
    case address_space::local:
      return "local:" + elem + ":COUNT";
    case address_space::private_:
      break;
  }
  return t + ":VALUE";
}

}  // namespace

std::string normalize_type_name(std::string_view declared) {
  // Split into words and '*'s; drop qualifiers some drivers keep in the name.
  std::vector<std::string> words;
  std::size_t stars = 0;
  std::string word;
  auto flush = [&] {
    static const char* const qualifiers[] = {
        "const",    "volatile", "restrict", "__restrict", "__global", "global",  "__constant",
        "constant", "__local",  "local",    "__private",  "private",  "__kernel"};
    bool drop = false;
    for (const char* q : qualifiers) drop = drop || word == q;
    if (!word.empty() && !drop) words.push_back(word);
    word.clear();
  };
  for (char ch : declared) {
    if (ch == '*') {
      flush();
      ++stars;
    } else if (ch == ' ' || ch == '\t' || ch == '\n') {
      flush();
    } else {
      word += ch;
    }
  }
  flush();
  std::string base;
  if (words.size() == 2 && words[0] == "unsigned") {
    base = "u" + words[1];
  } else if (words.size() == 1 && words[0] == "unsigned") {
    base = "uint";
  } else if (words.size() == 2 && words[0] == "signed" && words[1] == "char") {
    base = "char";
  } else {
    for (const std::string& w : words) base += (base.empty() ? "" : " ") + w;
  }
  return base + std::string(stars, '*');
}

std::string declared_type(const kernel_arg_info& param) {
  return space_prefix(param.space) + normalize_type_name(param.type_name);
}

std::string describe_param(const kernel_arg_info& param) {
  return declared_type(param) + " " + param.name;
}

namespace {

// Why a value spec `a` does not fit parameter `p` of normalized type `t`, for the end of a
// message (`fits` says what would); empty when it fits.
std::string value_mismatch(const kernel_arg_info& p, const std::string& t, bool pointer,
                           const arg_spec& a, const std::string& fits) {
  if (p.space != address_space::private_ || pointer) return " (a value, not memory)" + fits;
  if (t != a.type.name()) return " (" + a.type.name() + ")" + fits;
  return "";
}

// As value_mismatch, for a buffer or local memory spec against a parameter that points to
// `pointee` when `pointer`.
std::string memory_mismatch(const kernel_arg_info& p, bool pointer, const std::string& pointee,
                            const arg_spec& a, const std::string& fits) {
  const bool want_buffer = a.kind != arg_kind::local;
  const bool space_ok =
      want_buffer ? (p.space == address_space::global || p.space == address_space::constant)
                  : p.space == address_space::local;
  const char* given = a.kind == arg_kind::svm ? "SVM memory"
                      : want_buffer           ? "a __global buffer"
                                              : "__local memory";
  if (!space_ok || !pointer) return std::string(" (") + given + ")" + fits;
  // SVM is the caller's memory, read-write: a kernel reading it through __constant is fine.
  if (p.space == address_space::constant && a.kind != arg_kind::in && a.kind != arg_kind::svm)
    return std::string(" (") + kind_name(a.kind) + ": the kernel cannot write __constant memory)" +
           fits;
  if (pointee != "void" && pointee != a.type.name())
    return " (elements of " + a.type.name() + ")" + fits;
  return "";
}

// OpenCL C's opaque types: images, samplers and the ones anycl-run has no spec for.
bool opaque_type(const std::string& t) {
  static const char* const prefixes[] = {"image",       "sampler_t", "pipe",        "queue_t",
                                         "clk_event_t", "event_t",   "reserve_id_t"};
  for (const char* p : prefixes)
    if (t.rfind(p, 0) == 0) return true;
  return false;
}

// The image types anycl-run makes, as OpenCL C names them.
bool image_param(const std::string& t, anycl::image_type& type) {
  for (anycl::image_type x :
       {anycl::image_type::image1d, anycl::image_type::image1d_array, anycl::image_type::image2d,
        anycl::image_type::image2d_array, anycl::image_type::image3d})
    if (t == std::string(image_type_word(x)) + "_t") {
      type = x;
      return true;
    }
  return false;
}

// A spec's kind in a message: "(a value)", "(an image1d)".
std::string given_phrase(const arg_spec& a) {
  switch (a.kind) {
    case arg_kind::scalar:
      return " (a value)";
    case arg_kind::image:
      return std::string(" (an ") + image_type_word(a.image.type) + ")";
    case arg_kind::sampler:
      return " (a sampler)";
    case arg_kind::local:
      return " (__local memory)";
    case arg_kind::svm:
      return " (SVM memory)";
    default:
      return " (a __global buffer)";
  }
}

// As argument_mismatch, for an opaque parameter type `t`: images and samplers take their specs;
// the other opaque types (pipes, depth images, image buffers, queues) cannot be passed.
std::string opaque_mismatch(const std::string& t, const arg_spec& a) {
  anycl::image_type type{};
  if (image_param(t, type)) {
    if (a.kind == arg_kind::image && a.image.type == type) return "";
    return given_phrase(a) + "; pass " + image_type_word(type) + ":FORMAT:SIZES[:INIT]";
  }
  if (t == "sampler_t")
    return a.kind == arg_kind::sampler ? "" : given_phrase(a) + "; pass sampler:ADDRESSING:FILTER";
  return "; anycl-run cannot pass a '" + t +
         "' (it passes values and vectors of OpenCL C scalar types, buffers and SVM of them, "
         "__local memory, image1d_t, image1d_array_t, image2d_t, image2d_array_t, image3d_t and "
         "sampler_t)";
}

// The parameter's type after the source's typedefs, and whether anycl-run knows it.
struct resolved_param {
  std::string declared, t, pointee;
  bool pointer = false, known = false;
};

resolved_param resolve(const kernel_arg_info& p, const type_aliases& aliases) {
  resolved_param r;
  r.declared = normalize_type_name(p.type_name);
  r.t = resolve_alias(aliases, r.declared);
  r.pointer = !r.t.empty() && r.t.back() == '*';
  r.pointee = r.pointer ? r.t.substr(0, r.t.size() - 1) : "";
  r.known = r.pointer ? (r.pointee == "void" || known_type(r.pointee))
                      : (p.space == address_space::private_ && known_type(r.t));
  return r;
}

// As argument_mismatch, for a type that is neither OpenCL C's nor opaque (a struct): the address
// space, and the size where the compiler gave it.
std::string unknown_mismatch(const kernel_arg_info& p, const resolved_param& r, const arg_spec& a,
                             const source_types& types, std::string& assumed) {
  const std::string base = r.pointer ? r.pointee : r.t;
  auto size = types.sizes.find(base);
  const std::string fits = "; pass " + what_fits(p.space, r.pointer ? "void*" : "TYPE");
  const std::string sized =
      size == types.sizes.end() ? "" : " (sizeof " + std::to_string(size->second) + ")";
  if (a.kind == arg_kind::scalar) {
    if (p.space != address_space::private_ || r.pointer) return " (a value, not memory)" + fits;
    if (size != types.sizes.end() && a.type.size() != size->second)
      return " (" + std::to_string(a.type.size()) + " bytes; '" + base + "' takes " +
             std::to_string(size->second) + ")";
    assumed = "'" + base + "'" + sized + " is not an OpenCL C type: the " +
              std::to_string(a.type.size()) + " bytes of '" + a.text + "' are passed as its value";
    return "";
  }
  const std::string why = memory_mismatch(p, r.pointer, "void", a, fits);
  if (!why.empty()) return why;
  if (size != types.sizes.end() && size->second != 0 && a.bytes() % size->second != 0)
    return " (" + std::to_string(a.bytes()) + " bytes, not a whole number of '" + base + "', " +
           std::to_string(size->second) + " bytes each)";
  assumed = "'" + base + "'" + sized + " is not an OpenCL C type: its memory is passed as " +
            a.type.name() + " elements";
  return "";
}

// Why spec `a` does not fit parameter `p`, for the end of a message; empty when it fits. A type
// that is not OpenCL C's is resolved through the source first; `assumed` says what was taken.
std::string argument_mismatch(const kernel_arg_info& p, const arg_spec& a,
                              const source_types& types, std::string& assumed) {
  const resolved_param r = resolve(p, types.aliases);
  if (r.known && r.t != r.declared)
    assumed = "'" + r.declared + "' is '" + r.t + "' (a typedef in the source)";
  if (!r.known && opaque_type(r.pointer ? r.pointee : r.t)) return opaque_mismatch(r.t, a);
  if (a.kind == arg_kind::image || a.kind == arg_kind::sampler)
    return given_phrase(a) + "; pass " +
           what_fits(p.space, r.known     ? r.t
                              : r.pointer ? "void*"
                                          : "TYPE");
  if (!r.known) return unknown_mismatch(p, r, a, types, assumed);
  const std::string fits = "; pass " + what_fits(p.space, r.t);
  if (a.kind == arg_kind::scalar) return value_mismatch(p, r.t, r.pointer, a, fits);
  return memory_mismatch(p, r.pointer, r.pointee, a, fits);
}

// The message for a kernel given `given` arguments instead of params.size(), with its signature.
std::string count_mismatch(const std::string& kernel, const std::vector<kernel_arg_info>& params,
                           std::size_t given) {
  std::string sig;
  for (const auto& p : params) sig += (sig.empty() ? "" : ", ") + describe_param(p);
  return "kernel '" + kernel + "' takes " + std::to_string(params.size()) + " argument" +
         (params.size() == 1 ? "" : "s") + ", " + std::to_string(given) + " given: " + kernel +
         "(" + sig + ")";
}

}  // namespace

std::vector<std::string> unknown_types(const std::vector<kernel_arg_info>& params,
                                       const type_aliases& aliases) {
  std::vector<std::string> out;
  for (const kernel_arg_info& p : params) {
    const resolved_param r = resolve(p, aliases);
    const std::string base = r.pointer ? r.pointee : r.t;
    if (r.known || opaque_type(base) || base.empty()) continue;
    if (std::find(out.begin(), out.end(), base) == out.end()) out.push_back(base);
  }
  return out;
}

std::vector<std::string> check_arguments(const std::string& kernel,
                                         const std::vector<kernel_arg_info>& params,
                                         const std::vector<arg_spec>& args,
                                         const source_types& types,
                                         std::vector<std::string>* assumptions) {
  if (args.size() != params.size()) return {count_mismatch(kernel, params, args.size())};
  std::vector<std::string> problems;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const kernel_arg_info& p = params[i];
    const arg_spec& a = args[i];
    std::string assumed;
    const std::string why = argument_mismatch(p, a, types, assumed);
    if (why.empty() && !assumed.empty() && assumptions != nullptr)
      assumptions->push_back("argument " + std::to_string(i) + " '" + p.name + "': " + assumed);
    if (why.empty()) continue;
    problems.push_back("argument " + std::to_string(i) + " '" + p.name + "' of kernel '" + kernel +
                       "' is declared '" + declared_type(p) + "', given '" + a.text + "'" + why);
  }
  return problems;
}

}  // namespace anycl::tools
