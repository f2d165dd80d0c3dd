// SPDX-License-Identifier: Apache-2.0
// Fault injection for OpenCL, loaded with LD_PRELOAD: makes the n-th call of one OpenCL entry point
// fail with a chosen status, whoever calls it (AnyCL, CLBlast or clFFT), so that every error path
// can be reached on a driver that never fails.
//
// Environment:
//   FAULT_FN=clCreateBuffer  the entry point to fail (unset: nothing fails, calls are only counted)
//   FAULT_NTH=2              fail its n-th call, counted from 1 (default 1)
//   FAULT_CODE=-4            the status it returns (default -5, CL_OUT_OF_RESOURCES); create calls
//                            store it in *errcode_ret and return NULL
//   FAULT_EVERY=1            fail every call from the n-th on, not only the n-th
//   FAULT_REPORT=path        at exit, write one line per entry point: name, calls, faults fired,
//                            and the library that made the first failed call
//
// A failed call does not reach the driver (a failed clRelease* releases nothing), as a driver
// that fails would do. Programs linked to AnyCL can ask the shim what it did through the
// functions at the end (look them up with dlsym(RTLD_DEFAULT, ...): absent when not preloaded).
#define _GNU_SOURCE
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Every OpenCL entry point that AnyCL (src/), CLBlast 1.5.3 and clFFT 2.12.2 call, and the
// cl_khr_command_buffer entry points AnyCL looks up (wrapped when they are looked up, below).
#define FAULTSHIM_ENTRY_POINTS(X)             \
  X(clBuildProgram)                           \
  X(clCompileProgram)                         \
  X(clCreateBuffer)                           \
  X(clCreateCommandQueue)                     \
  X(clCreateCommandQueueWithProperties)       \
  X(clCreateContext)                          \
  X(clCreateKernel)                           \
  X(clCreateProgramWithBinary)                \
  X(clCreateProgramWithSource)                \
  X(clCreateSubBuffer)                        \
  X(clCreateSubDevices)                       \
  X(clCreateUserEvent)                        \
  X(clEnqueueBarrierWithWaitList)             \
  X(clEnqueueCopyBuffer)                      \
  X(clEnqueueCopyBufferRect)                  \
  X(clEnqueueFillBuffer)                      \
  X(clEnqueueMapBuffer)                       \
  X(clEnqueueMarkerWithWaitList)              \
  X(clEnqueueNDRangeKernel)                   \
  X(clEnqueueNativeKernel)                    \
  X(clEnqueueReadBuffer)                      \
  X(clEnqueueReadBufferRect)                  \
  X(clEnqueueUnmapMemObject)                  \
  X(clEnqueueWriteBuffer)                     \
  X(clEnqueueWriteBufferRect)                 \
  X(clFinish)                                 \
  X(clFlush)                                  \
  X(clGetCommandQueueInfo)                    \
  X(clGetContextInfo)                         \
  X(clGetDeviceIDs)                           \
  X(clGetDeviceInfo)                          \
  X(clGetEventInfo)                           \
  X(clGetEventProfilingInfo)                  \
  X(clGetKernelArgInfo)                       \
  X(clGetKernelInfo)                          \
  X(clGetKernelWorkGroupInfo)                 \
  X(clGetMemObjectInfo)                       \
  X(clGetPlatformIDs)                         \
  X(clGetPlatformInfo)                        \
  X(clGetProgramBuildInfo)                    \
  X(clGetProgramInfo)                         \
  X(clLinkProgram)                            \
  X(clSetEventCallback)                       \
  X(clSetKernelArg)                           \
  X(clSetKernelArgSVMPointer)                 \
  X(clSetKernelExecInfo)                      \
  X(clSVMAlloc)                               \
  X(clEnqueueSVMMemcpy)                       \
  X(clEnqueueSVMMemFill)                      \
  X(clEnqueueSVMMap)                          \
  X(clEnqueueSVMUnmap)                        \
  X(clCreateImage)                            \
  X(clGetSupportedImageFormats)               \
  X(clCreateSamplerWithProperties)            \
  X(clEnqueueReadImage)                       \
  X(clEnqueueWriteImage)                      \
  X(clEnqueueCopyImage)                       \
  X(clEnqueueFillImage)                       \
  X(clEnqueueMapImage)                        \
  X(clSetMemObjectDestructorCallback)         \
  X(clSetUserEventStatus)                     \
  X(clWaitForEvents)                          \
  X(clGetExtensionFunctionAddressForPlatform) \
  X(clCreateCommandBufferKHR)                 \
  X(clFinalizeCommandBufferKHR)               \
  X(clEnqueueCommandBufferKHR)                \
  X(clCommandNDRangeKernelKHR)                \
  X(clCommandCopyBufferKHR)                   \
  X(clCommandFillBufferKHR)                   \
  X(clReleaseCommandBufferKHR)                \
  X(clRetainCommandQueue)                     \
  X(clRetainContext)                          \
  X(clRetainDevice)                           \
  X(clRetainEvent)                            \
  X(clRetainSampler)                          \
  X(clRetainKernel)                           \
  X(clRetainMemObject)                        \
  X(clRetainProgram)                          \
  X(clReleaseCommandQueue)                    \
  X(clReleaseContext)                         \
  X(clReleaseDevice)                          \
  X(clReleaseEvent)                           \
  X(clReleaseSampler)                         \
  X(clReleaseKernel)                          \
  X(clReleaseMemObject)                       \
  X(clReleaseProgram)

