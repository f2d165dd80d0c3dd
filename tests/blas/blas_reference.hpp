// SPDX-License-Identifier: Apache-2.0
// Host references for the BLAS tests: random data with a printed seed, element access by layout,
// naive gemm/gemv loops, and a tolerance check.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "anycl/blas.hpp"
#include "anycl/host_libraries.hpp"
#include "support/device_fixture.hpp"

namespace anycl::test::blas_ref {

using anycl::blas::layout;
using anycl::blas::transpose;

template <class T>
using real_t = anycl::detail::real_of_t<T>;

/// n values in [-1, 1] (both parts for complex).
template <class T>
std::vector<T> random(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (anycl::blas::is_complex_v<T>)
      x = T(static_cast<real_t<T>>(d(rng)), static_cast<real_t<T>>(d(rng)));
    else
      x = static_cast<T>(d(rng));
  }
  return v;
}

/// Position of element (i, j) of a matrix stored with `lay` and `ld`.
inline std::size_t pos(layout lay, std::size_t ld, std::size_t i, std::size_t j) {
  return lay == layout::row_major ? i * ld + j : j * ld + i;
}

template <class T>
T conj_if(T v, bool c) {
  if constexpr (anycl::blas::is_complex_v<T>)
    return c ? std::conj(v) : v;
  else
    return v;
}

/// op(M)(i, j) for a matrix stored at `data + off`.
template <class T>
T op_at(const std::vector<T>& data, std::size_t off, layout lay, std::size_t ld, transpose t,
        std::size_t i, std::size_t j) {
  if (t == transpose::none) return data[off + pos(lay, ld, i, j)];
  return conj_if(data[off + pos(lay, ld, j, i)], t == transpose::conj_trans);
}

/// C = alpha op(A) op(B) + beta C on host vectors (C m x n, k inner), every matrix with its own
/// layout, ld and offset.
template <class T>
void gemm(transpose ta, transpose tb, std::size_t m, std::size_t n, std::size_t k, T alpha,
          const std::vector<T>& a, std::size_t aoff, layout al, std::size_t lda,
          const std::vector<T>& b, std::size_t boff, layout bl, std::size_t ldb, T beta,
          std::vector<T>& c, std::size_t coff, layout cl, std::size_t ldc) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      T s = T(0);
      for (std::size_t p = 0; p < k; ++p)
        s += op_at(a, aoff, al, lda, ta, i, p) * op_at(b, boff, bl, ldb, tb, p, j);
      T& out = c[coff + pos(cl, ldc, i, j)];
      out = alpha * s + beta * out;
    }
}

/// Largest |got - want| / (1 + |want|) over all elements.
template <class T>
double max_error(const std::vector<T>& got, const std::vector<T>& want) {
  double worst = 0;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i)
    worst = std::max(worst, static_cast<double>(std::abs(got[i] - want[i])) /
                                (1.0 + static_cast<double>(std::abs(want[i]))));
  if (got.size() != want.size()) worst = 1e30;
  return worst;
}

/// The tolerance for sums of up to a few hundred products of T.
template <class T>
double tolerance() {
  return std::is_same_v<real_t<T>, float> ? 1e-4 : 1e-11;
}

/// True (with a warning) when T is double-based and the device has no fp64.
template <class T>
bool skip_double(const anycl::test::env& e) {
  if (std::is_same_v<real_t<T>, double> && !e.dev.fp64()) {
    WARN("no fp64 on this device: double not tested");
    return true;
  }
  return false;
}

/// A host matrix placed in a device buffer with an offset and a padded leading dimension.
template <class T>
struct placed {
  std::size_t rows, cols, ld, off;
  layout lay;
  std::vector<T> host;
  anycl::buffer buf;
  placed(const anycl::context& ctx, std::size_t r, std::size_t c, layout l, std::size_t pad,
         std::size_t offset, std::uint32_t seed)
      : rows(r), cols(c), ld((l == layout::row_major ? c : r) + pad), off(offset), lay(l) {
    const std::size_t major = l == layout::row_major ? r : c;
    host = random<T>(off + (major == 0 ? 0 : (major - 1) * ld + ld - pad) + 3, seed);
    buf = anycl::buffer::from(ctx, host);
  }
  anycl::blas::matrix_view<T> view() const {
    return anycl::blas::matrix_view<T>(anycl::buffer_view<T>(buf, off, host.size() - off), rows,
                                       cols, ld, lay);
  }
  std::vector<T> read(const anycl::command_queue& q) const {
    return q.read(anycl::buffer_view<T>(buf));
  }
};

/// Sets the host-libraries mode for a scope (the CLBlast-only tests, and both paths in one test).
class host_libraries_as {
 public:
  explicit host_libraries_as(anycl::host_libraries mode) : before_(anycl::host_libraries_mode()) {
    anycl::set_host_libraries(mode);
  }
  ~host_libraries_as() { anycl::set_host_libraries(before_); }
  host_libraries_as(const host_libraries_as&) = delete;
  host_libraries_as& operator=(const host_libraries_as&) = delete;

 private:
  anycl::host_libraries before_;
};

}  // namespace anycl::test::blas_ref
