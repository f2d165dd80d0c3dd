// SPDX-License-Identifier: Apache-2.0
// ICD loader diagnostics: the vendor folder read without loading anything, driver libraries and
// the platform listing tried in child processes, and a private vendor folder without the files
// that crash the loader.
#include "icd.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "anycl/cl.hpp"
#include "anycl/error.hpp"
#include "anycl/platform.hpp"

namespace anycl::tools {

std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

namespace {
constexpr const char* default_vendor_folder = "/etc/OpenCL/vendors";
constexpr const char* child_check_library = "--anycl-internal-icd-library";
constexpr const char* child_count_platforms = "--anycl-internal-count-platforms";
constexpr const char* child_prefix = "anycl-icd-child: ";
constexpr std::size_t icd_read_limit = 64 * 1024;
// Loading a driver or listing platforms takes well under a second; a child still running after
// this long is stuck.
constexpr std::chrono::seconds child_limit{20};

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

/// The folder the loader reads without OCL_ICD_VENDORS.
std::string vendor_folder() {
  const std::optional<std::string> v = env("OPENCL_VENDOR_PATH");
  return v && !v->empty() ? *v : default_vendor_folder;
}

bool ends_with_icd(const std::string& name) {
  // ocl-icd's _string_end_with_icd: at least one character before ".icd".
  return name.size() >= 5 && name.compare(name.size() - 4, 4, ".icd") == 0;
}

/// The child's result line ("anycl-icd-child: <word> <rest>"), split into word and rest.
std::optional<std::pair<std::string, std::string>> child_line(const std::string& output) {
  std::optional<std::pair<std::string, std::string>> found;
  std::size_t pos = 0;
  while ((pos = output.find(child_prefix, pos)) != std::string::npos) {
    if (pos != 0 && output[pos - 1] != '\n') {
      ++pos;
      continue;
    }
    const std::size_t begin = pos + std::strlen(child_prefix);
    std::size_t end = output.find('\n', begin);
    if (end == std::string::npos) end = output.size();
    const std::string line = output.substr(begin, end - begin);
    const std::size_t space = line.find(' ');
    found = space == std::string::npos
                ? std::make_pair(line, std::string())
                : std::make_pair(line.substr(0, space), line.substr(space + 1));
    pos = end;
  }
  return found;
}

/// The last non-empty line of a child's output other than its result line, for messages; a
/// sanitizer's "ERROR:" line when there is one (its last line only says "ABORTING").
std::string last_message(const std::string& output) {
  if (const std::size_t at = output.rfind("ERROR: "); at != std::string::npos) {
    const std::size_t begin = output.rfind('\n', at);
    const std::size_t end = output.find('\n', at);
    const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
    return printable(output.substr(from, end == std::string::npos ? end : end - from));
  }
  std::string last;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    if (!line.empty() && line.rfind(child_prefix, 0) != 0) last = line;
    start = end + 1;
  }
  return printable(last);
}

// --- reading .icd files as ocl-icd does ---

/// Why the loader skips a file that stat or open refused, from errno.
std::string unreadable_detail() {
  return std::string("cannot be read (") + std::strerror(errno) + "): the loader skips it";
}

/// Up to icd_read_limit bytes from the start of an open file.
std::string read_head(int fd) {
  std::string content;
  char buf[4096];
  while (content.size() < icd_read_limit) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    content.append(buf, static_cast<std::size_t>(n));
  }
  return content;
}

/// The start of `path` when it is a regular file that opens; otherwise nothing, with `e` saying
/// why (a folder or an unreadable file is skipped, a FIFO or device blocks the loader).
std::optional<std::string> icd_file_head(const std::string& path, icd_entry& e) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    e.detail = unreadable_detail();
    return std::nullopt;
  }
  if (S_ISDIR(st.st_mode)) {
    e.detail = "is a folder: the loader skips it";
    return std::nullopt;
  }
  if (!S_ISREG(st.st_mode)) {
    e.status = icd_status::hangs_loader;
    e.detail = "is a FIFO or device, not a file: the loader blocks opening or reading it";
    return std::nullopt;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    e.detail = unreadable_detail();
    return std::nullopt;
  }
  std::string content = read_head(fd);
  ::close(fd);
  return content;
}