enum {
#define FAULTSHIM_ID(fn) id_##fn,
  FAULTSHIM_ENTRY_POINTS(FAULTSHIM_ID)
#undef FAULTSHIM_ID
      entry_count
};

static const char* const entry_names[entry_count] = {
#define FAULTSHIM_NAME(fn) #fn,
    FAULTSHIM_ENTRY_POINTS(FAULTSHIM_NAME)
#undef FAULTSHIM_NAME
};

static atomic_ulong calls[entry_count];
static atomic_ulong fired[entry_count];
static void* _Atomic real_fn[entry_count];
// The library that made the first failed call (set once, by the thread that fired first).
static char fired_by[256];
static atomic_int fired_by_claimed;
static atomic_int fired_by_ready;

static int fault_id = -1;  // none
static unsigned long fault_nth = 1;
static cl_int fault_code = CL_OUT_OF_RESOURCES;
static int fault_every = 0;
static const char* report_path = NULL;

static void* real(int id) {
  void* p = atomic_load_explicit(&real_fn[id], memory_order_acquire);
  if (p == NULL) {
    p = dlsym(RTLD_NEXT, entry_names[id]);
    if (p == NULL) {
      fprintf(stderr, "faultshim: %s not found in the OpenCL library (%s)\n", entry_names[id],
              dlerror());
      abort();
    }
    atomic_store_explicit(&real_fn[id], p, memory_order_release);
  }
  return p;
}

static void write_report(void);

static void note_caller(const void* return_address) {
  if (atomic_exchange(&fired_by_claimed, 1) != 0) return;
  Dl_info info;
  const char* name = "unknown";
  if (dladdr(return_address, &info) != 0 && info.dli_fname != NULL) name = info.dli_fname;
  snprintf(fired_by, sizeof fired_by, "%s", name);
  atomic_store(&fired_by_ready, 1);
  write_report();
}

// True when this call of entry point `id` is to fail; *code is then the status to return.
static int should_fail(int id, const void* return_address, cl_int* code) {
  unsigned long n = atomic_fetch_add(&calls[id], 1) + 1;
  if (id != fault_id) return 0;
  if (n == fault_nth || (fault_every && n > fault_nth)) {
    atomic_fetch_add(&fired[id], 1);
    note_caller(return_address);
    *code = fault_code;
    return 1;
  }
  return 0;
}

static unsigned long parse_number(const char* name, const char* text, int allow_negative) {
  char* end = NULL;
  long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || (!allow_negative && v < 1)) {
    fprintf(stderr, "faultshim: %s=%s is not a valid number\n", name, text);
    exit(2);
  }
  return (unsigned long)v;
}

