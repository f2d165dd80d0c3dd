// SPDX-License-Identifier: Apache-2.0
// Fast Fourier transforms through clFFT: plans for 1-D to 3-D, complex and real, batched
// transforms on buffer views and arrays; clFFT's process-wide setup owned by a reference count.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/buffer.hpp"
#include "anycl/command_queue.hpp"
#include "anycl/error.hpp"
#include "anycl/event.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// A clFFT call failed. what() reads "clfftBakePlan failed: CLFFT_NOTIMPLEMENTED (4097) for
/// complex_to_complex float plan, lengths (6, 10), batch 1: <detail>. Hint: <hint>".
class ANYCL_EXPORT fft_error : public error {
 public:
  fft_error(std::string call, int status, std::string detail);
  /// The clFFT entry point, e.g. "clfftBakePlan".
  const std::string& call() const noexcept { return call_; }
  /// The clfftStatus the call returned (OpenCL codes, or 4096 and above for clFFT's own).
  int status() const noexcept { return status_; }
  /// "CLFFT_NOTIMPLEMENTED (4097)", or an OpenCL code's name: "CL_INVALID_VALUE (-30)".
  std::string status_name() const;
  /// The plan the call was for (kind, precision, lengths, batch) and what AnyCL was doing.
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string call_;
  int status_;
  std::string detail_;
};

namespace fft {

/// What a plan transforms.
enum class transform {
  complex_to_complex,  ///< complex in, complex out, forward or inverse
  real_to_complex,     ///< real in, the non-redundant half spectrum out (always forward)
  complex_to_real      ///< a half spectrum in, real out (always inverse)
};

/// The sign of the exponent: forward is exp(-2 pi i jk/n), inverse exp(+2 pi i jk/n).
enum class direction { forward, inverse };

/// The element precision: float (std::complex<float>) or double (std::complex<double>).
enum class precision { f32, f64 };

/// Everything a plan needs. Lengths, strides and the shapes of the data are in row-major order,
/// like anycl::shape: the last axis varies fastest. For real transforms the complex side holds
/// n/2 + 1 elements along the last axis (the half spectrum, as numpy's rfftn). Strides and
/// distances count elements of the side's own type (real or complex); empty strides and a zero
/// distance mean dense: for an in-place real transform the real rows are padded to
/// 2 * (n/2 + 1) reals, so that the complex result fits in the same memory.
struct plan_desc {
  std::vector<std::size_t> lengths;  ///< 1 to 3 axes, each a product of 2, 3, 5, 7, 11 and 13
  transform kind = transform::complex_to_complex;
  direction dir = direction::forward;  ///< complex_to_complex only; real transforms ignore it
  precision prec = precision::f32;
  bool in_place = false;  ///< the output overwrites the input (execute with one buffer)
  std::size_t batch = 1;  ///< transforms per execute
  std::vector<std::size_t> in_strides, out_strides;  ///< per axis; empty: dense
  std::size_t in_distance = 0, out_distance = 0;     ///< between batch members; 0: dense
  /// The factor applied to the result; 0 means clFFT's default: 1 forward, 1/N inverse (N the
  /// product of the lengths), so that forward then inverse gives the input back.
  double scale = 0;

  /// A complex-to-complex plan of `lengths` in direction `d`.
  static plan_desc c2c(std::vector<std::size_t> lengths, direction d = direction::forward,
                       precision p = precision::f32) {
    plan_desc out;
    out.lengths = std::move(lengths);
    out.dir = d;
    out.prec = p;
    return out;
  }
  /// A real-to-complex (forward) plan of `lengths` (the real side's lengths).
  static plan_desc r2c(std::vector<std::size_t> lengths, precision p = precision::f32) {
    plan_desc out = c2c(std::move(lengths), direction::forward, p);
    out.kind = transform::real_to_complex;
    return out;
  }
  /// A complex-to-real (inverse) plan of `lengths` (the real side's lengths).
  static plan_desc c2r(std::vector<std::size_t> lengths, precision p = precision::f32) {
    plan_desc out = c2c(std::move(lengths), direction::inverse, p);
    out.kind = transform::complex_to_real;
    return out;
  }
};

/// Holds clFFT's process-wide setup (clfftSetup) while it lives. Every plan holds one; code that
/// calls clFFT directly next to AnyCL holds one too, and then must neither call clfftSetup nor
/// clfftTeardown itself. clfftTeardown runs when the last guard (and so the last plan) ends,
/// under a lock, once per setup, never from a static destructor; a later guard sets clFFT up
/// again (safe in clFFT 2.12.2 once every plan is destroyed, which the count guarantees).
/// Teardown frees clFFT's compiled kernels, and with them the references they hold on contexts.
/// Keep guards and plans out of static storage. Throws fft_error when clfftSetup fails.
class ANYCL_EXPORT library_guard {
 public:
  library_guard();
  library_guard(const library_guard& other);
  library_guard(library_guard&& other) noexcept;
  library_guard& operator=(library_guard other) noexcept;
  ~library_guard();

 private:
  bool held_ = false;
};

/// The lengths nearest to one clFFT cannot transform.
struct supported_lengths {
  std::size_t below = 0, above = 0;
};
/// The largest length <= n (below) and the smallest length >= n (above) that clFFT transforms
/// (products of 2, 3, 5, 7, 11 and 13); both are n when n is supported, below is 0 for n = 0.
/// The message of a plan refused for its length names them.
ANYCL_EXPORT supported_lengths nearest_supported(std::size_t n);
/// True when clFFT 2.12.2 has kernels for length `n` (n >= 1 and a product of 2, 3, 5, 7, 11, 13).
ANYCL_EXPORT bool is_supported_length(std::size_t n) noexcept;

/// The element types a transform reads and writes: float and double on real sides,
/// std::complex<float> and std::complex<double> on complex sides.
template <class T>
inline constexpr bool is_fft_element_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

class plan;

}  // namespace fft

