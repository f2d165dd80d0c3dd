// SPDX-License-Identifier: Apache-2.0
// AnyCL's exception types and the status-name table: every failing OpenCL call becomes one of
// these.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/cl.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// The name of an OpenCL status code ("CL_INVALID_KERNEL_NAME"), covering OpenCL 3.0 core and the
/// common extension codes (-1001 included); "unknown OpenCL status" for anything else.
ANYCL_EXPORT std::string_view status_name(cl_int status) noexcept;

/// A short hint on what usually causes `status` and what to do about it; empty where there is none.
ANYCL_EXPORT std::string_view status_hint(cl_int status) noexcept;

/// Base of every exception AnyCL throws (argument errors found before any OpenCL call throw
/// std::invalid_argument or std::out_of_range instead, with the same kind of message).
class ANYCL_EXPORT error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An OpenCL call failed (or was refused before the call because the driver would crash).
/// what() reads "clCreateKernel failed: CL_INVALID_KERNEL_NAME (-46): <detail>. Hint: <hint>".
class ANYCL_EXPORT api_error : public error {
 public:
  api_error(std::string call, cl_int status, std::string detail);
  /// The OpenCL entry point, e.g. "clCreateKernel".
  const std::string& call() const noexcept { return call_; }
  /// The status code the call returned.
  cl_int status() const noexcept { return status_; }
  /// What AnyCL was doing (device, kernel, file, sizes).
  const std::string& detail() const noexcept { return detail_; }

 protected:
  api_error(std::string call, cl_int status, std::string detail, std::string message);

 private:
  std::string call_;
  cl_int status_;
  std::string detail_;
};

/// clGetPlatformIDs found no platform (-1001): what() says which package to install and how to
/// check.
class ANYCL_EXPORT no_platform_error : public api_error {
 public:
  explicit no_platform_error(cl_int status);
};

/// One device's build log.
struct build_log {
  std::string device;  ///< device name
  std::string log;     ///< the compiler's output, may be empty
};

/// clBuildProgram (or clCompileProgram, clLinkProgram) failed: carries every device's log, the
/// options and the source's name.
class ANYCL_EXPORT build_error : public api_error {
 public:
  build_error(cl_int status, std::string source_name, std::string options,
              std::vector<build_log> logs);
  /// The same for `call` ("clCompileProgram", "clLinkProgram").
  build_error(std::string call, cl_int status, std::string source_name, std::string options,
              std::vector<build_log> logs);
  const std::string& source_name() const noexcept { return source_name_; }
  const std::string& options() const noexcept { return options_; }
  const std::vector<build_log>& logs() const noexcept { return logs_; }

 private:
  std::string source_name_;
  std::string options_;
  std::vector<build_log> logs_;
};

/// No device matches a selection spec; what() lists every platform and device with the spec that
/// selects it.
class ANYCL_EXPORT device_not_found : public error {
 public:
  using error::error;
};

/// OpenCL was used in a child process forked after the parent initialised OpenCL; drivers hang
/// there. Start children with posix_spawn/exec instead, or fork before the first OpenCL use.
class ANYCL_EXPORT used_after_fork : public error {
 public:
  using error::error;
};

/// A kernel source file cannot be used: missing, unreadable, not a regular file, too large, holds a
/// NUL byte, or an `#include` in it is missing or cyclic. path() is the file at fault (for an
/// `#include`, the file that contains it) and line() the line of the `#include` (0 when none).
class ANYCL_EXPORT source_error : public error {
 public:
  source_error(std::string path, std::size_t line, const std::string& message)
      : error(message), path_(std::move(path)), line_(line) {}
  const std::string& path() const noexcept { return path_; }
  std::size_t line() const noexcept { return line_; }

 private:
  std::string path_;
  std::size_t line_;
};

/// A device that cannot compile source (or a loader in binary-only mode) has no prebuilt binary
/// for a program. what() lists every file looked for and the anycl-build command that makes one.
class ANYCL_EXPORT binary_not_found : public error {
 public:
  binary_not_found(const std::string& message, std::vector<std::string> candidates)
      : error(message), candidates_(std::move(candidates)) {}
  const std::vector<std::string>& candidates() const noexcept { return candidates_; }

 private:
  std::vector<std::string> candidates_;
};

/// Called when a release in a destructor fails (destructors never throw). `object` names the type
/// ("cl_mem"), `call` the release function.
using cleanup_error_handler =
    std::function<void(std::string_view object, std::string_view call, cl_int status)>;

/// Replaces the cleanup-error handler and returns the previous one; an empty handler restores the
/// default, which prints one warning line to stderr.
ANYCL_EXPORT cleanup_error_handler set_cleanup_error_handler(cleanup_error_handler handler);

namespace detail {
/// Sends a failed release to the cleanup-error handler; never throws.
ANYCL_EXPORT void report_cleanup_error(std::string_view object, std::string_view call,
                                       cl_int status) noexcept;
/// Throws api_error (or no_platform_error for -1001); kept out of line so callers stay small.
[[noreturn]] ANYCL_EXPORT void throw_api_error(const char* call, cl_int status, std::string detail);
}  // namespace detail

}  // namespace anycl
