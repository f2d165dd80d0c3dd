// SPDX-License-Identifier: Apache-2.0
// The host's own numerical libraries on CPU devices: where the device computes in host memory,
// anycl::blas calls OpenBLAS's CBLAS on the buffers' memory instead of CLBlast's kernels, as a
// command of the queue (a native kernel), so wait lists, events and arrays' ordering are as on the
// OpenCL path. ANYCL_HOST_LIBRARIES=off, or set_host_libraries(host_libraries::off), keeps CLBlast.
#pragma once

#include "anycl/device.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// on: the host libraries serve the devices that qualify (the default); off: never.
enum class host_libraries { on, off };

/// Sets the mode for the whole process, over ANYCL_HOST_LIBRARIES; calls already enqueued keep
/// their path. Thread-safe.
ANYCL_EXPORT void set_host_libraries(host_libraries mode) noexcept;

/// The mode in force: set_host_libraries's, else ANYCL_HOST_LIBRARIES's (unset, empty or "on":
/// on; "off": off). Throws std::invalid_argument for another ANYCL_HOST_LIBRARIES value.
ANYCL_EXPORT host_libraries host_libraries_mode();

/// Whether `d` can run host-library calls: a device of type CPU only, that answers
/// CL_DEVICE_HOST_UNIFIED_MEMORY true and runs native kernels (CL_EXEC_NATIVE_KERNEL). POCL's CPU
/// device qualifies; Oclgrind (no unified memory) and GPUs do not. Throws std::invalid_argument for
/// an empty device.
ANYCL_EXPORT bool host_memory_device(const device& d);

namespace blas {

/// Whether anycl::blas calls on `d` go to the host's CBLAS: the mode is on, host_memory_device(d),
/// and OpenBLAS (libopenblas.so.0, Debian's libopenblas0) loaded with every routine. A call whose
/// sizes do not fit CBLAS's 32-bit integers still goes to CLBlast.
ANYCL_EXPORT bool uses_host_library(const device& d);

}  // namespace blas
}  // namespace anycl
