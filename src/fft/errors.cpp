// SPDX-License-Identifier: Apache-2.0
// anycl::fft_error: clFFT's own status names (OpenCL's for the rest) and a hint for each, in the
// message of every failed clFFT call.
#include "anycl/fft.hpp"

#include <clFFT.h>

#include <string>
#include <utility>

namespace anycl {

namespace {

const char* clfft_own_status_name(int status) {
  switch (status) {
    case CLFFT_BUGCHECK:
      return "CLFFT_BUGCHECK";
    case CLFFT_NOTIMPLEMENTED:
      return "CLFFT_NOTIMPLEMENTED";
    case CLFFT_TRANSPOSED_NOTIMPLEMENTED:
      return "CLFFT_TRANSPOSED_NOTIMPLEMENTED";
    case CLFFT_FILE_NOT_FOUND:
      return "CLFFT_FILE_NOT_FOUND";
    case CLFFT_FILE_CREATE_FAILURE:
      return "CLFFT_FILE_CREATE_FAILURE";
    case CLFFT_VERSION_MISMATCH:
      return "CLFFT_VERSION_MISMATCH";
    case CLFFT_INVALID_PLAN:
      return "CLFFT_INVALID_PLAN";
    case CLFFT_DEVICE_NO_DOUBLE:
      return "CLFFT_DEVICE_NO_DOUBLE";
    case CLFFT_DEVICE_MISMATCH:
      return "CLFFT_DEVICE_MISMATCH";
    default:
      return nullptr;
  }
}

std::string fft_status_name(int status) {
  const char* own = clfft_own_status_name(status);
  std::string name = own ? own : std::string(anycl::status_name(status));
  return name + " (" + std::to_string(status) + ")";
}

std::string fft_hint(int status) {
  switch (status) {
    case CLFFT_NOTIMPLEMENTED:
      return "clFFT 2.12 has no kernels for this combination of lengths, layout and strides "
             "(lengths must be products of 2, 3, 5, 7, 11 and 13)";
    case CLFFT_TRANSPOSED_NOTIMPLEMENTED:
      return "clFFT cannot return a transposed result for this plan";
    case CLFFT_DEVICE_NO_DOUBLE:
      return "the device has no double precision (cl_khr_fp64); use precision::f32";
    case CLFFT_INVALID_PLAN:
      return "the plan handle is not (or no longer) known to clFFT";
    case CLFFT_BUGCHECK:
      return "an internal clFFT consistency check failed";
    default:
      return std::string(anycl::status_hint(status));
  }
}

}  // namespace

fft_error::fft_error(std::string call, int status, std::string detail)
    : error(call + " failed: " + fft_status_name(status) +
            (detail.empty() ? std::string() : ": " + detail) +
            (fft_hint(status).empty() ? std::string() : ". Hint: " + fft_hint(status))),
      call_(std::move(call)),
      status_(status),
      detail_(std::move(detail)) {}

std::string fft_error::status_name() const { return fft_status_name(status_); }

}  // namespace anycl
