// SPDX-License-Identifier: Apache-2.0
// .cl files: safe reads (never block on a FIFO, size cap, NUL check) and #include splicing with
// #line markers, so that build logs name the original file and line and the cache key covers
// every included file.
#include "kernels/sources.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "anycl/error.hpp"
#include "core/read_file.hpp"

namespace anycl::detail {
namespace fs = std::filesystem;

namespace {
constexpr std::size_t max_resolved_bytes = std::size_t(64) << 20;

[[noreturn]] void file_error(const std::string& path, const std::string& why) {
  throw source_error(path, 0, "kernel source '" + path + "': " + why);
}

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::size_t skip_space(std::string_view s, std::size_t i) noexcept {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

bool is_ident(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// `line` with comments removed, tracking a block comment across lines (string and character
/// literals are respected, so "/*" inside a string opens nothing).
std::string strip_comments(std::string_view line, bool& in_comment) {
  std::string code;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (in_comment) {
      if (c == '*' && i + 1 < line.size() && line[i + 1] == '/') {
        in_comment = false;
        ++i;
        code += ' ';
      }
      continue;
    }
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '/') break;
    if (c == '/' && i + 1 < line.size() && line[i + 1] == '*') {
      in_comment = true;
      ++i;
      continue;
    }
    code += c;
    if (c == '"' || c == '\'') {
      for (++i; i < line.size(); ++i) {
        code += line[i];
        if (line[i] == '\\' && i + 1 < line.size()) {
          code += line[++i];
        } else if (line[i] == c) {
          break;
        }
      }
    }
  }
  return code;
}

/// The directive word after '#' ("include", "pragma", ...) and the index after it, or "".
std::string_view directive(std::string_view code, std::size_t& after) {
  std::size_t i = skip_space(code, 0);
  if (i >= code.size() || code[i] != '#') return {};
  i = skip_space(code, i + 1);
  std::size_t start = i;
  while (i < code.size() && is_ident(code[i])) ++i;
  after = i;
  return code.substr(start, i - start);
}

std::string_view word_at(std::string_view code, std::size_t& i) {
  i = skip_space(code, i);
  std::size_t start = i;
  while (i < code.size() && is_ident(code[i])) ++i;
  return code.substr(start, i - start);
}

/// Calls `visit(code)` for each line of `text` with comments removed, until it returns true.
template <class F>
bool any_code_line(std::string_view text, F visit) {
  bool in_comment = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string code = strip_comments(text.substr(pos, end - pos), in_comment);
    pos = end + 1;
    if (visit(code)) return true;
  }
  return false;
}

bool is_pragma_once(std::string_view code) {
  std::size_t after = 0;
  if (directive(code, after) != "pragma") return false;
  return word_at(code, after) == "once";
}

bool has_pragma_once(std::string_view text) { return any_code_line(text, is_pragma_once); }

/// True for `#pragma once`, or when the first two directives are `#ifndef X` / `#define X`
/// with nothing but comments before them: re-entering such a file adds nothing.
bool is_guarded(std::string_view text) {
  std::string guard;
  bool first = true;
  bool result = false;
  any_code_line(text, [&](const std::string& code) {
    if (is_pragma_once(code)) return result = true;
    if (skip_space(code, 0) == code.size()) return false;
    std::size_t after = 0;
    std::string_view word = directive(code, after);
    if (first) {
      first = false;
      if (word != "ifndef") return true;
      guard = std::string(word_at(code, after));
      return guard.empty();
    }
    result = word == "define" && word_at(code, after) == guard;
    return true;
  });
  return result || has_pragma_once(text);
}

std::string identity(const source_file& f) {
  if (f.embedded) return "embedded:" + f.embedded_path;
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(f.path), ec);
  return ec ? f.path : p.string();
}

bool find_embedded(const std::string& rel, source_file& out) {
  std::string norm = fs::path(rel).lexically_normal().generic_string();
  if (norm.empty() || norm.compare(0, 2, "..") == 0) return false;
  auto text = embedded_kernel_source(norm);
  if (!text) return false;
  out = source_file{};
  out.embedded = true;
  out.embedded_path = norm;
  out.embedded_text = *text;
  out.display = "embedded:" + norm;
  return true;
}

bool find_file(const fs::path& p, source_file& out) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return false;
  out = source_file{};
  out.path = p.string();
  out.display = out.path;
  return true;
}

struct splicer {
  const std::vector<std::string>& dirs;
  resolved_source result;
  std::set<std::string> seen;                              // identities of files read
  std::set<std::string> once;                              // identities of #pragma once files
  std::vector<std::pair<std::string, std::string>> stack;  // identity, "display:line"

  std::string text_of(const source_file& f) {
    return f.embedded ? std::string(f.embedded_text) : read_source_file(f.path);
  }

  bool locate_include(const source_file& from, std::string_view name, bool quoted,
                      source_file& out) {
    if (quoted && !fs::path(name).is_absolute()) {
      if (from.embedded) {
        if (find_embedded((fs::path(from.embedded_path).parent_path() / name).generic_string(),
                          out))
          return true;
      } else if (!from.path.empty() &&
                 find_file(fs::path(from.path).parent_path() / fs::path(name), out)) {
        return true;
      }
    }
    return find_source(name, dirs, out);
  }

