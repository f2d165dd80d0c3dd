// SPDX-License-Identifier: Apache-2.0
// Programs from OpenCL C source or binaries, build options, and failed builds with their logs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/context.hpp"
#include "anycl/detail/handle.hpp"
#include "anycl/device.hpp"
#include "anycl/export.hpp"

namespace anycl {

class kernel;
namespace detail {
struct first_launch_hook;
}
template <class... Ts>
class kernel_function;

/// Options for clBuildProgram, built up by name; str() is what the compiler sees.
/// ANYCL_BUILD_OPTIONS from the environment is appended at build time.
class ANYCL_EXPORT build_options {
 public:
  build_options() = default;
  /// -D name (value "1" implied by the compiler); throws std::invalid_argument for a bad name.
  build_options& define(std::string_view name);
  /// -D name=value; the value may not contain whitespace or quotes.
  build_options& define(std::string_view name, std::string_view value);
  /// -I dir
  build_options& include_dir(std::string_view dir);
  /// `-cl-std=<version>`, e.g. "CL1.2".
  build_options& cl_std(std::string_view version);
  /// Any other option, passed through unchanged (e.g. "-cl-fast-relaxed-math").
  build_options& flag(std::string_view raw);
  const std::string& str() const noexcept { return text_; }
  /// str() with ANYCL_BUILD_OPTIONS appended: what a build passes to the compiler.
  std::string with_environment() const;
  /// The include_dir()s, in order: kernel_loader looks for `#include`d files there too.
  const std::vector<std::string>& include_dirs() const noexcept { return include_dirs_; }

 private:
  std::string text_;
  std::vector<std::string> include_dirs_;
};

/// A header compile() hands the compiler by name (clCompileProgram's input headers): the
/// program's `#include "name"` reads `text`.
struct embedded_header {
  std::string name;  ///< as the program's `#include` writes it, e.g. "common.h" or "lib/math.h"
  std::string text;
};

/// What program::link makes: a program with kernels, or a library to link again
/// (-create-library).
enum class link_target { executable, library };

/// Owns a cl_program. `name` (usually the source file) appears in every message about it.
class ANYCL_EXPORT program {
 public:
  program() = default;
  /// Creates from OpenCL C source (clCreateProgramWithSource). Throws std::invalid_argument if the
  /// source contains a NUL byte (drivers silently truncate there), naming its offset.
  program(const anycl::context& ctx, std::string_view source, std::string name = "<source>");
  /// Creates from one binary per device (clCreateProgramWithBinary); build() still has to be
  /// called. Throws std::invalid_argument for mismatched counts or empty binaries, api_error with
  /// the devices whose binary was rejected.
  static program from_binaries(const anycl::context& ctx, const std::vector<device>& devices,
                               const std::vector<std::vector<unsigned char>>& binaries,
                               std::string name = "<binary>");
  /// Creates from intermediate language, e.g. SPIR-V (clCreateProgramWithIL); build() still has
  /// to be called. Every device must report an IL in CL_DEVICE_IL_VERSION: otherwise
  /// std::invalid_argument names the device and the query before the driver is called (POCL
  /// reports none), as it does for empty IL.
  static program from_il(const anycl::context& ctx, const std::vector<unsigned char>& il,
                         std::string name = "<il>");
  /// Links compiled programs and libraries (clLinkProgram) into a program with kernels or, with
  /// link_target::library, a library to link again. Every part must be compiled (compile()) or a
  /// library, of `ctx`: std::invalid_argument names the part otherwise, before the driver. A
  /// failed link throws build_error("clLinkProgram") with the linker's logs where the driver gives
  /// a program to read them from (POCL gives none).
  static program link(const anycl::context& ctx, const std::vector<program>& parts,
                      const build_options& options = {},
                      link_target target = link_target::executable, std::string name = "<linked>");

  static program adopt(cl_program raw, std::string name = "<program>");
  static program retain(cl_program raw, std::string name = "<program>");

  cl_program get() const noexcept { return h_.get(); }
  explicit operator bool() const noexcept { return static_cast<bool>(h_); }
  const std::string& name() const noexcept { return name_; }
  anycl::context context() const;
  /// The devices the program is for (CL_PROGRAM_DEVICES).
  std::vector<device> devices() const;

  /// Builds for `devices` (all of the program's devices when empty). Throws build_error carrying
  /// every device's log and the options. With ANYCL_COMPILER_OUTPUT=1 a non-empty log of a
  /// successful build is printed to stderr.
  void build(const build_options& options = {}, const std::vector<device>& devices = {});
  /// Compiles without linking (clCompileProgram) for `devices` (all when empty); `headers` are
  /// found by the source's `#include` before the include path. Throws build_error
  /// ("clCompileProgram") with the logs; std::invalid_argument for an empty or repeated header
  /// name or a header holding a NUL byte, before the driver (POCL crashes on a null header).
  void compile(const build_options& options = {}, const std::vector<embedded_header>& headers = {},
               const std::vector<device>& devices = {});
  /// The options of the last build (ANYCL_BUILD_OPTIONS included).
  const std::string& options() const noexcept { return options_; }
  /// The compiler's output for one device (CL_PROGRAM_BUILD_LOG).
  std::string build_log(const device& dev) const;
  /// One binary per device of devices(), in that order (CL_PROGRAM_BINARIES).
  std::vector<std::vector<unsigned char>> binaries() const;
  /// The kernels of a built program; throws api_error if it is not built.
  std::vector<std::string> kernel_names() const;

  /// The kernel `name`; throws api_error listing the kernels there if there is none.
  anycl::kernel kernel(const std::string& name) const;
  /// The kernel `name` as a typed function (see kernel_function).
  template <class... Ts>
  kernel_function<Ts...> function(const std::string& name) const;

  /// (internal) Run once when the first launch of any kernel made from this program completes;
  /// the kernel loader saves binaries then, as some drivers compile at first launch.
  const std::shared_ptr<detail::first_launch_hook>& launch_hook() const noexcept { return hook_; }
  void set_launch_hook(std::shared_ptr<detail::first_launch_hook> hook) noexcept {
    hook_ = std::move(hook);
  }

 private:
  program(detail::handle<cl_program> h, std::string name) noexcept
      : h_(std::move(h)), name_(std::move(name)) {}
  detail::handle<cl_program> h_;
  std::string name_;
  std::string options_;
  std::shared_ptr<detail::first_launch_hook> hook_;
};

/// The copy of `cl_kernels/<path>` embedded in the library at build time, if there is one.
ANYCL_EXPORT std::optional<std::string_view> embedded_kernel_source(std::string_view path) noexcept;

}  // namespace anycl

#include "anycl/kernel.hpp"