__attribute__((constructor)) static void faultshim_init(void) {
  const char* fn = getenv("FAULT_FN");
  const char* nth = getenv("FAULT_NTH");
  const char* code = getenv("FAULT_CODE");
  const char* every = getenv("FAULT_EVERY");
  report_path = getenv("FAULT_REPORT");
  if (report_path != NULL && *report_path == '\0') report_path = NULL;
  if (fn != NULL && *fn != '\0') {
    for (int i = 0; i < entry_count; ++i)
      if (strcmp(entry_names[i], fn) == 0) fault_id = i;
    if (fault_id < 0) {
      fprintf(stderr, "faultshim: FAULT_FN=%s is not an entry point the shim knows\n", fn);
      exit(2);
    }
  }
  if (nth != NULL && *nth != '\0') fault_nth = parse_number("FAULT_NTH", nth, 0);
  if (code != NULL && *code != '\0') fault_code = (cl_int)(long)parse_number("FAULT_CODE", code, 1);
  fault_every = every != NULL && strcmp(every, "1") == 0;
}

static void write_report(void) {
  if (report_path == NULL) return;
  FILE* f = fopen(report_path, "w");
  if (f == NULL) {
    fprintf(stderr, "faultshim: cannot write FAULT_REPORT=%s\n", report_path);
    return;
  }
  for (int i = 0; i < entry_count; ++i)
    fprintf(f, "%s %lu %lu %s\n", entry_names[i], atomic_load(&calls[i]), atomic_load(&fired[i]),
            atomic_load(&fired[i]) != 0 && atomic_load(&fired_by_ready) ? fired_by : "-");
  fclose(f);
}

// At exit; also when a fault fires, so that a run that then crashes leaves the report.
__attribute__((destructor)) static void faultshim_report(void) { write_report(); }

// --- what a program can ask (dlsym(RTLD_DEFAULT, "faultshim_...")) ---

/// How many faults have fired so far.
unsigned long faultshim_fired(void) {
  unsigned long total = 0;
  for (int i = 0; i < entry_count; ++i) total += atomic_load(&fired[i]);
  return total;
}

/// The entry point set to fail, or NULL.
const char* faultshim_target(void) { return fault_id < 0 ? NULL : entry_names[fault_id]; }

/// The file name of the library (or program) that made the first failed call; "" before any.
const char* faultshim_fired_by(void) { return atomic_load(&fired_by_claimed) != 0 ? fired_by : ""; }

/// The calls of `name` so far (0 for a name the shim does not know).
unsigned long faultshim_calls(const char* name) {
  for (int i = 0; i < entry_count; ++i)
    if (strcmp(entry_names[i], name) == 0) return atomic_load(&calls[i]);
  return 0;
}

// --- the entry points ---

