// SPDX-License-Identifier: Apache-2.0
// Kernels, their argument and work-group info, and typed, thread-safe launches.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "anycl/buffer.hpp"
#include "anycl/cl.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"
#include "anycl/nd_range.hpp"
#include "anycl/program.hpp"

namespace anycl {

class command_queue;
class svm_memory;
namespace detail {
struct kernel_state;
struct svm_state;
}  // namespace detail

/// A `__local T[count]` kernel argument: the driver allocates it per work-group.
template <class T>
struct local_memory {
  explicit local_memory(std::size_t count) noexcept : size(count) {}
  std::size_t size;  ///< elements
  std::size_t bytes() const noexcept { return size * sizeof(T); }
};

/// Where a kernel argument lives (CL_KERNEL_ARG_ADDRESS_QUALIFIER).
enum class address_space { global, local, constant, private_ };

/// How a kernel may use an image argument (CL_KERNEL_ARG_ACCESS_QUALIFIER); none for the rest.
enum class access_qualifier { none, read_only, write_only, read_write };

/// One argument's declaration, known when the program was built with -cl-kernel-arg-info.
struct kernel_arg_info {
  std::string name;       ///< CL_KERNEL_ARG_NAME
  std::string type_name;  ///< CL_KERNEL_ARG_TYPE_NAME, e.g. "float*"
  address_space space = address_space::private_;
  access_qualifier access = access_qualifier::none;
};

/// What a kernel needs on one device (clGetKernelWorkGroupInfo).
struct work_group_info {
  std::size_t work_group_size = 0;            ///< most work-items per group for this kernel
  std::array<std::size_t, 3> compile_size{};  ///< reqd_work_group_size, or zeros
  cl_ulong local_memory = 0;                  ///< static __local bytes
  cl_ulong private_memory = 0;                ///< bytes per work-item
  std::size_t preferred_multiple = 0;         ///< preferred work-group size multiple
};

/// Owns a cl_kernel plus a lock: arguments are set and the kernel enqueued as one step under it, so
/// one kernel object (and its copies) may be launched from many threads at once.
class ANYCL_EXPORT kernel {
 public:
  kernel() noexcept = default;
  /// clCreateKernel; throws api_error naming the kernels that exist if `name` is not one of them,
  /// or saying the program is not built.
  kernel(const program& prog, const std::string& name);
  static kernel retain(cl_kernel raw);

  cl_kernel get() const noexcept;
  explicit operator bool() const noexcept { return get() != nullptr; }
  const std::string& name() const noexcept;
  /// The program's name (its file), for messages.
  const std::string& program_name() const noexcept;
  cl_uint num_args() const noexcept;
  anycl::context context() const;
  /// Argument `index`'s declaration, or nothing when the driver does not keep it (build with
  /// -cl-kernel-arg-info). Throws std::out_of_range for an index past num_args().
  std::optional<kernel_arg_info> arg_info(cl_uint index) const;
  /// Limits of this kernel on `dev`.
  work_group_info work_group(const device& dev) const;
  /// The SVM allocations the kernel reaches through pointers stored in its arguments' data, not
  /// passed as arguments (clSetKernelExecInfo, CL_KERNEL_EXEC_INFO_SVM_PTRS): later launches of
  /// this kernel and its copies keep them alive and make them the device's. Replaces the earlier
  /// list; each must belong to the kernel's context (std::invalid_argument otherwise).
  void use_svm(const std::vector<svm_memory>& indirect) const;

  /// Null unless the kernel is valid (internal).
  detail::kernel_state* state() const noexcept { return state_.get(); }

