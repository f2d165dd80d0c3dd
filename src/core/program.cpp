// SPDX-License-Identifier: Apache-2.0
// Programs: creation from source or binaries, builds with logs, binaries and kernel names.
#include "anycl/program.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "core/info.hpp"
#include "core/process.hpp"
#include "core/program_build.hpp"
#include "kernels/embedded.hpp"

namespace anycl {

// --- build options ---
namespace {
void check_token(const char* what, std::string_view value, bool allow_empty) {
  if (value.empty() && !allow_empty)
    throw std::invalid_argument(std::string("build_options::") + what + ": empty value");
  for (char c : value)
    if (std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '\\')
      throw std::invalid_argument(std::string("build_options::") + what + ": '" +
                                  std::string(value) +
                                  "' contains whitespace, a quote or a backslash");
}

void check_macro_name(std::string_view name) {
  bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    throw std::invalid_argument("build_options::define: '" + std::string(name) +
                                "' is not a macro name (letters, digits, '_', not starting with a "
                                "digit)");
}

void append(std::string& text, std::string_view piece) {
  if (!text.empty()) text += ' ';
  text += piece;
}
}  // namespace

build_options& build_options::define(std::string_view name) {
  check_macro_name(name);
  append(text_, "-D" + std::string(name));
  return *this;
}
build_options& build_options::define(std::string_view name, std::string_view value) {
  check_macro_name(name);
  check_token("define", value, false);
  append(text_, "-D" + std::string(name) + "=" + std::string(value));
  return *this;
}
build_options& build_options::include_dir(std::string_view dir) {
  check_token("include_dir", dir, false);
  append(text_, "-I" + std::string(dir));
  include_dirs_.emplace_back(dir);
  return *this;
}
build_options& build_options::cl_std(std::string_view version) {
  check_token("cl_std", version, false);
  append(text_, "-cl-std=" + std::string(version));
  return *this;
}
build_options& build_options::flag(std::string_view raw) {
  if (raw.find('\0') != std::string_view::npos)
    throw std::invalid_argument("build_options::flag: contains a NUL byte");
  if (!raw.empty()) append(text_, raw);
  return *this;
}

std::string build_options::with_environment() const {
  std::string opts = text_;
  if (const char* extra = std::getenv("ANYCL_BUILD_OPTIONS"); extra != nullptr && *extra != '\0')
    append(opts, extra);
  return opts;
}

// --- programs ---
program::program(const anycl::context& ctx, std::string_view source, std::string name)
    : name_(std::move(name)) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("program '" + name_ + "': the context is empty");
  std::size_t nul = source.find('\0');
  if (nul != std::string_view::npos)
    throw std::invalid_argument("program '" + name_ + "': source contains a NUL byte at offset " +
                                std::to_string(nul) +
                                "; OpenCL compilers silently stop reading there");
  const char* text = source.data();
  std::size_t length = source.size();
  static const char empty[] = "";
  if (length == 0) text = empty;
  cl_int status = CL_SUCCESS;
  cl_program raw = clCreateProgramWithSource(ctx.get(), 1, &text, &length, &status);
  ANYCL_CHECK(status, "clCreateProgramWithSource", "program '", name_, "' (", length, " bytes)");
  h_ = detail::handle<cl_program>::adopt(raw);
}

program program::from_binaries(const anycl::context& ctx, const std::vector<device>& devices,
                               const std::vector<std::vector<unsigned char>>& binaries,
                               std::string name) {
  detail::check_not_forked();
  if (devices.empty() || devices.size() != binaries.size())
    throw std::invalid_argument("program '" + name + "': " + std::to_string(binaries.size()) +
                                " binaries for " + std::to_string(devices.size()) +
                                " devices; give one binary per device");
  std::vector<cl_device_id> ids;
  std::vector<std::size_t> sizes;
  std::vector<const unsigned char*> ptrs;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (binaries[i].empty())
      throw std::invalid_argument("program '" + name + "': binary " + std::to_string(i) +
                                  " is empty");
    ids.push_back(devices[i].get());
    sizes.push_back(binaries[i].size());
    ptrs.push_back(binaries[i].data());
  }
  std::vector<cl_int> per_device(ids.size(), CL_SUCCESS);
  cl_int status = CL_SUCCESS;
  cl_program raw =
      clCreateProgramWithBinary(ctx.get(), static_cast<cl_uint>(ids.size()), ids.data(),
                                sizes.data(), ptrs.data(), per_device.data(), &status);
  if (status != CL_SUCCESS) {
    std::string which;
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (per_device[i] != CL_SUCCESS)
        which += " '" + devices[i].name() + "': " + std::string(status_name(per_device[i])) + ";";
    detail::throw_api_error(
        "clCreateProgramWithBinary", status,
        "program '" + name + "'" + (which.empty() ? "" : ", rejected by" + which));
  }
  return program(detail::handle<cl_program>::adopt(raw), std::move(name));
}

program program::adopt(cl_program raw, std::string name) {
  return program(detail::handle<cl_program>::adopt(raw), std::move(name));
}
program program::retain(cl_program raw, std::string name) {
  return program(detail::handle<cl_program>::retain(raw), std::move(name));
}