// A call that returns a status.
#define FAULTSHIM_STATUS(fn, params, args)                                       \
  typedef cl_int(CL_API_CALL* fn##_type) params;                                 \
  CL_API_ENTRY cl_int CL_API_CALL fn params {                                    \
    cl_int code_;                                                                \
    if (should_fail(id_##fn, __builtin_return_address(0), &code_)) return code_; \
    fn##_type real_;                                                             \
    void* p_ = real(id_##fn);                                                    \
    memcpy(&real_, &p_, sizeof real_);                                           \
    return real_ args;                                                           \
  }

// A call that returns an object and its status through errcode_ret.
#define FAULTSHIM_CREATE(type, fn, params, args)                     \
  typedef type(CL_API_CALL* fn##_type) params;                       \
  CL_API_ENTRY type CL_API_CALL fn params {                          \
    cl_int code_;                                                    \
    if (should_fail(id_##fn, __builtin_return_address(0), &code_)) { \
      if (errcode_ret != NULL) *errcode_ret = code_;                 \
      return NULL;                                                   \
    }                                                                \
    fn##_type real_;                                                 \
    void* p_ = real(id_##fn);                                        \
    memcpy(&real_, &p_, sizeof real_);                               \
    return real_ args;                                               \
  }

#define FAULTSHIM_REFCOUNT(fn, type) FAULTSHIM_STATUS(fn, (type object), (object))

typedef void(CL_CALLBACK* build_notify)(cl_program, void*);
typedef void(CL_CALLBACK* context_notify)(const char*, const void*, size_t, void*);
typedef void(CL_CALLBACK* event_notify)(cl_event, cl_int, void*);
typedef void(CL_CALLBACK* mem_notify)(cl_mem, void*);

FAULTSHIM_STATUS(clBuildProgram,
                 (cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                  const char* options, build_notify pfn_notify, void* user_data),
                 (program, num_devices, device_list, options, pfn_notify, user_data))
FAULTSHIM_STATUS(clCompileProgram,
                 (cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                  const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                  const char** header_include_names, build_notify pfn_notify, void* user_data),
                 (program, num_devices, device_list, options, num_input_headers, input_headers,
                  header_include_names, pfn_notify, user_data))
FAULTSHIM_CREATE(cl_program, clLinkProgram,
                 (cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                  const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                  build_notify pfn_notify, void* user_data, cl_int* errcode_ret),
                 (context, num_devices, device_list, options, num_input_programs, input_programs,
                  pfn_notify, user_data, errcode_ret))
FAULTSHIM_CREATE(cl_mem, clCreateBuffer,
                 (cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                  cl_int* errcode_ret),
                 (context, flags, size, host_ptr, errcode_ret))
FAULTSHIM_CREATE(cl_command_queue, clCreateCommandQueue,
                 (cl_context context, cl_device_id device, cl_command_queue_properties properties,
                  cl_int* errcode_ret),
                 (context, device, properties, errcode_ret))
FAULTSHIM_CREATE(cl_command_queue, clCreateCommandQueueWithProperties,
                 (cl_context context, cl_device_id device, const cl_queue_properties* properties,
                  cl_int* errcode_ret),
                 (context, device, properties, errcode_ret))
FAULTSHIM_CREATE(cl_context, clCreateContext,
                 (const cl_context_properties* properties, cl_uint num_devices,
                  const cl_device_id* devices, context_notify pfn_notify, void* user_data,
                  cl_int* errcode_ret),
                 (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))
FAULTSHIM_CREATE(cl_kernel, clCreateKernel,
                 (cl_program program, const char* kernel_name, cl_int* errcode_ret),
                 (program, kernel_name, errcode_ret))
FAULTSHIM_CREATE(cl_program, clCreateProgramWithBinary,
                 (cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                  const size_t* lengths, const unsigned char** binaries, cl_int* binary_status,
                  cl_int* errcode_ret),
                 (context, num_devices, device_list, lengths, binaries, binary_status, errcode_ret))
FAULTSHIM_CREATE(cl_program, clCreateProgramWithSource,
                 (cl_context context, cl_uint count, const char** strings, const size_t* lengths,
                  cl_int* errcode_ret),
                 (context, count, strings, lengths, errcode_ret))
FAULTSHIM_CREATE(cl_mem, clCreateSubBuffer,
                 (cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                  const void* buffer_create_info, cl_int* errcode_ret),
                 (buffer, flags, buffer_create_type, buffer_create_info, errcode_ret))
FAULTSHIM_STATUS(clCreateSubDevices,
                 (cl_device_id in_device, const cl_device_partition_property* properties,
                  cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret),
                 (in_device, properties, num_devices, out_devices, num_devices_ret))
FAULTSHIM_CREATE(cl_event, clCreateUserEvent, (cl_context context, cl_int* errcode_ret),
                 (context, errcode_ret))
FAULTSHIM_STATUS(clEnqueueBarrierWithWaitList,
                 (cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueCopyBuffer,
                 (cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                  size_t src_offset, size_t dst_offset, size_t size,
                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                  cl_event* event),
                 (command_queue, src_buffer, dst_buffer, src_offset, dst_offset, size,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueCopyBufferRect,
                 (cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                  const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                  size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                  size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, src_buffer, dst_buffer, src_origin, dst_origin, region,
                  src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueFillBuffer,
                 (cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                  size_t pattern_size, size_t offset, size_t size, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, buffer, pattern, pattern_size, offset, size,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_CREATE(void*, clEnqueueMapBuffer,
                 (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                  cl_map_flags map_flags, size_t offset, size_t size,
                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event,
                  cl_int* errcode_ret),
                 (command_queue, buffer, blocking_map, map_flags, offset, size,
                  num_events_in_wait_list, event_wait_list, event, errcode_ret))
FAULTSHIM_STATUS(clEnqueueMarkerWithWaitList,
                 (cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueNativeKernel,
                 (cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*), void* args,
                  size_t cb_args, cl_uint num_mem_objects, const cl_mem* mem_list,
                  const void** args_mem_loc, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, user_func, args, cb_args, num_mem_objects, mem_list, args_mem_loc,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueNDRangeKernel,
                 (cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                  const size_t* global_work_offset, const size_t* global_work_size,
                  const size_t* local_work_size, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, kernel, work_dim, global_work_offset, global_work_size,
                  local_work_size, num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueReadBuffer,
                 (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                  size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, buffer, blocking_read, offset, size, ptr, num_events_in_wait_list,
                  event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueReadBufferRect,
                 (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                  const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                  size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                  size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, buffer, blocking_read, buffer_origin, host_origin, region,
                  buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueUnmapMemObject,
                 (cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                  cl_event* event),
                 (command_queue, memobj, mapped_ptr, num_events_in_wait_list, event_wait_list,
                  event))
FAULTSHIM_STATUS(clEnqueueWriteBuffer,
                 (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                  size_t offset, size_t size, const void* ptr, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, buffer, blocking_write, offset, size, ptr, num_events_in_wait_list,
                  event_wait_list, event))
FAULTSHIM_STATUS(clEnqueueWriteBufferRect,
                 (cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                  const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                  size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                  size_t host_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
                  const cl_event* event_wait_list, cl_event* event),
                 (command_queue, buffer, blocking_write, buffer_origin, host_origin, region,
                  buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                  num_events_in_wait_list, event_wait_list, event))
FAULTSHIM_STATUS(clFinish, (cl_command_queue command_queue), (command_queue))
FAULTSHIM_STATUS(clFlush, (cl_command_queue command_queue), (command_queue))
FAULTSHIM_STATUS(clGetCommandQueueInfo,
                 (cl_command_queue command_queue, cl_command_queue_info param_name,
                  size_t param_value_size, void* param_value, size_t* param_value_size_ret),
                 (command_queue, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetContextInfo,
                 (cl_context context, cl_context_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (context, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetDeviceIDs,
                 (cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                  cl_device_id* devices, cl_uint* num_devices),
                 (platform, device_type, num_entries, devices, num_devices))
FAULTSHIM_STATUS(clGetDeviceInfo,
                 (cl_device_id device, cl_device_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (device, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetEventInfo,
                 (cl_event event, cl_event_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (event, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetEventProfilingInfo,
                 (cl_event event, cl_profiling_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (event, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetKernelArgInfo,
                 (cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                  size_t param_value_size, void* param_value, size_t* param_value_size_ret),
                 (kernel, arg_index, param_name, param_value_size, param_value,
                  param_value_size_ret))
FAULTSHIM_STATUS(clGetKernelInfo,
                 (cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (kernel, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetKernelWorkGroupInfo,
                 (cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                  size_t param_value_size, void* param_value, size_t* param_value_size_ret),
                 (kernel, device, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetMemObjectInfo,
                 (cl_mem memobj, cl_mem_info param_name, size_t param_value_size, void* param_value,
                  size_t* param_value_size_ret),
                 (memobj, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetPlatformIDs,
                 (cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms),
                 (num_entries, platforms, num_platforms))
FAULTSHIM_STATUS(clGetPlatformInfo,
                 (cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (platform, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetProgramBuildInfo,
                 (cl_program program, cl_device_id device, cl_program_build_info param_name,
                  size_t param_value_size, void* param_value, size_t* param_value_size_ret),
                 (program, device, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clGetProgramInfo,
                 (cl_program program, cl_program_info param_name, size_t param_value_size,
                  void* param_value, size_t* param_value_size_ret),
                 (program, param_name, param_value_size, param_value, param_value_size_ret))
FAULTSHIM_STATUS(clSetEventCallback,
                 (cl_event event, cl_int command_exec_callback_type, event_notify pfn_notify,
                  void* user_data),
                 (event, command_exec_callback_type, pfn_notify, user_data))
FAULTSHIM_STATUS(clSetKernelArg,
                 (cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value),
                 (kernel, arg_index, arg_size, arg_value))
FAULTSHIM_STATUS(clSetMemObjectDestructorCallback,
                 (cl_mem memobj, mem_notify pfn_notify, void* user_data),
                 (memobj, pfn_notify, user_data))
FAULTSHIM_STATUS(clSetKernelArgSVMPointer,
                 (cl_kernel kernel, cl_uint arg_index, const void* arg_value),
                 (kernel, arg_index, arg_value))
FAULTSHIM_STATUS(clSetKernelExecInfo,
                 (cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                  const void* param_value),
                 (kernel, param_name, param_value_size, param_value))
FAULTSHIM_STATUS(clEnqueueSVMMemcpy,
                 (cl_command_queue queue, cl_bool blocking, void* dst, const void* src, size_t size,
                  cl_uint num_events, const cl_event* wait_list, cl_event* event),
                 (queue, blocking, dst, src, size, num_events, wait_list, event))
FAULTSHIM_STATUS(clEnqueueSVMMemFill,
                 (cl_command_queue queue, void* svm_ptr, const void* pattern, size_t pattern_size,
                  size_t size, cl_uint num_events, const cl_event* wait_list, cl_event* event),
                 (queue, svm_ptr, pattern, pattern_size, size, num_events, wait_list, event))
FAULTSHIM_STATUS(clEnqueueSVMMap,
                 (cl_command_queue queue, cl_bool blocking, cl_map_flags flags, void* svm_ptr,
                  size_t size, cl_uint num_events, const cl_event* wait_list, cl_event* event),
                 (queue, blocking, flags, svm_ptr, size, num_events, wait_list, event))
FAULTSHIM_STATUS(clEnqueueSVMUnmap,
                 (cl_command_queue queue, void* svm_ptr, cl_uint num_events,
                  const cl_event* wait_list, cl_event* event),
                 (queue, svm_ptr, num_events, wait_list, event))

FAULTSHIM_CREATE(cl_mem, clCreateImage,
                 (cl_context context, cl_mem_flags flags, const cl_image_format* format,
                  const cl_image_desc* desc, void* host_ptr, cl_int* errcode_ret),
                 (context, flags, format, desc, host_ptr, errcode_ret))
FAULTSHIM_STATUS(clGetSupportedImageFormats,
                 (cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                  cl_uint num_entries, cl_image_format* formats, cl_uint* num_formats),
                 (context, flags, type, num_entries, formats, num_formats))
FAULTSHIM_CREATE(cl_sampler, clCreateSamplerWithProperties,
                 (cl_context context, const cl_sampler_properties* properties, cl_int* errcode_ret),
                 (context, properties, errcode_ret))
FAULTSHIM_STATUS(clEnqueueReadImage,
                 (cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t* origin,
                  const size_t* region, size_t row_pitch, size_t slice_pitch, void* ptr,
                  cl_uint num_events, const cl_event* wait_list, cl_event* event),
                 (queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events,
                  wait_list, event))
FAULTSHIM_STATUS(clEnqueueWriteImage,
                 (cl_command_queue queue, cl_mem image, cl_bool blocking, const size_t* origin,
                  const size_t* region, size_t row_pitch, size_t slice_pitch, const void* ptr,
                  cl_uint num_events, const cl_event* wait_list, cl_event* event),
                 (queue, image, blocking, origin, region, row_pitch, slice_pitch, ptr, num_events,
                  wait_list, event))
FAULTSHIM_STATUS(clEnqueueCopyImage,
                 (cl_command_queue queue, cl_mem src, cl_mem dst, const size_t* src_origin,
                  const size_t* dst_origin, const size_t* region, cl_uint num_events,
                  const cl_event* wait_list, cl_event* event),
                 (queue, src, dst, src_origin, dst_origin, region, num_events, wait_list, event))
FAULTSHIM_STATUS(clEnqueueFillImage,
                 (cl_command_queue queue, cl_mem image, const void* color, const size_t* origin,
                  const size_t* region, cl_uint num_events, const cl_event* wait_list,
                  cl_event* event),
                 (queue, image, color, origin, region, num_events, wait_list, event))
FAULTSHIM_CREATE(void*, clEnqueueMapImage,
                 (cl_command_queue queue, cl_mem image, cl_bool blocking, cl_map_flags flags,
                  const size_t* origin, const size_t* region, size_t* row_pitch,
                  size_t* slice_pitch, cl_uint num_events, const cl_event* wait_list,
                  cl_event* event, cl_int* errcode_ret),
                 (queue, image, blocking, flags, origin, region, row_pitch, slice_pitch, num_events,
                  wait_list, event, errcode_ret))

// clSVMAlloc reports no status: a failed call returns NULL.
typedef void*(CL_API_CALL* clSVMAlloc_type)(cl_context, cl_svm_mem_flags, size_t, cl_uint);
CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment) {
  cl_int code_;
  if (should_fail(id_clSVMAlloc, __builtin_return_address(0), &code_)) return NULL;
  clSVMAlloc_type real_;
  void* p_ = real(id_clSVMAlloc);
  memcpy(&real_, &p_, sizeof real_);
  return real_(context, flags, size, alignment);
}

FAULTSHIM_STATUS(clSetUserEventStatus, (cl_event event, cl_int execution_status),
                 (event, execution_status))
FAULTSHIM_STATUS(clWaitForEvents, (cl_uint num_events, const cl_event* event_list),
                 (num_events, event_list))
FAULTSHIM_REFCOUNT(clRetainCommandQueue, cl_command_queue)
FAULTSHIM_REFCOUNT(clRetainContext, cl_context)
FAULTSHIM_REFCOUNT(clRetainDevice, cl_device_id)
FAULTSHIM_REFCOUNT(clRetainEvent, cl_event)
FAULTSHIM_REFCOUNT(clRetainSampler, cl_sampler)
FAULTSHIM_REFCOUNT(clRetainKernel, cl_kernel)
FAULTSHIM_REFCOUNT(clRetainMemObject, cl_mem)
FAULTSHIM_REFCOUNT(clRetainProgram, cl_program)
FAULTSHIM_REFCOUNT(clReleaseCommandQueue, cl_command_queue)
FAULTSHIM_REFCOUNT(clReleaseContext, cl_context)
FAULTSHIM_REFCOUNT(clReleaseDevice, cl_device_id)
FAULTSHIM_REFCOUNT(clReleaseEvent, cl_event)
FAULTSHIM_REFCOUNT(clReleaseSampler, cl_sampler)
FAULTSHIM_REFCOUNT(clReleaseKernel, cl_kernel)
FAULTSHIM_REFCOUNT(clReleaseMemObject, cl_mem)
FAULTSHIM_REFCOUNT(clReleaseProgram, cl_program)

// --- extension entry points: the driver's are found through
// clGetExtensionFunctionAddressForPlatform, so the shim hands out wrappers of its own and keeps
// the driver's in real_fn ---

#define FAULTSHIM_EXT_REAL(fn)                                              \
  fn##_fn real_;                                                            \
  void* p_ = atomic_load_explicit(&real_fn[id_##fn], memory_order_acquire); \
  memcpy(&real_, &p_, sizeof real_)

#define FAULTSHIM_EXT_STATUS(fn, params, args)                                   \
  static cl_int CL_API_CALL shim_##fn params {                                   \
    cl_int code_;                                                                \
    if (should_fail(id_##fn, __builtin_return_address(0), &code_)) return code_; \
    FAULTSHIM_EXT_REAL(fn);                                                      \
    return real_ args;                                                           \
  }

FAULTSHIM_EXT_STATUS(clFinalizeCommandBufferKHR, (cl_command_buffer_khr command_buffer),
                     (command_buffer))
FAULTSHIM_EXT_STATUS(clReleaseCommandBufferKHR, (cl_command_buffer_khr command_buffer),
                     (command_buffer))
FAULTSHIM_EXT_STATUS(clEnqueueCommandBufferKHR,
                     (cl_uint num_queues, cl_command_queue* queues,
                      cl_command_buffer_khr command_buffer, cl_uint num_events_in_wait_list,
                      const cl_event* event_wait_list, cl_event* event),
                     (num_queues, queues, command_buffer, num_events_in_wait_list, event_wait_list,
                      event))
FAULTSHIM_EXT_STATUS(clCommandNDRangeKernelKHR,
                     (cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      const cl_ndrange_kernel_command_properties_khr* properties, cl_kernel kernel,
                      cl_uint work_dim, const size_t* global_work_offset,
                      const size_t* global_work_size, const size_t* local_work_size,
                      cl_uint num_sync_points_in_wait_list,
                      const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
                      cl_mutable_command_khr* mutable_handle),
                     (command_buffer, command_queue, properties, kernel, work_dim,
                      global_work_offset, global_work_size, local_work_size,
                      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
                      mutable_handle))
FAULTSHIM_EXT_STATUS(clCommandCopyBufferKHR,
                     (cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      cl_mem src_buffer, cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                      size_t size, cl_uint num_sync_points_in_wait_list,
                      const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
                      cl_mutable_command_khr* mutable_handle),
                     (command_buffer, command_queue, src_buffer, dst_buffer, src_offset, dst_offset,
                      size, num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
                      mutable_handle))
FAULTSHIM_EXT_STATUS(clCommandFillBufferKHR,
                     (cl_command_buffer_khr command_buffer, cl_command_queue command_queue,
                      cl_mem buffer, const void* pattern, size_t pattern_size, size_t offset,
                      size_t size, cl_uint num_sync_points_in_wait_list,
                      const cl_sync_point_khr* sync_point_wait_list, cl_sync_point_khr* sync_point,
                      cl_mutable_command_khr* mutable_handle),
                     (command_buffer, command_queue, buffer, pattern, pattern_size, offset, size,
                      num_sync_points_in_wait_list, sync_point_wait_list, sync_point,
                      mutable_handle))

static cl_command_buffer_khr CL_API_CALL shim_clCreateCommandBufferKHR(
    cl_uint num_queues, const cl_command_queue* queues,
    const cl_command_buffer_properties_khr* properties, cl_int* errcode_ret) {
  cl_int code_;
  if (should_fail(id_clCreateCommandBufferKHR, __builtin_return_address(0), &code_)) {
    if (errcode_ret != NULL) *errcode_ret = code_;
    return NULL;
  }
  FAULTSHIM_EXT_REAL(clCreateCommandBufferKHR);
  return real_(num_queues, queues, properties, errcode_ret);
}

typedef void*(CL_API_CALL* ext_lookup_type)(cl_platform_id, const char*);

// A failed lookup returns NULL, as for an entry point the driver does not have.
CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) {
  cl_int code_;
  if (should_fail(id_clGetExtensionFunctionAddressForPlatform, __builtin_return_address(0), &code_))
    return NULL;
  ext_lookup_type real_;
  void* p_ = real(id_clGetExtensionFunctionAddressForPlatform);
  memcpy(&real_, &p_, sizeof real_);
  void* found = real_(platform, func_name);
  if (found == NULL || func_name == NULL) return found;
  clCreateCommandBufferKHR_fn create = shim_clCreateCommandBufferKHR;
  clFinalizeCommandBufferKHR_fn finalize = shim_clFinalizeCommandBufferKHR;
  clEnqueueCommandBufferKHR_fn enqueue = shim_clEnqueueCommandBufferKHR;
  clCommandNDRangeKernelKHR_fn ndrange = shim_clCommandNDRangeKernelKHR;
  clCommandCopyBufferKHR_fn copy = shim_clCommandCopyBufferKHR;
  clCommandFillBufferKHR_fn fill = shim_clCommandFillBufferKHR;
  clReleaseCommandBufferKHR_fn release = shim_clReleaseCommandBufferKHR;
  const struct {
    int id;
    const void* fn;  // the address of the wrapper's function pointer
    size_t size;
  } wrapped[] = {{id_clCreateCommandBufferKHR, &create, sizeof create},
                 {id_clFinalizeCommandBufferKHR, &finalize, sizeof finalize},
                 {id_clEnqueueCommandBufferKHR, &enqueue, sizeof enqueue},
                 {id_clCommandNDRangeKernelKHR, &ndrange, sizeof ndrange},
                 {id_clCommandCopyBufferKHR, &copy, sizeof copy},
                 {id_clCommandFillBufferKHR, &fill, sizeof fill},
                 {id_clReleaseCommandBufferKHR, &release, sizeof release}};
  for (size_t i = 0; i < sizeof wrapped / sizeof wrapped[0]; ++i) {
    if (strcmp(func_name, entry_names[wrapped[i].id]) != 0) continue;
    atomic_store_explicit(&real_fn[wrapped[i].id], found, memory_order_release);
    void* w;
    memcpy(&w, wrapped[i].fn, sizeof w);
    return w;
  }
  return found;
}
