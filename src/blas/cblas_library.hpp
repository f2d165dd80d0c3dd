// SPDX-License-Identifier: Apache-2.0
// The host's CBLAS (OpenBLAS), loaded at run time: AnyCL needs no BLAS to build or to run, and
// uses OpenBLAS where it is installed. One overload a routine for float, double and the complex
// types, in CBLAS's own arguments (row/column major, 32-bit sizes). Private to src/blas.
#pragma once

#include <complex>
#include <cstddef>

namespace anycl::detail::cblas {

/// CBLAS's enumerations (cblas.h: CBLAS_ORDER, CBLAS_TRANSPOSE, CBLAS_UPLO, CBLAS_DIAG,
/// CBLAS_SIDE), which every CBLAS shares.
enum : int { row_major = 101, col_major = 102 };
enum : int { no_trans = 111, trans = 112, conj_trans = 113 };
enum : int { upper = 121, lower = 122 };
enum : int { non_unit = 131, unit = 132 };
enum : int { left = 141, right = 142 };

/// Whether libopenblas.so.0 is loaded with every symbol below (loaded on the first call).
bool available();

// --- level 1 ---
template <class T>
void axpy(int n, T alpha, const T* x, int incx, T* y, int incy);
template <class T>
void scal(int n, T alpha, T* x, int incx);
template <class T>
void copy(int n, const T* x, int incx, T* y, int incy);
template <class T>
void swap(int n, T* x, int incx, T* y, int incy);
template <class T>
T dot(int n, const T* x, int incx, const T* y, int incy);  ///< float and double
template <class T>
T dotu(int n, const T* x, int incx, const T* y, int incy);  ///< complex
template <class T>
T dotc(int n, const T* x, int incx, const T* y, int incy);  ///< complex
template <class T>
double nrm2(int n, const T* x, int incx);
template <class T>
double asum(int n, const T* x, int incx);
template <class T>
std::size_t iamax(int n, const T* x, int incx);  ///< float and double
// --- level 2 ---
template <class T>
void gemv(int order, int ta, int m, int n, T alpha, const T* a, int lda, const T* x, int incx,
          T beta, T* y, int incy);
template <class T>
void ger(int order, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
         int lda);  ///< ger for float and double, geru for complex
template <class T>
void gerc(int order, int m, int n, T alpha, const T* x, int incx, const T* y, int incy, T* a,
          int lda);  ///< complex
template <class T>
void trsv(int order, int uplo, int ta, int diag, int n, const T* a, int lda, T* x, int incx);
// --- level 3 ---
template <class T>
void gemm(int order, int ta, int tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc);
template <class T>
void symm(int order, int side, int uplo, int m, int n, T alpha, const T* a, int lda, const T* b,
          int ldb, T beta, T* c, int ldc);
template <class T>
void syrk(int order, int uplo, int ta, int n, int k, T alpha, const T* a, int lda, T beta, T* c,
          int ldc);
template <class T>
void trmm(int order, int side, int uplo, int ta, int diag, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb);
template <class T>
void trsm(int order, int side, int uplo, int ta, int diag, int m, int n, T alpha, const T* a,
          int lda, T* b, int ldb);

}  // namespace anycl::detail::cblas