 private:
  explicit kernel(std::shared_ptr<detail::kernel_state> s) noexcept : state_(std::move(s)) {}
  std::shared_ptr<detail::kernel_state> state_;
};

namespace detail {

/// One kernel argument as the launcher sees it.
struct kernel_arg {
  enum class kind : unsigned char { value, memory, local, svm, sampler };
  std::size_t size = 0;          ///< bytes of the value, or of __local memory
  const void* value = nullptr;   ///< the value (kind::value), the SVM pointer (kind::svm)
  cl_mem mem = nullptr;          ///< the buffer (kind::memory)
  std::size_t offset = 0;        ///< a buffer_view's byte offset: non-zero is refused at launch
  svm_state* svm = nullptr;      ///< the pointer's allocation (kind::svm; null for a null pointer)
  cl_sampler sampler = nullptr;  ///< the sampler (kind::sampler)
  kind k = kind::value;
};

template <class T>
struct is_buffer_view : std::false_type {};
template <class T>
struct is_buffer_view<buffer_view<T>> : std::true_type {};

/// How a host value becomes a kernel argument; specialised for buffers and local memory.
template <class T, class = void>
struct arg_traits {
  static_assert(!std::is_pointer_v<T>,
                "AnyCL: a raw pointer cannot be a kernel argument; pass an anycl::buffer, "
                "anycl::buffer_view or anycl::svm_ptr for __global memory, or "
                "anycl::local_memory<T> for __local");
  static_assert(!std::is_same_v<T, bool>,
                "AnyCL: OpenCL kernels cannot take bool arguments; use int");
  static_assert(
      std::is_trivially_copyable_v<T> && std::is_standard_layout_v<T>,
      "AnyCL: kernel arguments must be trivially copyable scalars, vectors (cl_float4) or "
      "plain structs, buffers or local_memory");
  static kernel_arg make(const T& v) noexcept {
    kernel_arg a;
    a.size = sizeof(T);
    a.value = &v;
    return a;
  }
};
/// A cl_mem argument (a buffer or an image).
inline kernel_arg memory_arg(cl_mem mem) noexcept {
  kernel_arg a;
  a.k = kernel_arg::kind::memory;
  a.size = sizeof(cl_mem);
  a.mem = mem;
  return a;
}
template <>
struct arg_traits<buffer> {
  static kernel_arg make(const buffer& b) noexcept { return memory_arg(b.get()); }
};
/// A view passes its buffer; a view with an offset needs a sub-buffer, which is refused at launch.
template <class T>
struct arg_traits<buffer_view<T>> {
  static kernel_arg make(const buffer_view<T>& v) noexcept {
    kernel_arg a = arg_traits<buffer>::make(v.buffer());
    a.offset = v.byte_offset();
    return a;
  }
};
template <class T>
struct arg_traits<local_memory<T>> {
  static kernel_arg make(const local_memory<T>& l) noexcept {
    kernel_arg a;
    a.k = kernel_arg::kind::local;
    a.size = l.bytes();
    return a;
  }
};

/// Sets the arguments and enqueues under the kernel's lock, after validate_launch. `args` may be
/// modified (memory arguments get their value pointer set).
ANYCL_EXPORT event enqueue_kernel(const kernel& k, const command_queue& q, const nd_range& r,
                                  kernel_arg* args, std::size_t count, const wait_list& waits);

template <class... As>
event launch(const kernel& k, const command_queue& q, const nd_range& r, const wait_list& waits,
             const As&... as) {
  std::array<kernel_arg, sizeof...(As)> args{arg_traits<As>::make(as)...};
  return enqueue_kernel(k, q, r, args.data(), args.size(), waits);
}

/// What a kernel_function parameter type is for the checks of check_arity: 'i' an image, 's' a
/// sampler, '-' anything else (specialised in image.hpp).
template <class T>
struct param_kind {
  static constexpr char value = '-';
};

/// Throws std::invalid_argument unless the kernel has `expected` arguments, and, where the driver
/// keeps argument info, unless parameter i is an image or a sampler exactly where `kinds[i]` (of
/// param_kind) says so: drivers crash launching a buffer given for an image, or an image for a
/// sampler (POCL 3.1).
ANYCL_EXPORT void check_arity(const kernel& k, std::size_t expected, const char* kinds);

/// Converts a call argument to the declared parameter type T, except that a buffer given for a
/// buffer_view parameter passes straight through (a temporary view would retain and release the
/// cl_mem on every launch).
template <class T, class A>
decltype(auto) as_param(const A& a) {
  static_assert(
      std::is_convertible_v<const A&, T>,
      "AnyCL: a kernel_function argument does not convert to the declared parameter type");
  if constexpr (std::is_same_v<A, T> || (std::is_same_v<A, buffer> && is_buffer_view<T>::value)) {
    return static_cast<const A&>(a);
  } else {
    return static_cast<T>(a);
  }
}

}  // namespace detail

/// A kernel with its argument types fixed at compile time: arity is checked once against the
/// kernel, arguments convert to Ts at the call, raw pointers and non-trivial types are rejected by
/// static_assert. Thread-safe like kernel.
template <class... Ts>
class kernel_function {
 public:
  kernel_function() = default;
  /// Throws std::invalid_argument if the kernel does not take sizeof...(Ts) arguments.
  explicit kernel_function(anycl::kernel k) : k_(std::move(k)) {
    static constexpr char kinds[] = {detail::param_kind<Ts>::value..., '\0'};
    detail::check_arity(k_, sizeof...(Ts), kinds);
  }
  kernel_function(const program& prog, const std::string& name)
      : kernel_function(anycl::kernel(prog, name)) {}

  /// Enqueues the kernel on `queue` over `range` with `args`, each converted to its Ts; returns the
  /// command's event.
  template <class... Args, class = std::enable_if_t<sizeof...(Args) == sizeof...(Ts)>>
  event operator()(const command_queue& queue, const nd_range& range, const Args&... args) const {
    return detail::launch(k_, queue, range, wait_list{}, detail::as_param<Ts>(args)...);
  }
  /// The same, after the events in `waits`.
  template <class... Args, class = std::enable_if_t<sizeof...(Args) == sizeof...(Ts)>>
  event operator()(const command_queue& queue, const nd_range& range, const wait_list& waits,
                   const Args&... args) const {
    return detail::launch(k_, queue, range, waits, detail::as_param<Ts>(args)...);
  }
  const anycl::kernel& kernel() const noexcept { return k_; }

 private:
  anycl::kernel k_;
};

template <class... Ts>
kernel_function<Ts...> program::function(const std::string& name) const {
  return kernel_function<Ts...>(*this, name);
}

}  // namespace anycl
