// SPDX-License-Identifier: Apache-2.0
// OpenBLAS's CBLAS through dlopen: the symbol table, and the typed overloads that call it. A
// real scalar is passed by value and a complex one by address, as CBLAS takes them.
#include "blas/cblas_library.hpp"

#include <dlfcn.h>

#include <mutex>

namespace anycl::detail::cblas {

namespace {

// One row a routine: its symbols for float, double, complex float, complex double (null: none).
enum routine : int {
  r_axpy,
  r_scal,
  r_copy,
  r_swap,
  r_dot,
  r_dotu,
  r_dotc,
  r_nrm2,
  r_asum,
  r_iamax,
  r_gemv,
  r_ger,
  r_gerc,
  r_trsv,
  r_gemm,
  r_symm,
  r_syrk,
  r_trmm,
  r_trsm,
  r_count
};
const char* const names[r_count][4] = {
    {"cblas_saxpy", "cblas_daxpy", "cblas_caxpy", "cblas_zaxpy"},
    {"cblas_sscal", "cblas_dscal", "cblas_cscal", "cblas_zscal"},
    {"cblas_scopy", "cblas_dcopy", "cblas_ccopy", "cblas_zcopy"},
    {"cblas_sswap", "cblas_dswap", "cblas_cswap", "cblas_zswap"},
    {"cblas_sdot", "cblas_ddot", nullptr, nullptr},
    {nullptr, nullptr, "cblas_cdotu_sub", "cblas_zdotu_sub"},
    {nullptr, nullptr, "cblas_cdotc_sub", "cblas_zdotc_sub"},
    {"cblas_snrm2", "cblas_dnrm2", "cblas_scnrm2", "cblas_dznrm2"},
    {"cblas_sasum", "cblas_dasum", "cblas_scasum", "cblas_dzasum"},
    {"cblas_isamax", "cblas_idamax", nullptr, nullptr},
    {"cblas_sgemv", "cblas_dgemv", "cblas_cgemv", "cblas_zgemv"},
    {"cblas_sger", "cblas_dger", "cblas_cgeru", "cblas_zgeru"},
    {nullptr, nullptr, "cblas_cgerc", "cblas_zgerc"},
    {"cblas_strsv", "cblas_dtrsv", "cblas_ctrsv", "cblas_ztrsv"},
    {"cblas_sgemm", "cblas_dgemm", "cblas_cgemm", "cblas_zgemm"},
    {"cblas_ssymm", "cblas_dsymm", "cblas_csymm", "cblas_zsymm"},
    {"cblas_ssyrk", "cblas_dsyrk", "cblas_csyrk", "cblas_zsyrk"},
    {"cblas_strmm", "cblas_dtrmm", "cblas_ctrmm", "cblas_ztrmm"},
    {"cblas_strsm", "cblas_dtrsm", "cblas_ctrsm", "cblas_ztrsm"},
};

struct library {
  void* symbols[r_count][4] = {};
  bool complete = false;
};

// Loaded once and kept for the process (OpenBLAS's threads must not lose their code).
const library& lib() {
  static library l;
  static std::once_flag once;
  std::call_once(once, [] {
    void* h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return;
    bool all = true;
    for (int r = 0; r < r_count; ++r)
      for (int t = 0; t < 4; ++t)
        if (names[r][t] != nullptr) all &= (l.symbols[r][t] = dlsym(h, names[r][t])) != nullptr;
    l.complete = all;
  });
  return l;
}

template <class T>
constexpr int type_index = std::is_same_v<T, float>                 ? 0
                           : std::is_same_v<T, double>              ? 1
                           : std::is_same_v<T, std::complex<float>> ? 2
                                                                    : 3;
template <class T>
constexpr bool complex_v = type_index<T> >= 2;

// A scalar as CBLAS takes it: by value if real, by address if complex.
template <class T>
using scalar = std::conditional_t<complex_v<T>, const void*, T>;
template <class T>
scalar<T> pass(const T& v) {
  if constexpr (complex_v<T>)
    return &v;
  else
    return v;
}

// The symbol of routine r for T as a function of signature F.
template <class T, class F>
F fn(routine r) {
  return reinterpret_cast<F>(lib().symbols[r][type_index<T>]);
}

}  // namespace

bool available() { return lib().complete; }

template <class T>
void axpy(int n, T alpha, const T* x, int incx, T* y, int incy) {
  fn<T, void (*)(int, scalar<T>, const void*, int, void*, int)>(r_axpy)(n, pass(alpha), x, incx, y,
                                                                        incy);
}
template <class T>
void scal(int n, T alpha, T* x, int incx) {
  fn<T, void (*)(int, scalar<T>, void*, int)>(r_scal)(n, pass(alpha), x, incx);
}
template <class T>
void copy(int n, const T* x, int incx, T* y, int incy) {
  fn<T, void (*)(int, const void*, int, void*, int)>(r_copy)(n, x, incx, y, incy);
}
template <class T>
void swap(int n, T* x, int incx, T* y, int incy) {
  fn<T, void (*)(int, void*, int, void*, int)>(r_swap)(n, x, incx, y, incy);
}
template <class T>
T dot(int n, const T* x, int incx, const T* y, int incy) {
  return fn<T, T (*)(int, const void*, int, const void*, int)>(r_dot)(n, x, incx, y, incy);
}
template <class T>
T dotu(int n, const T* x, int incx, const T* y, int incy) {
  T out{};
  fn<T, void (*)(int, const void*, int, const void*, int, void*)>(r_dotu)(n, x, incx, y, incy,
                                                                          &out);
  return out;
}
template <class T>
T dotc(int n, const T* x, int incx, const T* y, int incy) {
  T out{};
  fn<T, void (*)(int, const void*, int, const void*, int, void*)>(r_dotc)(n, x, incx, y, incy,
                                                                          &out);
  return out;
}
template <class T>
double nrm2(int n, const T* x, int incx) {
  using R = typename std::conditional_t<complex_v<T>, T, std::complex<T>>::value_type;
  return fn<T, R (*)(int, const void*, int)>(r_nrm2)(n, x, incx);
}
template <class T>
double asum(int n, const T* x, int incx) {
  using R = typename std::conditional_t<complex_v<T>, T, std::complex<T>>::value_type;
  return fn<T, R (*)(int, const void*, int)>(r_asum)(n, x, incx);
}
template <class T>
std::size_t iamax(int n, const T* x, int incx) {
  return fn<T, std::size_t (*)(int, const void*, int)>(r_iamax)(n, x, incx);
}
template <class T>
void gemv(int order, int ta, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,
          T beta, T* y, int incy) {
  fn<T, void (*)(int, int, int, int, scalar<T>, const void*, int, const void*, int, scalar<T>,
                 void*, int)>(r_gemv)(order, ta, m, n, pass(alpha), a, lda, x, incx, pass(beta), y,
                                      incy);
}
template <class T>
void ger(int order, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
         int lda) {
  fn<T, void (*)(int, int, int, scalar<T>, const void*, int, const void*, int, void*, int)>(r_ger)(
      order, m, n, pass(alpha), x, incx, y, incy, a, lda);
}
template <class T>
void gerc(int order, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
          int lda) {
  fn<T, void (*)(int, int, int, scalar<T>, const void*, int, const void*, int, void*, int)>(r_gerc)(
      order, m, n, pass(alpha), x, incx, y, incy, a, lda);
}
template <class T>
void trsv(int order, int uplo, int ta, int diag, int n, const T* a, int lda, T* x, int incx) {
  fn<T, void (*)(int, int, int, int, int, const void*, int, void*, int)>(r_trsv)(
      order, uplo, ta, diag, n, a, lda, x, incx);
}
template <class T>
void gemm(int order, int ta, int tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc) {
  fn<T, void (*)(int, int, int, int, int, int, scalar<T>, const void*, int, const void*, int,
                 scalar<T>, void*, int)>(r_gemm)(order, ta, tb, m, n, k, pass(alpha), a, lda, b,
                                                 ldb, pass(beta), c, ldc);
}
template <class T>
void symm(int order, int side, int uplo, int m, int n, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc) {
  fn<T, void (*)(int, int, int, int, int, scalar<T>, const void*, int, const void*, int, scalar<T>,
                 void*, int)>(r_symm)(order, side, uplo, m, n, pass(alpha), a, lda, b, ldb,
                                      pass(beta), c, ldc);
}
template <class T>
void syrk(int order, int uplo, int ta, int n, int k, T alpha, const T* a, int lda, T beta, T* c,
          int ldc) {
  fn<T, void (*)(int, int, int, int, int, scalar<T>, const void*, int, scalar<T>, void*, int)>(
      r_syrk)(order, uplo, ta, n, k, pass(alpha), a, lda, pass(beta), c, ldc);
}
template <class T>
void trmm(int order, int side, int uplo, int ta, int diag, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb) {
  fn<T, void (*)(int, int, int, int, int, int, int, scalar<T>, const void*, int, void*, int)>(
      r_trmm)(order, side, uplo, ta, diag, m, n, pass(alpha), a, lda, b, ldb);
}
template <class T>
void trsm(int order, int side, int uplo, int ta, int diag, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb) {
  fn<T, void (*)(int, int, int, int, int, int, int, scalar<T>, const void*, int, void*, int)>(
      r_trsm)(order, side, uplo, ta, diag, m, n, pass(alpha), a, lda, b, ldb);
}

// Every routine for every type it has.
#define ANYCL_CBLAS_ALL(T)                                                                     \
  template void axpy<T>(int, T, const T*, int, T*, int);                                       \
  template void scal<T>(int, T, T*, int);                                                      \
  template void copy<T>(int, const T*, int, T*, int);                                          \
  template void swap<T>(int, T*, int, T*, int);                                                \
  template double nrm2<T>(int, const T*, int);                                                 \
  template double asum<T>(int, const T*, int);                                                 \
  template void gemv<T>(int, int, int, int, T, const T*, int, const T*, int, T, T*, int);      \
  template void ger<T>(int, int, int, T, const T*, int, const T*, int, T*, int);               \
  template void trsv<T>(int, int, int, int, int, const T*, int, T*, int);                      \
  template void gemm<T>(int, int, int, int, int, int, T, const T*, int, const T*, int, T, T*,  \
                        int);                                                                  \
  template void symm<T>(int, int, int, int, int, T, const T*, int, const T*, int, T, T*, int); \
  template void syrk<T>(int, int, int, int, int, T, const T*, int, T, T*, int);                \
  template void trmm<T>(int, int, int, int, int, int, int, T, const T*, int, T*, int);         \
  template void trsm<T>(int, int, int, int, int, int, int, T, const T*, int, T*, int);
#define ANYCL_CBLAS_REAL(T)                             \
  ANYCL_CBLAS_ALL(T)                                    \
  template T dot<T>(int, const T*, int, const T*, int); \
  template std::size_t iamax<T>(int, const T*, int);
#define ANYCL_CBLAS_COMPLEX(T)                           \
  ANYCL_CBLAS_ALL(T)                                     \
  template T dotu<T>(int, const T*, int, const T*, int); \
  template T dotc<T>(int, const T*, int, const T*, int); \
  template void gerc<T>(int, int, int, T, const T*, int, const T*, int, T*, int);
ANYCL_CBLAS_REAL(float)
ANYCL_CBLAS_REAL(double)
ANYCL_CBLAS_COMPLEX(std::complex<float>)
ANYCL_CBLAS_COMPLEX(std::complex<double>)

}  // namespace anycl::detail::cblas