  void splice(const source_file& f, const std::string& text, int depth) {
    std::string id = identity(f);
    if (seen.insert(id).second) result.files.push_back(f.display);
    if (has_pragma_once(text)) once.insert(id);  // before the body: a later #include skips it
    std::string& out = result.text;
    out += line_marker(1, f.display);
    bool in_comment = false;
    std::size_t line_no = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string::npos) end = text.size();
      std::string_view line = std::string_view(text).substr(pos, end - pos);
      pos = end + 1;
      ++line_no;
      bool starts_in_comment = in_comment;
      std::string code = strip_comments(line, in_comment);
      std::size_t after = 0;
      std::string_view word = starts_in_comment ? std::string_view() : directive(code, after);
      if (word == "pragma" && is_pragma_once(code)) {
        out += '\n';  // the file is spliced once; the compiler would warn about it in a main file
        continue;
      }
      if (word == "include") {
        std::size_t i = skip_space(code, after);
        char open = i < code.size() ? code[i] : '\0';
        char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        std::size_t stop = close != '\0' ? code.find(close, i + 1) : std::string::npos;
        if (stop != std::string::npos) {
          std::string name = code.substr(i + 1, stop - i - 1);
          include(f, line_no, name, open == '"', depth);
          out += line_marker(line_no + 1, f.display);
          continue;
        }
      }
      out += line;
      out += '\n';
      if (out.size() > max_resolved_bytes)
        throw source_error(f.display, line_no,
                           "kernel source '" + result.name + "': more than " +
                               std::to_string(max_resolved_bytes >> 20) +
                               " MiB with its includes spliced in");
    }
  }

  void include(const source_file& from, std::size_t line_no, const std::string& name, bool quoted,
               int depth) {
    std::string where = from.display + ":" + std::to_string(line_no);
    source_file inc;
    if (!locate_include(from, name, quoted, inc)) {
      if (!quoted) {  // e.g. a header the compiler provides: left to it, unchanged
        result.text += "#include <" + name + ">\n";
        return;
      }
      std::vector<std::string> places;
      if (!from.embedded && !from.path.empty())
        places.push_back(fs::path(from.path).parent_path().string());
      for (const auto& d : dirs)
        if (std::find(places.begin(), places.end(), d) == places.end()) places.push_back(d);
      places.push_back("the embedded cl_kernels/");
      std::string looked;
      for (const auto& p : places) looked += (looked.empty() ? "" : ", ") + p;
      throw source_error(
          from.display, line_no,
          where + ": #include \"" + name + "\": file not found; looked in " + looked);
    }
    std::string id = identity(inc);
    if (once.count(id) != 0) {
      result.text += '\n';
      return;
    }
    std::string text = text_of(inc);
    for (const auto& frame : stack) {
      if (frame.first != id) continue;
      if (is_guarded(text)) {  // a guarded file re-entered expands to nothing
        result.text += '\n';
        return;
      }
      std::string chain;
      for (std::size_t i = 1; i < stack.size(); ++i) chain += stack[i].second + " -> ";
      throw source_error(from.display, line_no,
                         where + ": #include \"" + name + "\" is an include cycle (" + chain +
                             where + " -> " + inc.display +
                             "); add an include guard or #pragma once");
    }
    if (depth + 1 > max_include_depth)
      throw source_error(from.display, line_no,
                         where + ": #include \"" + name + "\" nests deeper than " +
                             std::to_string(max_include_depth) + " files");
    stack.emplace_back(id, where);
    splice(inc, text, depth + 1);
    if (!result.text.empty() && result.text.back() != '\n') result.text += '\n';
    stack.pop_back();
  }
};
}  // namespace

std::string read_source_file(const std::string& path) {
  file_read r = read_regular_file(path, max_source_file_bytes);
  if (r.result == file_read::outcome::too_big)
    file_error(path, "is " + std::to_string(r.size) + " bytes, more than the " +
                         std::to_string(max_source_file_bytes >> 20) +
                         " MiB limit for a kernel source");
  if (!r) file_error(path, r.why(max_source_file_bytes));
  std::string text(r.bytes.begin(), r.bytes.end());
  std::size_t nul = text.find('\0');
  if (nul != std::string::npos) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < nul; ++i) line += text[i] == '\n';
    throw source_error(path, line,
                       "kernel source '" + path + "': contains a NUL byte at offset " +
                           std::to_string(nul) + " (line " + std::to_string(line) +
                           "); OpenCL compilers silently stop reading there");
  }
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
  return text;
}

bool find_source(std::string_view name, const std::vector<std::string>& dirs, source_file& out) {
  if (name.empty()) return false;
  fs::path p(name);
  if (p.is_absolute()) return find_file(p, out);
  for (const auto& d : dirs)
    if (!d.empty() && find_file(fs::path(d) / p, out)) return true;
  return find_embedded(std::string(name), out);
}

resolved_source splice_includes(const source_file& origin, std::string text,
                                const std::vector<std::string>& dirs) {
  splicer s{dirs, {}, {}, {}, {}};
  s.result.name = origin.display;
  s.stack.emplace_back(identity(origin), origin.display);
  s.splice(origin, text, 0);
  if (!s.result.text.empty() && s.result.text.back() != '\n') s.result.text += '\n';
  return std::move(s.result);
}

std::string line_marker(std::size_t line, std::string_view name) {
  std::string s = "#line " + std::to_string(line) + " \"";
  for (char c : name) {
    if (c == '"' || c == '\\') s += '\\';
    if (c == '\n') {
      s += "\\n";
      continue;
    }
    s += c;
  }
  s += "\"\n";
  return s;
}

}  // namespace anycl::detail