namespace detail {

/// The element type of one side of a transform (f32, f64, c64 or c128).
template <class T>
constexpr scalar_type fft_element_of() noexcept {
  static_assert(fft::is_fft_element_v<T>,
                "anycl::fft: data must be float, double, std::complex<float> or "
                "std::complex<double>");
  return scalar_type_of<T>();
}

/// One buffer a transform reads or writes: bytes [offset, offset + bytes) of `buf`.
struct fft_operand {
  const anycl::buffer* buf = nullptr;
  std::size_t offset = 0;  ///< bytes
  std::size_t bytes = 0;
  scalar_type type = scalar_type::c64;
  const char* role = "input";  ///< "input", "output" or "data" (in-place), for messages
};

template <class T>
fft_operand fft_operand_of(const buffer_view<T>& v, const char* role) {
  return {&v.buffer(), v.byte_offset(), v.bytes(), fft_element_of<std::remove_const_t<T>>(), role};
}

class fft_plan_state;

}  // namespace detail

namespace fft {

/// A baked clFFT plan (clfftCreateDefaultPlan, clfftSet*, clfftBakePlan) for one device of one
/// context, with the temporary buffer it needs (clfftGetTmpBufSize), allocated once. Move-only.
/// execute() may be called from several threads at once: calls are serialised (clFFT plans and
/// the kernels clFFT shares between equal plans are not thread-safe), and each transform waits
/// for the previous one of this plan, whose intermediate buffers it reuses.
class ANYCL_EXPORT plan {
 public:
  plan() noexcept;
  /// Checks `desc` (std::invalid_argument for no or more than three lengths, a zero length,
  /// batch or stride, strides of the wrong count, an in-place layout whose sides do not share
  /// memory, or a length clFFT cannot do, naming the nearest lengths it can) before any clFFT
  /// call, then bakes the plan for `queue`'s device and context (fft_error when clFFT fails,
  /// e.g. CLFFT_DEVICE_NO_DOUBLE). The first plan of a shape compiles clFFT's kernels: seconds
  /// on POCL the first time, then its program cache.
  plan(const command_queue& queue, const plan_desc& desc);
  plan(plan&& other) noexcept;
  plan& operator=(plan&& other) noexcept;
  plan(const plan&) = delete;
  plan& operator=(const plan&) = delete;
  /// clfftDestroyPlan; the last plan (and library_guard) alive also tears clFFT down.
  ~plan();

  explicit operator bool() const noexcept { return static_cast<bool>(state_); }
  const plan_desc& desc() const;
  /// Bytes of the temporary buffer the plan owns (0 when clFFT needs none).
  std::size_t temp_bytes() const;
  /// Elements each side needs (the furthest element touched + 1), in its own element type.
  std::size_t input_elements() const;
  std::size_t output_elements() const;
  /// The raw clfftPlanHandle, for interop.
  std::size_t handle() const;

  /// Transforms `in` into `out` (out-of-place plans) on `queue` (clfftEnqueueTransform) after
  /// `waits`, and returns the transform's event. Element types: std::complex<T> on complex sides,
  /// T on real sides, T the plan's precision. Throws std::invalid_argument, before any clFFT
  /// call, for an empty plan, a queue of another context or device than the plan's, the wrong
  /// real/complex type or precision, overlapping in and out, a view offset that is not a multiple
  /// of the device's base address alignment; std::out_of_range for a view smaller than the
  /// plan's layout needs (clFFT itself would write past it). fft_error when clFFT fails. The
  /// input of a complex_to_real transform may be overwritten.
  template <class In, class Out>
  event execute(const command_queue& queue, const buffer_view<In>& in, const buffer_view<Out>& out,
                const wait_list& waits = {}) const {
    return run(queue, detail::fft_operand_of(in, "input"), detail::fft_operand_of(out, "output"),
               true, waits);
  }
  /// Transforms `data` in place (in-place plans). For real transforms `data` may be viewed as
  /// real or complex; it must hold both sides (real rows padded to 2 * (n/2 + 1)).
  template <class T>
  event execute(const command_queue& queue, const buffer_view<T>& data,
                const wait_list& waits = {}) const {
    const detail::fft_operand d = detail::fft_operand_of(data, "data");
    return run(queue, d, d, false, waits);
  }
  /// The same on contiguous arrays (std::invalid_argument for a strided view: copy() it), on the
  /// output array's queue, after `waits` and the arrays' last commands; the event is recorded on
  /// both arrays. Both must be in the plan's context.
  template <class In, class Out>
  event execute(const array<In>& in, const array<Out>& out, const wait_list& waits = {}) const {
    detail::fft_element_of<In>();  // the element checks of the view forms, at compile time
    detail::fft_element_of<Out>();
    return run_arrays(in.core(), out.core(), true, waits);
  }
  /// In place on one contiguous array, on its queue.
  template <class T>
  event execute(const array<T>& data, const wait_list& waits = {}) const {
    detail::fft_element_of<T>();
    return run_arrays(data.core(), data.core(), false, waits);
  }

 private:
  event run(const command_queue& queue, const detail::fft_operand& in,
            const detail::fft_operand& out, bool out_of_place, const wait_list& waits) const;
  event run_arrays(const detail::array_core& in, const detail::array_core& out, bool out_of_place,
                   const wait_list& waits) const;
  std::unique_ptr<detail::fft_plan_state> state_;
};

}  // namespace fft
}  // namespace anycl
