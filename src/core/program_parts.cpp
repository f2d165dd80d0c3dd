// SPDX-License-Identifier: Apache-2.0
// Programs in parts: separate compilation with embedded headers, linking of compiled programs
// and libraries, and programs from intermediate language (SPIR-V).
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "anycl/program.hpp"
#include "core/info.hpp"
#include "core/process.hpp"
#include "core/program_build.hpp"

namespace anycl {

namespace {

// The headers as clCompileProgram takes them: a program per text, and the names.
struct header_programs {
  std::vector<program> programs;
  std::vector<cl_program> raw;
  std::vector<const char*> names;
};

header_programs make_headers(const context& ctx, const std::string& what,
                             const std::vector<embedded_header>& headers) {
  header_programs out;
  std::set<std::string> seen;
  for (const embedded_header& h : headers) {
    if (h.name.empty())
      throw std::invalid_argument(what + ": an embedded header has an empty name");
    if (!seen.insert(h.name).second)
      throw std::invalid_argument(what + ": the embedded header '" + h.name + "' is given twice");
    // program's constructor refuses a NUL byte, naming its offset.
    out.programs.emplace_back(ctx, h.text, h.name);
  }
  for (std::size_t i = 0; i < headers.size(); ++i) {
    out.raw.push_back(out.programs[i].get());
    out.names.push_back(headers[i].name.c_str());
  }
  return out;
}

// CL_PROGRAM_BINARY_TYPE of `p` on `d`.
cl_program_binary_type binary_type(const program& p, const device& d) {
  cl_program_binary_type t = CL_PROGRAM_BINARY_TYPE_NONE;
  ANYCL_CHECK(
      clGetProgramBuildInfo(p.get(), d.get(), CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr),
      "clGetProgramBuildInfo", "CL_PROGRAM_BINARY_TYPE of program '", p.name(), "' on '", d.name(),
      "'");
  return t;
}

const char* binary_type_name(cl_program_binary_type t) {
  switch (t) {
    case CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT:
      return "a compiled object";
    case CL_PROGRAM_BINARY_TYPE_LIBRARY:
      return "a library";
    case CL_PROGRAM_BINARY_TYPE_EXECUTABLE:
      return "an executable (built)";
    default:
      return "neither compiled nor built";
  }
}

// Refuses, naming the part, what clLinkProgram would reject or (POCL) fail without a log.
void check_parts(const context& ctx, const std::vector<program>& parts,
                 const std::vector<device>& devices) {
  if (parts.empty()) throw std::invalid_argument("program::link: no programs to link");
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const program& p = parts[i];
    if (!p)
      throw std::invalid_argument("program::link: part " + std::to_string(i) +
                                  " is empty (default-constructed)");
    const std::string which = "part " + std::to_string(i) + " ('" + p.name() + "')";
    if (p.context() != ctx)
      throw std::invalid_argument("program::link: " + which +
                                  " belongs to another context than the link's");
    for (const device& d : devices) {
      const cl_program_binary_type t = binary_type(p, d);
      if (t != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT && t != CL_PROGRAM_BINARY_TYPE_LIBRARY)
        throw std::invalid_argument("program::link: " + which + " is " + binary_type_name(t) +
                                    " on '" + d.name() +
                                    "'; link takes compiled programs (compile()) and libraries");
    }
  }
}

}  // namespace

void program::compile(const build_options& options, const std::vector<embedded_header>& headers,
                      const std::vector<device>& devices) {
  detail::check_not_forked();
  if (!h_) throw std::invalid_argument("program '" + name_ + "' is empty");
  header_programs hp = make_headers(context(), "program::compile of '" + name_ + "'", headers);
  std::string opts = options.with_environment();
  options_ = opts;
  std::vector<device> targets = devices.empty() ? this->devices() : devices;
  std::vector<cl_device_id> ids;
  for (const device& d : targets) ids.push_back(d.get());
  const cl_int status = clCompileProgram(
      get(), static_cast<cl_uint>(ids.size()), ids.data(), opts.c_str(),
      static_cast<cl_uint>(hp.raw.size()), hp.raw.empty() ? nullptr : hp.raw.data(),
      hp.names.empty() ? nullptr : hp.names.data(), nullptr, nullptr);
  detail::finish_build("clCompileProgram", status, get(), name_, opts, targets);
}

program program::link(const anycl::context& ctx, const std::vector<program>& parts,
                      const build_options& options, link_target target, std::string name) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("program::link: the context is empty");
  const std::vector<device> devices = ctx.devices();
  check_parts(ctx, parts, devices);
  // Link options only: ANYCL_BUILD_OPTIONS holds compile options a linker refuses.
  std::string opts = options.str();
  if (target == link_target::library) opts += opts.empty() ? "-create-library" : " -create-library";
  std::vector<cl_program> raw;
  for (const program& p : parts) raw.push_back(p.get());
  std::vector<cl_device_id> ids;
  for (const device& d : devices) ids.push_back(d.get());
  cl_int status = CL_SUCCESS;
  cl_program linked =
      clLinkProgram(ctx.get(), static_cast<cl_uint>(ids.size()), ids.data(), opts.c_str(),
                    static_cast<cl_uint>(raw.size()), raw.data(), nullptr, nullptr, &status);
  program out(detail::handle<cl_program>::adopt(linked), std::move(name));
  out.options_ = opts;
  detail::finish_build("clLinkProgram", status, linked, out.name_, opts, devices);
  return out;
}

program program::from_il(const anycl::context& ctx, const std::vector<unsigned char>& il,
                         std::string name) {
  detail::check_not_forked();
  if (!ctx) throw std::invalid_argument("program::from_il: the context is empty");
  if (il.empty()) throw std::invalid_argument("program::from_il: '" + name + "' holds no bytes");
  for (const device& d : ctx.devices()) {
    std::string versions;
    try {
      versions = d.info<std::string>(CL_DEVICE_IL_VERSION);
    } catch (const api_error&) {
      // An OpenCL 1.x device does not know the query: it takes no IL either.
    }
    if (versions.find_first_not_of(' ') == std::string::npos)
      throw std::invalid_argument("program::from_il: device '" + d.name() +
                                  "' reports no intermediate language in CL_DEVICE_IL_VERSION, "
                                  "so it cannot take '" +
                                  name + "' (SPIR-V); build it from OpenCL C source instead");
  }
  cl_int status = CL_SUCCESS;
  cl_program raw = clCreateProgramWithIL(ctx.get(), il.data(), il.size(), &status);
  ANYCL_CHECK(status, "clCreateProgramWithIL", "'", name, "', ", il.size(), " bytes");
  return program(detail::handle<cl_program>::adopt(raw), std::move(name));
}

}  // namespace anycl
