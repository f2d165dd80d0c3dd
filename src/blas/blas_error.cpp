// SPDX-License-Identifier: Apache-2.0
// CLBlast's status codes by name and hint, blas_error, and clearing CLBlast's program cache.
#include <clblast.h>

#include <string>
#include <utility>

#include "anycl/blas.hpp"

namespace anycl {

// --- status names and blas_error ---

namespace {

struct blas_status_entry {
  int code;
  const char* name;
  const char* hint;
};

constexpr blas_status_entry blas_status_table[] = {
    {0, "kSuccess", ""},
    {-3, "kOpenCLCompilerNotAvailable", "the device has no OpenCL C compiler"},
    {-4, "kTempBufferAllocFailure", "CLBlast could not allocate a temporary buffer"},
    {-5, "kOpenCLOutOfResources", "the device ran out of resources"},
    {-6, "kOpenCLOutOfHostMemory", "the host ran out of memory"},
    {-11, "kOpenCLBuildProgramFailure", "a CLBlast kernel did not build for this device"},
    {-30, "kInvalidValue", ""},
    {-36, "kInvalidCommandQueue", ""},
    {-38, "kInvalidMemObject", "a buffer is not a valid cl_mem"},
    {-42, "kInvalidBinary", ""},
    {-43, "kInvalidBuildOptions", ""},
    {-44, "kInvalidProgram", ""},
    {-45, "kInvalidProgramExecutable", ""},
    {-46, "kInvalidKernelName", ""},
    {-47, "kInvalidKernelDefinition", ""},
    {-48, "kInvalidKernel", ""},
    {-49, "kInvalidArgIndex", ""},
    {-50, "kInvalidArgValue", ""},
    {-51, "kInvalidArgSize", ""},
    {-52, "kInvalidKernelArgs", ""},
    {-53, "kInvalidLocalNumDimensions", ""},
    {-54, "kInvalidLocalThreadsTotal", "CLBlast's tuned work-group size is too large here"},
    {-55, "kInvalidLocalThreadsDim", "CLBlast's tuned work-group size is too large here"},
    {-56, "kInvalidGlobalOffset", ""},
    {-57, "kInvalidEventWaitList", ""},
    {-58, "kInvalidEvent", ""},
    {-59, "kInvalidOperation", ""},
    {-61, "kInvalidBufferSize", ""},
    {-63, "kInvalidGlobalWorkSize", ""},
    {-1024, "kNotImplemented", "CLBlast does not implement this routine for this type"},
    {-1022, "kInvalidMatrixA", "matrix A's buffer is not a valid cl_mem"},
    {-1021, "kInvalidMatrixB", "matrix B's buffer is not a valid cl_mem"},
    {-1020, "kInvalidMatrixC", "matrix C's buffer is not a valid cl_mem"},
    {-1019, "kInvalidVectorX", "vector x's buffer is not a valid cl_mem"},
    {-1018, "kInvalidVectorY", "vector y's buffer is not a valid cl_mem"},
    {-1017, "kInvalidDimension", "every dimension must be at least 1"},
    {-1016, "kInvalidLeadDimA", "A's leading dimension is below its rows/columns for its layout"},
    {-1015, "kInvalidLeadDimB", "B's leading dimension is below its rows/columns for its layout"},
    {-1014, "kInvalidLeadDimC", "C's leading dimension is below its rows/columns for its layout"},
    {-1013, "kInvalidIncrementX", "x's increment must be at least 1"},
    {-1012, "kInvalidIncrementY", "y's increment must be at least 1"},
    {-1011, "kInsufficientMemoryA", "A's buffer is smaller than its offset plus extent"},
    {-1010, "kInsufficientMemoryB", "B's buffer is smaller than its offset plus extent"},
    {-1009, "kInsufficientMemoryC", "C's buffer is smaller than its offset plus extent"},
    {-1008, "kInsufficientMemoryX", "x's buffer is smaller than its offset plus extent"},
    {-1007, "kInsufficientMemoryY", "y's buffer is smaller than its offset plus extent"},
    {-2050, "kInsufficientMemoryTemp", ""},
    {-2049, "kInvalidBatchCount", "the batch count must be at least 1"},
    {-2048, "kInvalidOverrideKernel", ""},
    {-2047, "kMissingOverrideParameter", ""},
    {-2046, "kInvalidLocalMemUsage", "CLBlast's tuned kernel needs more local memory than here"},
    {-2045, "kNoHalfPrecision", "the device has no cl_khr_fp16"},
    {-2044, "kNoDoublePrecision", "the device has no double precision (cl_khr_fp64)"},
    {-2043, "kInvalidVectorScalar", "the result buffer is not a valid cl_mem"},
    {-2042, "kInsufficientMemoryScalar", "the result buffer is too small"},
    {-2041, "kDatabaseError", "CLBlast has no tuning entry for this device"},
    {-2040, "kUnknownError", ""},
    {-2039, "kUnexpectedError", ""},
};

const blas_status_entry* find_status(int status) noexcept {
  for (const auto& e : blas_status_table)
    if (e.code == status) return &e;
  return nullptr;
}

std::string blas_message(const std::string& routine, int status, const std::string& detail) {
  std::string m = routine + " failed: " + std::string(blas::status_name(status)) + " (" +
                  std::to_string(status) + ")";
  if (!detail.empty()) m += ": " + detail;
  const blas_status_entry* e = find_status(status);
  if (e && *e->hint) m += std::string(". Hint: ") + e->hint;
  return m;
}

}  // namespace

blas_error::blas_error(std::string routine, int status, std::string detail)
    : error(blas_message(routine, status, detail)),
      routine_(std::move(routine)),
      status_(status),
      detail_(std::move(detail)) {}

std::string_view blas_error::status_name() const noexcept { return blas::status_name(status_); }

namespace blas {

std::string_view status_name(int status) noexcept {
  const blas_status_entry* e = find_status(status);
  return e ? e->name : "unknown CLBlast status";
}

void clear_cache() { clblast::ClearCache(); }

}  // namespace blas

}  // namespace anycl