/// Classifies `path` the way ocl-icd's _open_driver reads it: the first line, cut at a NUL byte,
/// without its '\n', is the library; an empty file is skipped; a file whose first byte is NUL
/// gives a name of length 0, and ocl-icd then reads name[length - 1] with an unsigned length, far
/// outside the buffer (SIGSEGV; still so in ocl-icd 2.3.x).
icd_entry read_icd_file(const std::string& path) {
  icd_entry e;
  e.file = path;
  const std::optional<std::string> content = icd_file_head(path, e);
  if (!content) return e;
  if (content->empty()) {
    e.detail = "is empty: the loader skips it";
    return e;
  }
  if ((*content)[0] == '\0') {
    e.status = icd_status::crashes_loader;
    e.detail =
        "starts with a NUL byte, not a library name: ocl-icd's clGetPlatformIDs crashes on it "
        "(SIGSEGV), and with it every OpenCL program";
    return e;
  }
  const std::size_t end = content->find_first_of(std::string("\n\0", 2));
  e.library = content->substr(0, end);
  if (e.library.empty()) {
    e.detail = "names no library (the first line is empty): the loader skips it";
    return e;
  }
  e.status = icd_status::library_missing;  // until the child check says otherwise
  return e;
}

/// A note on a library name that cannot be right, added to the dlopen result.
std::string name_note(const std::string& library) {
  if (!library.empty() && library.back() == '\r')
    return "the name ends with a carriage return (a Windows line end), which the loader keeps; ";
  for (unsigned char c : library)
    if (c < 0x20 || c == 0x7f) return "the first line holds control bytes (not a text file?); ";
  return "";
}

// --- library checks in a child ---

void check_library(icd_entry& e) {
  const std::vector<std::string> args = {"anycl-info", child_check_library, e.library};
  child_result r;
  try {
    r = run_self(args, child_limit);
  } catch (const std::system_error& err) {
    e.detail = std::string("could not be checked: ") + err.what();
    return;
  }
  const std::string note = name_note(e.library);
  auto line = child_line(r.output);
  // A child that ends without its result line died inside the driver: by a signal, or by a
  // sanitizer's or the driver's own exit.
  if (r.timed_out || r.signal != 0 || !line) {
    e.status = r.timed_out ? icd_status::library_hung : icd_status::library_crashed;
    e.detail = note + "loading it and asking for its platforms: " + r.describe(child_limit) +
               (r.exit_code >= 0 ? " without a result" : "") +
               "; the loader would fail the same way";
    if (std::string m = last_message(r.output); !m.empty())
      e.detail += " (last message: " + m + ")";
    return;
  }
  const auto& [word, rest] = *line;
  if (word == "missing") {
    e.status = icd_status::library_missing;
    e.detail = note + "does not load: " + printable(rest);
  } else if (word == "not-a-driver") {
    e.status = icd_status::not_a_driver;
    e.detail = note + "loads, but is not an OpenCL driver (no " + rest + "): the loader skips it";
  } else if (word == "platforms") {
    // "<status> <count>"
    const std::size_t space = rest.find(' ');
    const long status = std::strtol(rest.c_str(), nullptr, 10);
    const long count =
        space == std::string::npos ? 0 : std::strtol(rest.c_str() + space, nullptr, 10);
    if (status == CL_SUCCESS && count > 0) {
      e.status = icd_status::ok;
      e.platforms = static_cast<int>(count);
      e.detail = "loads, " + std::to_string(count) + (count == 1 ? " platform" : " platforms");
    } else {
      e.status = icd_status::no_platforms;
      e.platforms = 0;
      e.detail = "loads, but reports no platform (clIcdGetPlatformIDsKHR: " +
                 std::string(anycl::status_name(static_cast<cl_int>(status))) + " (" +
                 std::to_string(status) + ")); the loader skips it";
    }
  } else {
    e.detail = note + "the check failed: " + printable(rest);
  }
}