namespace {
template <class T>
T program_query(cl_program p, cl_program_info param, const std::string& name) {
  detail::check_not_forked();
  if (p == nullptr) throw std::invalid_argument("program '" + name + "' is empty");
  return detail::query<T>("clGetProgramInfo", param, [&](size_t s, void* v, size_t* r) {
    return clGetProgramInfo(p, param, s, v, r);
  });
}
}  // namespace

anycl::context program::context() const {
  return anycl::context::retain(program_query<cl_context>(get(), CL_PROGRAM_CONTEXT, name_));
}

std::vector<device> program::devices() const {
  auto ids = program_query<std::vector<cl_device_id>>(get(), CL_PROGRAM_DEVICES, name_);
  std::vector<device> out;
  for (cl_device_id id : ids) out.push_back(device::retain(id));
  return out;
}

std::string program::build_log(const device& dev) const {
  detail::check_not_forked();
  return detail::query<std::string>(
      "clGetProgramBuildInfo", CL_PROGRAM_BUILD_LOG, [&](size_t s, void* v, size_t* r) {
        return clGetProgramBuildInfo(get(), dev.get(), CL_PROGRAM_BUILD_LOG, s, v, r);
      });
}

void program::build(const build_options& options, const std::vector<device>& devices) {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("program '" + name_ + "' is empty");
  std::string opts = options.with_environment();
  options_ = opts;
  std::vector<device> targets = devices.empty() ? this->devices() : devices;
  std::vector<cl_device_id> ids;
  for (const device& d : targets) ids.push_back(d.get());
  cl_int status = clBuildProgram(get(), static_cast<cl_uint>(ids.size()), ids.data(), opts.c_str(),
                                 nullptr, nullptr);
  detail::finish_build("clBuildProgram", status, get(), name_, opts, targets);
}

namespace detail {

void finish_build(const char* call, cl_int status, cl_program raw, const std::string& name,
                  const std::string& opts, const std::vector<device>& targets) {
  bool print = false;
  if (const char* e = std::getenv("ANYCL_COMPILER_OUTPUT")) print = std::strcmp(e, "1") == 0;
  if (status == CL_SUCCESS && !print) return;
  std::vector<anycl::build_log> logs;
  for (const device& d : targets) {
    std::string log = "(the driver gave no log)";
    std::size_t size = 0;
    if (raw != nullptr && clGetProgramBuildInfo(raw, d.get(), CL_PROGRAM_BUILD_LOG, 0, nullptr,
                                                &size) == CL_SUCCESS) {
      std::string text(size, '\0');
      if (clGetProgramBuildInfo(raw, d.get(), CL_PROGRAM_BUILD_LOG, size, text.data(), nullptr) ==
          CL_SUCCESS)
        log = text.c_str();
    }
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    logs.push_back({d.name(), std::move(log)});
  }
  if (status != CL_SUCCESS) throw build_error(call, status, name, opts, std::move(logs));
  for (const auto& l : logs)
    if (!l.log.empty())
      std::fprintf(stderr, "anycl: build log of '%s' on '%s' (options: %s):\n%s\n", name.c_str(),
                   l.device.c_str(), opts.empty() ? "none" : opts.c_str(), l.log.c_str());
}

}  // namespace detail

std::vector<std::vector<unsigned char>> program::binaries() const {
  auto sizes = program_query<std::vector<std::size_t>>(get(), CL_PROGRAM_BINARY_SIZES, name_);
  std::vector<std::vector<unsigned char>> out(sizes.size());
  std::vector<unsigned char*> ptrs(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out[i].resize(sizes[i]);
    ptrs[i] = out[i].empty() ? nullptr : out[i].data();
  }
  ANYCL_CHECK(clGetProgramInfo(get(), CL_PROGRAM_BINARIES, ptrs.size() * sizeof(unsigned char*),
                               ptrs.data(), nullptr),
              "clGetProgramInfo", "binaries of program '", name_, "'");
  return out;
}

std::vector<std::string> program::kernel_names() const {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("program '" + name_ + "' is empty");
  std::string joined;
  cl_int status = CL_SUCCESS;
  try {
    joined = detail::query<std::string>(
        "clGetProgramInfo", CL_PROGRAM_KERNEL_NAMES, [&](size_t s, void* v, size_t* r) {
          return clGetProgramInfo(get(), CL_PROGRAM_KERNEL_NAMES, s, v, r);
        });
  } catch (const api_error& e) {
    status = e.status();
  }
  if (status != CL_SUCCESS)
    detail::throw_api_error(
        "clGetProgramInfo", status,
        "program '" + name_ + "' has not been built successfully; call build() first");
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= joined.size() && !joined.empty()) {
    std::size_t end = joined.find(';', start);
    if (end == std::string::npos) end = joined.size();
    if (end > start) names.push_back(joined.substr(start, end - start));
    start = end + 1;
  }
  return names;
}

anycl::kernel program::kernel(const std::string& name) const { return anycl::kernel(*this, name); }

std::optional<std::string_view> embedded_kernel_source(std::string_view path) noexcept {
  for (const detail::embedded_file* f = detail::embedded_files(); f->path != nullptr; ++f)
    if (path == f->path) return std::string_view(f->data, f->size);
  return std::nullopt;
}

}  // namespace anycl
