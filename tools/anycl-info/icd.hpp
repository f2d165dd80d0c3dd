// SPDX-License-Identifier: Apache-2.0
// Diagnostics of the OpenCL ICD loader (ocl-icd's rules, libOpenCL(7)): where it looks for drivers,
// what each .icd file names, whether that library loads, and which files would crash or hang the
// loader. Anything that runs driver code runs in a child process, so a broken installation is
// reported instead of crashing the tool.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "self_child.hpp"

namespace anycl::tools {

/// What OCL_ICD_VENDORS (else OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors) names.
enum class icd_search { folder, icd_file, library };

/// What one .icd file (or a library named by OCL_ICD_VENDORS) means to the loader.
enum class icd_status {
  ok,               ///< the library loads and reports at least one platform
  no_platforms,     ///< the library is a driver but reports no platform
  ignored,          ///< empty, unreadable, names no library or is a folder: the loader skips it
  crashes_loader,   ///< starts with a NUL byte: ocl-icd's clGetPlatformIDs dies with SIGSEGV
  hangs_loader,     ///< a FIFO or device file: the loader blocks opening or reading it
  library_missing,  ///< dlopen fails: the library named is not there or does not link
  not_a_driver,     ///< loads, but lacks clIcdGetPlatformIDsKHR/clGetExtensionFunctionAddress
  library_crashed,  ///< loading or asking the library killed the checking child
  library_hung,     ///< loading or asking the library did not finish in time
};

/// "ok", "no_platforms", ... as in the JSON output.
const char* to_string(icd_status status) noexcept;
/// False for the statuses that take the loader (so every OpenCL program) down with them.
bool is_safe(icd_status status) noexcept;

/// One driver entry the loader reads.
struct icd_entry {
  std::string file;     ///< the .icd file; empty when OCL_ICD_VENDORS names a library
  std::string library;  ///< the library the loader would dlopen, as its bytes (see printable())
  icd_status status = icd_status::ignored;
  std::string detail;  ///< why, in words (dlerror, the signal, ...)
  int platforms = -1;  ///< what the library reports; -1 when not asked
};

/// clGetPlatformIDs asked in a child process with this process's environment.
struct platform_probe {
  bool ran = false;
  child_result child;
  int platforms = -1;           ///< when the child finished: the number, 0 for -1001
  std::string outcome() const;  ///< "ok", "no_platform", "crashed", "timed_out" or "failed"
  std::string describe() const;
};

/// Everything found out about the loader.
struct loader_report {
  std::string library;        ///< the libOpenCL that this process uses (dladdr); empty if unknown
  std::string name, version;  ///< from ocl-icd's clGetICDLoaderInfoOCLICD, once safe to ask
  /// The loader's environment variables, with their values when set.
  std::vector<std::pair<std::string, std::optional<std::string>>> environment;
  icd_search search = icd_search::folder;
  std::string path;  ///< the folder, .icd file or library the loader reads
  bool path_exists = false;
  std::vector<icd_entry> entries;  ///< sorted by file name
  platform_probe probe;            ///< run only when an entry is not safe
  bool safe() const;               ///< every entry is safe to hand to the loader
};

/// Reads the environment and the vendor folder, and checks every named library in a child process.
/// Loads no driver into this process: call it before any other OpenCL use.
loader_report inspect_loader();

/// How this process lists platforms after inspect_loader().
enum class listing_mode {
  direct,                ///< with the loader's own folder: nothing in it is unsafe
  without_unsafe_files,  ///< with a private copy of the folder that leaves out the unsafe files
  none,                  ///< not at all: nothing safe is left
};
/// "direct", "without_unsafe_files", "none".
const char* to_string(listing_mode mode) noexcept;

/// Makes the loader safe to call in this process. When the report is not safe, first asks a child
/// (report.probe): if the child lists the platforms after all, the loader is used as it is;
/// otherwise OCL_ICD_VENDORS points at a private folder holding only the safe .icd files (the
/// loader reads it once, at the first OpenCL call; the destructor removes it), or nothing is
/// listed.
class safe_listing {
 public:
  explicit safe_listing(loader_report& report);
  ~safe_listing();
  safe_listing(const safe_listing&) = delete;
  safe_listing& operator=(const safe_listing&) = delete;
  listing_mode mode() const noexcept { return mode_; }

 private:
  listing_mode mode_ = listing_mode::direct;
  std::string folder_;              // the private folder, when made
  std::vector<std::string> files_;  // the files written into it
};

/// Fills report.name and report.version; call only after the loader has been used safely.
void read_loader_identity(loader_report& report);

/// Lines of advice when no platform is found: what to install and what in the report is wrong.
std::vector<std::string> no_platform_advice(const loader_report& report);

/// Problems a user should fix (unsafe files, a crashing or hanging loader), one sentence each.
std::vector<std::string> loader_problems(const loader_report& report);

/// The hidden child modes of a tool that uses inspect_loader(): when argv asks for one, runs it and
/// ends the process; otherwise returns. Call it first thing in main().
void run_icd_child(int argc, char** argv);

/// `s` with bytes outside printable ASCII written as \xNN, for messages and JSON (.icd files and
/// dlerror() may hold anything).
std::string printable(const std::string& s);

}  // namespace anycl::tools