int child_check_library_main(const char* library) {
  ::dlerror();
  void* h = ::dlopen(library, RTLD_LAZY | RTLD_LOCAL);  // as ocl-icd's _load_icd
  if (h == nullptr) {
    const char* why = ::dlerror();
    std::printf("%smissing %s\n", child_prefix, why != nullptr ? why : "dlopen failed");
    return 0;
  }
  // As ocl-icd's _get_function_addr: the symbol, or what clGetExtensionFunctionAddress returns.
  using ext_fn = void*(CL_API_CALL*)(const char*);
  using ids_fn = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
  void* ext_sym = ::dlsym(h, "clGetExtensionFunctionAddress");
  ext_fn ext = nullptr;
  std::memcpy(&ext, &ext_sym, sizeof ext);  // object to function pointer, without a pedantic cast
  void* ids_sym = ::dlsym(h, "clIcdGetPlatformIDsKHR");
  if (ext != nullptr)
    if (void* via_ext = ext("clIcdGetPlatformIDsKHR"); via_ext != nullptr) ids_sym = via_ext;
  if (ext == nullptr || ids_sym == nullptr) {
    std::printf("%snot-a-driver %s\n", child_prefix,
                ext == nullptr ? "clGetExtensionFunctionAddress" : "clIcdGetPlatformIDsKHR");
    return 0;
  }
  ids_fn ids = nullptr;
  std::memcpy(&ids, &ids_sym, sizeof ids);
  cl_uint n = 0;
  const cl_int status = ids(0, nullptr, &n);
  std::printf("%splatforms %d %u\n", child_prefix, static_cast<int>(status), n);
  return 0;
}

int child_count_platforms_main() {
  try {
    const auto platforms = anycl::platform::all();
    std::printf("%splatforms %zu\n", child_prefix, platforms.size());
  } catch (const anycl::no_platform_error&) {
    std::printf("%splatforms 0\n", child_prefix);
  } catch (const std::exception& e) {
    std::printf("%serror %s\n", child_prefix, e.what());
  }
  return 0;
}
}  // namespace

// --- names ---

const char* to_string(icd_status status) noexcept {
  switch (status) {
    case icd_status::ok:
      return "ok";
    case icd_status::no_platforms:
      return "no_platforms";
    case icd_status::ignored:
      return "ignored";
    case icd_status::crashes_loader:
      return "crashes_loader";
    case icd_status::hangs_loader:
      return "hangs_loader";
    case icd_status::library_missing:
      return "library_missing";
    case icd_status::not_a_driver:
      return "not_a_driver";
    case icd_status::library_crashed:
      return "library_crashed";
    case icd_status::library_hung:
      return "library_hung";
  }
  return "?";
}

bool is_safe(icd_status status) noexcept {
  return status != icd_status::crashes_loader && status != icd_status::hangs_loader &&
         status != icd_status::library_crashed && status != icd_status::library_hung;
}

const char* to_string(listing_mode mode) noexcept {
  switch (mode) {
    case listing_mode::direct:
      return "direct";
    case listing_mode::without_unsafe_files:
      return "without_unsafe_files";
    case listing_mode::none:
      return "none";
  }
  return "?";
}

std::string platform_probe::outcome() const {
  if (!ran) return "not_run";
  if (child.timed_out) return "timed_out";
  if (child.signal != 0) return "crashed";
  if (platforms > 0) return "ok";
  if (platforms == 0) return "no_platform";
  return "failed";
}

std::string platform_probe::describe() const {
  const std::string o = outcome();
  std::string m = "clGetPlatformIDs, tried in a child process, ";
  if (o == "ok")
    return m + "found " + std::to_string(platforms) + (platforms == 1 ? " platform" : " platforms");
  if (o == "no_platform") return m + "found no platform";
  if (o == "crashed") return m + "was " + child.describe(child_limit);
  if (o == "timed_out") return m + child.describe(child_limit);
  m += "failed (" + child.describe(child_limit) + ")";
  if (auto line = child_line(child.output); line && line->first == "error") {
    m += ": " + printable(line->second);
  } else if (std::string last = last_message(child.output); !last.empty()) {
    m += ": " + last;
  }
  return m;
}

bool loader_report::safe() const {
  return std::all_of(entries.begin(), entries.end(),
                     [](const icd_entry& e) { return is_safe(e.status); });
}

// --- inspection ---

