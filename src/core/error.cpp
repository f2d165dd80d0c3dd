// SPDX-License-Identifier: Apache-2.0
// Status names, hints, exception messages and the cleanup-error handler.
#include "anycl/error.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "core/check.hpp"
#include "core/process.hpp"

namespace anycl {

// --- status names ---
namespace {
struct status_entry {
  cl_int code;
  const char* name;
};

// OpenCL 3.0 core codes, then the extension codes found in the Khronos headers.
constexpr status_entry status_table[] = {
    {0, "CL_SUCCESS"},
    {-1, "CL_DEVICE_NOT_FOUND"},
    {-2, "CL_DEVICE_NOT_AVAILABLE"},
    {-3, "CL_COMPILER_NOT_AVAILABLE"},
    {-4, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {-5, "CL_OUT_OF_RESOURCES"},
    {-6, "CL_OUT_OF_HOST_MEMORY"},
    {-7, "CL_PROFILING_INFO_NOT_AVAILABLE"},
    {-8, "CL_MEM_COPY_OVERLAP"},
    {-9, "CL_IMAGE_FORMAT_MISMATCH"},
    {-10, "CL_IMAGE_FORMAT_NOT_SUPPORTED"},
    {-11, "CL_BUILD_PROGRAM_FAILURE"},
    {-12, "CL_MAP_FAILURE"},
    {-13, "CL_MISALIGNED_SUB_BUFFER_OFFSET"},
    {-14, "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"},
    {-15, "CL_COMPILE_PROGRAM_FAILURE"},
    {-16, "CL_LINKER_NOT_AVAILABLE"},
    {-17, "CL_LINK_PROGRAM_FAILURE"},
    {-18, "CL_DEVICE_PARTITION_FAILED"},
    {-19, "CL_KERNEL_ARG_INFO_NOT_AVAILABLE"},
    {-30, "CL_INVALID_VALUE"},
    {-31, "CL_INVALID_DEVICE_TYPE"},
    {-32, "CL_INVALID_PLATFORM"},
    {-33, "CL_INVALID_DEVICE"},
    {-34, "CL_INVALID_CONTEXT"},
    {-35, "CL_INVALID_QUEUE_PROPERTIES"},
    {-36, "CL_INVALID_COMMAND_QUEUE"},
    {-37, "CL_INVALID_HOST_PTR"},
    {-38, "CL_INVALID_MEM_OBJECT"},
    {-39, "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR"},
    {-40, "CL_INVALID_IMAGE_SIZE"},
    {-41, "CL_INVALID_SAMPLER"},
    {-42, "CL_INVALID_BINARY"},
    {-43, "CL_INVALID_BUILD_OPTIONS"},
    {-44, "CL_INVALID_PROGRAM"},
    {-45, "CL_INVALID_PROGRAM_EXECUTABLE"},
    {-46, "CL_INVALID_KERNEL_NAME"},
    {-47, "CL_INVALID_KERNEL_DEFINITION"},
    {-48, "CL_INVALID_KERNEL"},
    {-49, "CL_INVALID_ARG_INDEX"},
    {-50, "CL_INVALID_ARG_VALUE"},
    {-51, "CL_INVALID_ARG_SIZE"},
    {-52, "CL_INVALID_KERNEL_ARGS"},
    {-53, "CL_INVALID_WORK_DIMENSION"},
    {-54, "CL_INVALID_WORK_GROUP_SIZE"},
    {-55, "CL_INVALID_WORK_ITEM_SIZE"},
    {-56, "CL_INVALID_GLOBAL_OFFSET"},
    {-57, "CL_INVALID_EVENT_WAIT_LIST"},
    {-58, "CL_INVALID_EVENT"},
    {-59, "CL_INVALID_OPERATION"},
    {-60, "CL_INVALID_GL_OBJECT"},
    {-61, "CL_INVALID_BUFFER_SIZE"},
    {-62, "CL_INVALID_MIP_LEVEL"},
    {-63, "CL_INVALID_GLOBAL_WORK_SIZE"},
    {-64, "CL_INVALID_PROPERTY"},
    {-65, "CL_INVALID_IMAGE_DESCRIPTOR"},
    {-66, "CL_INVALID_COMPILER_OPTIONS"},
    {-67, "CL_INVALID_LINKER_OPTIONS"},
    {-68, "CL_INVALID_DEVICE_PARTITION_COUNT"},
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
    {-1002, "CL_INVALID_D3D10_DEVICE_KHR"},
    {-1003, "CL_INVALID_D3D10_RESOURCE_KHR"},
    {-1004, "CL_D3D10_RESOURCE_ALREADY_ACQUIRED_KHR"},
    {-1005, "CL_D3D10_RESOURCE_NOT_ACQUIRED_KHR"},
    {-1006, "CL_INVALID_D3D11_DEVICE_KHR"},
    {-1007, "CL_INVALID_D3D11_RESOURCE_KHR"},
    {-1008, "CL_D3D11_RESOURCE_ALREADY_ACQUIRED_KHR"},
    {-1009, "CL_D3D11_RESOURCE_NOT_ACQUIRED_KHR"},
    {-1010, "CL_INVALID_DX9_MEDIA_ADAPTER_KHR"},
    {-1011, "CL_INVALID_DX9_MEDIA_SURFACE_KHR"},
    {-1012, "CL_DX9_MEDIA_SURFACE_ALREADY_ACQUIRED_KHR"},
    {-1013, "CL_DX9_MEDIA_SURFACE_NOT_ACQUIRED_KHR"},
    {-1057, "CL_DEVICE_PARTITION_FAILED_EXT"},
    {-1058, "CL_INVALID_PARTITION_COUNT_EXT"},
    {-1059, "CL_INVALID_PARTITION_NAME_EXT"},
    {-1092, "CL_EGL_RESOURCE_NOT_ACQUIRED_KHR"},
    {-1093, "CL_INVALID_EGL_OBJECT_KHR"},
    {-1094, "CL_INVALID_ACCELERATOR_INTEL"},
    {-1095, "CL_INVALID_ACCELERATOR_TYPE_INTEL"},
    {-1096, "CL_INVALID_ACCELERATOR_DESCRIPTOR_INTEL"},
    {-1097, "CL_ACCELERATOR_TYPE_NOT_SUPPORTED_INTEL"},
    {-1098, "CL_INVALID_VA_API_MEDIA_ADAPTER_INTEL"},
    {-1099, "CL_INVALID_VA_API_MEDIA_SURFACE_INTEL"},
    {-1100, "CL_VA_API_MEDIA_SURFACE_ALREADY_ACQUIRED_INTEL"},
    {-1101, "CL_VA_API_MEDIA_SURFACE_NOT_ACQUIRED_INTEL"},
    {-1108, "CL_COMMAND_TERMINATED_ITSELF_WITH_FAILURE_ARM"},
    {-1121, "CL_CONTEXT_TERMINATED_KHR"},
    {-1138, "CL_INVALID_COMMAND_BUFFER_KHR"},
    {-1139, "CL_INVALID_SYNC_POINT_WAIT_LIST_KHR"},
    {-1140, "CL_INCOMPATIBLE_COMMAND_QUEUE_KHR"},
    {-1141, "CL_INVALID_MUTABLE_COMMAND_KHR"},
    {-1142, "CL_INVALID_SEMAPHORE_KHR"},
};

struct hint_entry {
  cl_int code;
  const char* hint;
};

constexpr hint_entry hint_table[] = {
    {-1, "no device of the requested type; run 'anycl-info' to see what exists"},
    {-2, "the device exists but is busy or switched off"},
    {-3, "this device has no compiler (an FPGA?): load a prebuilt binary instead"},
    {-4, "the device ran out of memory for a buffer; free buffers or use smaller ones"},
    {-5,
     "the device ran out of resources; a kernel may have read or written out of bounds, or "
     "uses too many registers or too much local memory"},
    {-6, "the host ran out of memory"},
    {-7, "create the queue with queue_properties{.profiling = true} and wait for the event first"},
    {-8, "source and destination ranges overlap"},
    {-11, "see the build log below"},
    {-13, "sub-buffer offsets must be multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN"},
    {-14, "a command this one waited for failed; check the earlier events"},
    {-15, "see the compiler's log below"},
    {-17,
     "a function may be undefined or defined twice across the parts, or a part is of another "
     "device; the linker's log is below where the driver gave one"},
    {-19, "build the program with '-cl-kernel-arg-info' to keep argument names and types"},
    {-30, "an argument is out of range or inconsistent"},
    {-33, "the device does not belong to this context"},
    {-34, "objects from different contexts were mixed"},
    {-36, "the queue is not valid (released, or from another process)"},
    {-38, "a buffer argument is not valid (released, null, or from another context)"},
    {-42, "the binary is not for this device or driver version; rebuild it from source"},
    {-43, "the build options are not valid for this compiler"},
    {-45, "build the program successfully before creating kernels"},
    {-46, "check the spelling against the kernels in the program"},
    {-48, "the kernel object is not valid"},
    {-49, "the kernel has fewer arguments than were given"},
    {-50, "the argument value is not valid for its declaration (buffer vs __local vs scalar)"},
    {-51, "the argument's size does not match its declaration (e.g. double for float)"},
    {-52, "set every kernel argument before launching"},
    {-53, "launches have 1 to 3 dimensions"},
    {-54, "the local size must divide the global size and not exceed the kernel's work-group size"},
    {-55, "a local size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES"},
    {-57, "the wait list holds a null or invalid event"},
    {-59, "the operation is not allowed on this object or device"},
    {-61, "the buffer size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE"},
    {-66, "the compile options are not valid for this compiler"},
    {-67,
     "the link options are not valid for this linker (-create-library, -enable-link-options "
     "and the -cl-* math options)"},
    {-1001,
     "no OpenCL driver is installed: 'apt-get install pocl-opencl-icd' for CPUs, or your GPU "
     "vendor's OpenCL package; check with 'anycl-info'"},
};
}  // namespace

std::string_view status_name(cl_int status) noexcept {
  for (const auto& e : status_table)
    if (e.code == status) return e.name;
  return "unknown OpenCL status";
}

std::string_view status_hint(cl_int status) noexcept {
  for (const auto& e : hint_table)
    if (e.code == status) return e.hint;
  return {};
}

// --- exceptions ---
namespace {
std::string api_message(const std::string& call, cl_int status, const std::string& detail) {
  std::string m =
      call + " failed: " + std::string(status_name(status)) + " (" + std::to_string(status) + ")";
  if (!detail.empty()) m += ": " + detail;
  std::string_view hint = status_hint(status);
  if (!hint.empty() && status != CL_BUILD_PROGRAM_FAILURE) {
    m += ". Hint: ";
    m += hint;
  }
  return m;
}

std::string build_message(const std::string& call, cl_int status, const std::string& source,
                          const std::string& options, const std::vector<build_log>& logs) {
  std::string m = call + " failed: " + std::string(status_name(status)) + " (" +
                  std::to_string(status) + ") for '" + source + "'";
  if (logs.size() == 1) m += " on '" + logs[0].device + "'";
  m += " (options: " + (options.empty() ? std::string("none") : options) + ")";
  if (status == CL_INVALID_BUILD_OPTIONS || status == CL_INVALID_COMPILER_OPTIONS ||
      status == CL_INVALID_LINKER_OPTIONS || status == CL_LINK_PROGRAM_FAILURE)
    m += ". Hint: " + std::string(status_hint(status));
  for (const auto& l : logs) {
    m += "\n--- build log, device '" + l.device + "' ---\n";
    m += l.log.empty() ? std::string("(empty)") : l.log;
  }
  return m;
}

/// Where ocl-icd looks for drivers: OCL_ICD_VENDORS (a folder, or one .icd file or library),
/// else OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors.
std::string loader_summary() {
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  const char* vendor_path = std::getenv("OPENCL_VENDOR_PATH");
  std::string s = "Loader search: OCL_ICD_VENDORS=";
  s += vendors != nullptr ? std::string(vendors) : std::string("<unset>");
  std::string folder = "/etc/OpenCL/vendors";
  if (vendors != nullptr && *vendors != '\0') {
    folder = vendors;
  } else if (vendor_path != nullptr && *vendor_path != '\0') {
    folder = vendor_path;
    s += ", OPENCL_VENDOR_PATH=" + folder;
  }
  s += ", " + folder + " (" + std::to_string(detail::count_icd_files(folder.c_str())) +
       " .icd files).";
  return s;
}
}  // namespace

api_error::api_error(std::string call, cl_int status, std::string detail)
    : api_error(call, status, detail, api_message(call, status, detail)) {}

api_error::api_error(std::string call, cl_int status, std::string detail, std::string message)
    : error(message), call_(std::move(call)), status_(status), detail_(std::move(detail)) {}

no_platform_error::no_platform_error(cl_int status)
    : api_error("clGetPlatformIDs", status, "no OpenCL platform found",
                "no OpenCL platform found (clGetPlatformIDs: " + std::string(status_name(status)) +
                    " (" + std::to_string(status) + ")).\n" +
                    "Install a driver: 'apt-get install pocl-opencl-icd' for CPUs, or your GPU "
                    "vendor's OpenCL package; check with 'anycl-info'. " +
                    loader_summary()) {}

build_error::build_error(cl_int status, std::string source_name, std::string options,
                         std::vector<build_log> logs)
    : build_error("clBuildProgram", status, std::move(source_name), std::move(options),
                  std::move(logs)) {}

build_error::build_error(std::string call, cl_int status, std::string source_name,
                         std::string options, std::vector<build_log> logs)
    : api_error(call, status, "build of '" + source_name + "'",
                build_message(call, status, source_name, options, logs)),
      source_name_(std::move(source_name)),
      options_(std::move(options)),
      logs_(std::move(logs)) {}

// --- cleanup errors ---
namespace {
std::mutex& handler_mutex() {
  static std::mutex m;
  return m;
}
cleanup_error_handler& handler_slot() {
  static cleanup_error_handler h;
  return h;
}
}  // namespace

cleanup_error_handler set_cleanup_error_handler(cleanup_error_handler handler) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  cleanup_error_handler old = std::move(handler_slot());
  handler_slot() = std::move(handler);
  return old;
}

namespace detail {

void report_cleanup_error(std::string_view object, std::string_view call, cl_int status) noexcept {
  try {
    cleanup_error_handler h;
    {
      std::lock_guard<std::mutex> lock(handler_mutex());
      h = handler_slot();
    }
    if (h) {
      h(object, call, status);
      return;
    }
  } catch (...) {
    // A throwing handler must not escape a destructor; fall through to the default message.
  }
  std::fprintf(stderr, "anycl: warning: %.*s failed on a %.*s: %s (%d); the object may leak\n",
               static_cast<int>(call.size()), call.data(), static_cast<int>(object.size()),
               object.data(), std::string(status_name(status)).c_str(), status);
}

void throw_api_error(const char* call, cl_int status, std::string detail) {
  if (status == CL_PLATFORM_NOT_FOUND_KHR) throw no_platform_error(status);
  throw api_error(call, status, std::move(detail));
}

}  // namespace detail
}  // namespace anycl
