// SPDX-License-Identifier: Apache-2.0
// Image and sampler argument specs: `image2d:r/float:64,32[:INIT]`, `sampler:clamp:linear`.
#include <limits>
#include <stdexcept>
#include <string>

#include "arg_spec.hpp"

namespace anycl::tools {

namespace {

using anycl::image_type;

struct image_word {
  image_type type;
  const char* word;
  const char* sizes;  // what SIZES holds, for messages
  unsigned axes;
};

constexpr image_word image_words[] = {{image_type::image1d, "image1d", "W", 1},
                                      {image_type::image1d_array, "image1d_array", "W,LAYERS", 2},
                                      {image_type::image2d, "image2d", "W,H", 2},
                                      {image_type::image2d_array, "image2d_array", "W,H,LAYERS", 3},
                                      {image_type::image3d, "image3d", "W,H,D", 3}};

// The host type of one channel: its storage, as read_image and write_image move it.
scalar_type channel_scalar(const anycl::image_format& f) {
  switch (f.type) {
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8:
      return scalar_type::u8;
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
      return scalar_type::i8;
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16:
      return scalar_type::u16;
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
      return scalar_type::i16;
    case CL_SIGNED_INT32:
      return scalar_type::i32;
    case CL_UNSIGNED_INT32:
      return scalar_type::u32;
    case CL_FLOAT:
      return scalar_type::f32;
    case CL_HALF_FLOAT:
      throw std::invalid_argument(f.to_string() +
                                  ": the host has no half type; use a CL_FLOAT format");
    default:
      throw std::invalid_argument(f.to_string() +
                                  ": packed channel types are not supported; use a format of "
                                  "one value per channel (such as CL_UNORM_INT8)");
  }
}

// A pixel of `f` as an element type: one scalar per channel (1, 2 or 4 of them).
element_type pixel_type(const anycl::image_format& f) {
  element_type t;
  t.scalar = channel_scalar(f);
  t.width = static_cast<unsigned>(f.channels());
  if (t.width == 3)  // CL_RGB and kin come only with packed types, refused above
    throw std::invalid_argument(f.to_string() + ": 3-channel orders are not supported");
  return t;
}

// SIZES of `w` into s.image.extent and s.count.
void parse_image_sizes(arg_spec& s, const image_word& w, std::string_view text) {
  const std::string form = std::string(w.word) + ":FORMAT:" + w.sizes;
  if (text.empty()) throw std::invalid_argument("SIZES is missing: " + form);
  const std::vector<std::size_t> n = parse_sizes(text, "SIZES");
  if (n.size() != w.axes)
    throw std::invalid_argument(std::string("an ") + w.word + " takes " + std::to_string(w.axes) +
                                " size" + (w.axes == 1 ? "" : "s") + " (" + w.sizes + "), got '" +
                                std::string(text) + "'");
  anycl::image_extent& e = s.image.extent;
  e.width = n[0];
  if (w.type == image_type::image1d_array) e.layers = n[1];
  if (w.type == image_type::image2d || w.type == image_type::image2d_array ||
      w.type == image_type::image3d)
    e.height = n[1];
  if (w.type == image_type::image2d_array) e.layers = n[2];
  if (w.type == image_type::image3d) e.depth = n[2];
  s.count = 1;
  for (std::size_t x : n) {
    if (x > std::numeric_limits<std::size_t>::max() / s.count / s.type.size())
      throw std::invalid_argument("SIZES " + std::string(text) + " is too large: the bytes " +
                                  "overflow size_t");
    s.count *= x;
  }
}

template <class T, std::size_t N>
T pick(const std::pair<const char*, T> (&table)[N], std::string_view word, const char* what) {
  std::string list;
  for (const auto& [name, value] : table) {
    if (word == name) return value;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  throw std::invalid_argument(std::string(what) + " '" + std::string(word) + "' is not one of " +
                              list);
}

const std::pair<const char*, anycl::addressing_mode> addressing_words[] = {
    {"none", anycl::addressing_mode::none},
    {"clamp_to_edge", anycl::addressing_mode::clamp_to_edge},
    {"clamp", anycl::addressing_mode::clamp},
    {"repeat", anycl::addressing_mode::repeat},
    {"mirrored_repeat", anycl::addressing_mode::mirrored_repeat}};
const std::pair<const char*, anycl::filter_mode> filter_words[] = {
    {"nearest", anycl::filter_mode::nearest}, {"linear", anycl::filter_mode::linear}};
const std::pair<const char*, bool> coords_words[] = {{"unnormalized", false}, {"normalized", true}};

template <class T, std::size_t N>
const char* word_of(const std::pair<const char*, T> (&table)[N], T value) {
  for (const auto& [name, v] : table)
    if (v == value) return name;
  return "?";
}

}  // namespace

const char* image_type_word(anycl::image_type t) noexcept {
  for (const image_word& w : image_words)
    if (w.type == t) return w.word;
  return "image";
}

std::vector<std::size_t> image_sizes(const image_spec& s) {
  const anycl::image_extent& e = s.extent;
  switch (s.type) {
    case image_type::image1d:
      return {e.width};
    case image_type::image1d_array:
      return {e.width, e.layers};
    case image_type::image2d:
      return {e.width, e.height};
    case image_type::image2d_array:
      return {e.width, e.height, e.layers};
    case image_type::image3d:
      break;
  }
  return {e.width, e.height, e.depth};
}

std::string sampler_spec::to_string() const {
  return std::string(word_of(addressing_words, addressing)) + ":" + word_of(filter_words, filter) +
         ":" + word_of(coords_words, normalized);
}

bool parse_image_spec(arg_spec& s, std::string_view head, std::string_view rest) {
  const image_word* w = nullptr;
  for (const image_word& x : image_words)
    if (head == x.word) w = &x;
  if (w == nullptr) return false;
  s.kind = arg_kind::image;
  s.image.type = w->type;
  const std::string form = std::string(w->word) + ":FORMAT:" + w->sizes + "[:INIT]";
  const std::size_t c1 = rest.find(':');
  if (rest.empty() || c1 == 0) throw std::invalid_argument("FORMAT is missing: " + form);
  s.image.format = anycl::image_format::parse(rest.substr(0, c1));
  s.type = pixel_type(s.image.format);
  if (c1 == std::string_view::npos) throw std::invalid_argument("SIZES is missing: " + form);
  const std::string_view after = rest.substr(c1 + 1);
  const std::size_t c2 = after.find(':');
  parse_image_sizes(s, *w, after.substr(0, c2));
  if (c2 != std::string_view::npos) s.init = parse_init(after.substr(c2 + 1), s.type);
  return true;
}

void parse_sampler_spec(arg_spec& s, std::string_view rest) {
  s.kind = arg_kind::sampler;
  const char* form = "sampler:ADDRESSING:FILTER[:normalized]";
  const std::size_t c1 = rest.find(':');
  if (rest.empty() || c1 == std::string_view::npos)
    throw std::invalid_argument(std::string("ADDRESSING and FILTER are needed: ") + form);
  s.sampler.addressing = pick(addressing_words, rest.substr(0, c1), "ADDRESSING");
  const std::string_view after = rest.substr(c1 + 1);
  const std::size_t c2 = after.find(':');
  s.sampler.filter = pick(filter_words, after.substr(0, c2), "FILTER");
  if (c2 != std::string_view::npos)
    s.sampler.normalized = pick(coords_words, after.substr(c2 + 1), "COORDS");
  const bool wraps = s.sampler.addressing == anycl::addressing_mode::repeat ||
                     s.sampler.addressing == anycl::addressing_mode::mirrored_repeat;
  if (wraps && !s.sampler.normalized)
    throw std::invalid_argument(std::string(word_of(addressing_words, s.sampler.addressing)) +
                                " needs normalized coordinates: add ':normalized'");
}

}  // namespace anycl::tools