namespace {
/// The libOpenCL this process links: found without calling it, so the loader stays untouched.
std::string linked_loader() {
  void* sym = ::dlsym(RTLD_DEFAULT, "clGetPlatformIDs");
  if (sym == nullptr) return "";
  Dl_info info{};
  if (::dladdr(sym, &info) != 0 && info.dli_fname != nullptr) return info.dli_fname;
  return "";
}

/// Sets r.search and r.path as ocl-icd's __initClIcd does: OCL_ICD_VENDORS when set and not
/// empty, else the vendor folder.
void find_search(loader_report& r) {
  const std::string folder = vendor_folder();
  const std::optional<std::string> vendors = env("OCL_ICD_VENDORS");
  struct stat st {};
  if (!vendors || vendors->empty()) {
    r.search = icd_search::folder;
    r.path = folder;
  } else if (::stat(vendors->c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    r.search = icd_search::folder;
    r.path = *vendors;
  } else if (ends_with_icd(*vendors)) {
    // A bare name is looked up in the vendor folder first, then as a path.
    r.search = icd_search::icd_file;
    r.path = *vendors;
    if (vendors->find('/') == std::string::npos) {
      const std::string in_folder = folder + "/" + *vendors;
      if (::stat(in_folder.c_str(), &st) == 0) r.path = in_folder;
    }
  } else {
    r.search = icd_search::library;
    r.path = *vendors;
  }
}

/// Every .icd file in the folder r.path, in name order; none when the folder does not open.
void read_vendor_folder(loader_report& r) {
  DIR* d = ::opendir(r.path.c_str());
  r.path_exists = d != nullptr;
  if (d == nullptr) return;
  std::vector<std::string> names;
  while (dirent* ent = ::readdir(d))
    if (ends_with_icd(ent->d_name)) names.emplace_back(ent->d_name);
  ::closedir(d);
  std::sort(names.begin(), names.end());
  for (const auto& n : names) r.entries.push_back(read_icd_file(r.path + "/" + n));
}

/// Fills r.entries and r.path_exists from what r.search names.
void read_entries(loader_report& r) {
  struct stat st {};
  switch (r.search) {
    case icd_search::folder:
      read_vendor_folder(r);
      break;
    case icd_search::icd_file:
      r.path_exists = ::stat(r.path.c_str(), &st) == 0;
      r.entries.push_back(read_icd_file(r.path));
      break;
    case icd_search::library: {
      r.path_exists = ::stat(r.path.c_str(), &st) == 0;
      icd_entry e;
      e.library = r.path;
      e.status = icd_status::library_missing;
      r.entries.push_back(e);
      break;
    }
  }
}
}  // namespace

loader_report inspect_loader() {
  loader_report r;
  for (const char* name :
       {"OCL_ICD_VENDORS", "OPENCL_VENDOR_PATH", "OCL_ICD_FILENAMES", "OCL_ICD_PLATFORM_SORT"})
    r.environment.emplace_back(name, env(name));
  r.library = linked_loader();
  find_search(r);
  read_entries(r);
  for (auto& e : r.entries)
    if (e.status == icd_status::library_missing) check_library(e);
  return r;
}

// --- listing safely ---

safe_listing::safe_listing(loader_report& report) {
  if (report.safe()) return;
  // A file looks dangerous: let a child try the loader as it is first.
  report.probe.ran = true;
  try {
    report.probe.child = run_self({"anycl-info", child_count_platforms}, child_limit);
  } catch (const std::system_error& e) {
    report.probe.child.output = e.what();
  }
  if (report.probe.child.exited_ok()) {
    if (auto line = child_line(report.probe.child.output); line && line->first == "platforms")
      report.probe.platforms = std::atoi(line->second.c_str());
  }
  if (report.probe.platforms >= 0) return;  // the loader copes with these files after all

  if (report.search != icd_search::folder) {
    mode_ = listing_mode::none;
    return;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string templ =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/anycl-info-vendors-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) {
    mode_ = listing_mode::none;
    return;
  }
  folder_ = templ;
  for (const auto& e : report.entries) {
    if (e.status != icd_status::ok) continue;  // only drivers that load and have platforms
    const std::string name = folder_ + "/" + e.file.substr(e.file.rfind('/') + 1);
    if (std::FILE* f = std::fopen(name.c_str(), "w")) {
      const bool written = std::fputs(e.library.c_str(), f) >= 0 && std::fputc('\n', f) != EOF;
      if (std::fclose(f) == 0 && written) files_.push_back(name);
    }
  }
  ::setenv("OCL_ICD_VENDORS", folder_.c_str(), 1);  // still single-threaded: no driver loaded yet
  mode_ = listing_mode::without_unsafe_files;
}

safe_listing::~safe_listing() {
  if (folder_.empty()) return;
  // The loader has read the folder by now. OCL_ICD_VENDORS keeps pointing at it: drivers run
  // threads that may call getenv, and setenv is not safe against them.
  for (const auto& f : files_) ::unlink(f.c_str());
  ::rmdir(folder_.c_str());
}

void read_loader_identity(loader_report& report) {
  // ocl-icd's own query (clinfo uses it too); other loaders return null here.
  // clGetExtensionFunctionAddress is deprecated in the headers but is the only way to this query;
  // looked up by name so that a loader without it still works.
  using ext_fn = void*(CL_API_CALL*)(const char*);
  using info_fn = cl_int(CL_API_CALL*)(cl_uint, std::size_t, void*, std::size_t*);
  void* ext_sym = ::dlsym(RTLD_DEFAULT, "clGetExtensionFunctionAddress");
  if (ext_sym == nullptr) return;
  ext_fn ext = nullptr;
  std::memcpy(&ext, &ext_sym, sizeof ext);
  void* sym = ext("clGetICDLoaderInfoOCLICD");
  if (sym == nullptr) return;
  info_fn fn = nullptr;
  std::memcpy(&fn, &sym, sizeof fn);
  auto ask = [fn](cl_uint what) {
    char buf[256] = {};
    return fn(what, sizeof buf - 1, buf, nullptr) == CL_SUCCESS ? std::string(buf) : std::string();
  };
  report.name = ask(3);     // CL_ICDL_NAME
  report.version = ask(2);  // CL_ICDL_VERSION
}

// --- advice ---

std::vector<std::string> loader_problems(const loader_report& report) {
  std::vector<std::string> out;
  for (const auto& e : report.entries)
    if (!is_safe(e.status))
      out.push_back((e.file.empty() ? printable(e.library) : e.file) + " " + e.detail + ".");
  if (report.probe.ran && report.probe.platforms < 0)
    out.push_back(report.probe.describe() +
                  ": every OpenCL program that uses this loader setup fails the same way. Remove "
                  "or fix the files marked UNSAFE.");
  return out;
}

std::vector<std::string> no_platform_advice(const loader_report& report) {
  std::vector<std::string> out;
  out.push_back(
      "Install a driver: 'apt-get install pocl-opencl-icd' for the CPU; for a GPU its vendor's "
      "OpenCL ICD package (Debian: intel-opencl-icd, mesa-opencl-icd, nvidia-opencl-icd from "
      "non-free; AMD: ROCm's OpenCL runtime).");
  out.push_back(
      "Check: 'ls /etc/OpenCL/vendors' lists one .icd file per driver, each naming a library "
      "that must load; OCL_ICD_VENDORS=<folder, .icd file or library> replaces that folder.");
  const auto vendors = std::find_if(report.environment.begin(), report.environment.end(),
                                    [](const auto& v) { return v.first == "OCL_ICD_VENDORS"; });
  if (vendors != report.environment.end() && vendors->second && !vendors->second->empty())
    out.push_back("OCL_ICD_VENDORS is set to '" + printable(*vendors->second) + "', so " +
                  vendor_folder() +
                  " is not read: unset it to use the drivers installed on the system.");
  if (report.search == icd_search::folder && !report.path_exists)
    out.push_back("The folder " + report.path + " does not exist: no driver is installed.");
  else if (report.search == icd_search::folder && report.entries.empty())
    out.push_back("The folder " + report.path + " holds no .icd file: no driver is installed.");
  if (report.search == icd_search::library)
    out.push_back(
        "OCL_ICD_VENDORS is neither a folder nor an .icd file, so the loader loads it as "
        "a driver library itself.");
  for (const auto& e : report.entries)
    if (e.status == icd_status::library_missing && !e.file.empty())
      out.push_back((e.file.empty() ? "'" + printable(e.library) + "'"
                                    : e.file + " names '" + printable(e.library) + "', which") +
                    " " + e.detail + "; reinstall the package that installed it ('dpkg -S " +
                    (e.file.empty() ? printable(e.library) : e.file) + "').");
  const auto filenames = std::find_if(report.environment.begin(), report.environment.end(),
                                      [](const auto& v) { return v.first == "OCL_ICD_FILENAMES"; });
  if (filenames != report.environment.end() && filenames->second && !report.name.empty() &&
      report.name.find("OpenCL ICD Loader") != std::string::npos)
    out.push_back(
        "OCL_ICD_FILENAMES is set, but ocl-icd ignores it (only the Khronos loader reads "
        "it): use OCL_ICD_VENDORS.");
  return out;
}

// --- child modes ---

void run_icd_child(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], child_check_library) == 0) {
    const int rc = child_check_library_main(argv[2]);
    std::fflush(stdout);
    std::_Exit(rc);  // no atexit work: a driver's destructors may crash, and leaks do not matter
  }
  if (argc == 2 && std::strcmp(argv[1], child_count_platforms) == 0) {
    const int rc = child_count_platforms_main();
    std::fflush(stdout);
    std::_Exit(rc);
  }
}

}  // namespace anycl::tools
