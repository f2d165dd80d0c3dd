// SPDX-License-Identifier: Apache-2.0
// Complex numbers as float2 and double2 (the real part in .x, the imaginary part in .y, as
// std::complex lays them out): the arithmetic and functions of complex expressions
// (anycl/expression.hpp). OpenCL C has + - and unary - on vectors; the rest is here, one function
// per precision (_f, _d), since overloading is not core OpenCL C.
#pragma once

#define ANYCL_COMPLEX_FUNCTIONS(R, C, s)                                                         \
  inline C anycl_cmul##s(C a, C b) { return (C)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
  /* Smith's division: no overflow from squaring the divisor's parts. */                         \
  inline C anycl_cdiv##s(C a, C b) {                                                             \
    if (fabs(b.x) >= fabs(b.y)) {                                                                \
      const R r = b.y / b.x, d = b.x + b.y * r;                                                  \
      return (C)((a.x + a.y * r) / d, (a.y - a.x * r) / d);                                      \
    }                                                                                            \
    const R r = b.x / b.y, d = b.x * r + b.y;                                                    \
    return (C)((a.x * r + a.y) / d, (a.y * r - a.x) / d);                                        \
  }                                                                                              \
  inline int anycl_ceq##s(C a, C b) { return a.x == b.x && a.y == b.y; }                         \
  inline C anycl_conj##s(C a) { return (C)(a.x, -a.y); }                                         \
  inline R anycl_cabs##s(C a) { return hypot(a.x, a.y); }                                        \
  inline R anycl_carg##s(C a) { return atan2(a.y, a.x); }                                        \
  inline C anycl_cexp##s(C a) {                                                                  \
    R c;                                                                                         \
    const R sn = sincos(a.y, &c);                                                                \
    const R m = exp(a.x);                                                                        \
    return (C)(m * c, m * sn);                                                                   \
  }                                                                                              \
  /* The principal root, as C99's csqrt: the real part >= 0, the imaginary part's sign that of   \
     a.y. */                                                                                     \
  inline C anycl_csqrt##s(C a) {                                                                 \
    if (a.x == (R)0 && a.y == (R)0) return (C)((R)0, a.y);                                       \
    const R t = sqrt((fabs(a.x) + hypot(a.x, a.y)) * (R)0.5);                                    \
    if (a.x >= (R)0) return (C)(t, a.y / (t + t));                                               \
    return (C)(fabs(a.y) / (t + t), copysign(t, a.y));                                           \
  }                                                                                              \
  inline C anycl_polar##s(R r, R theta) {                                                        \
    R c;                                                                                         \
    const R sn = sincos(theta, &c);                                                              \
    return (C)(r * c, r * sn);                                                                   \
  }

ANYCL_COMPLEX_FUNCTIONS(float, float2, _f)
#ifdef ANYCL_FP64
ANYCL_COMPLEX_FUNCTIONS(double, double2, _d)
#endif
#undef ANYCL_COMPLEX_FUNCTIONS
