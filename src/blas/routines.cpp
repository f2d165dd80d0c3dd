// SPDX-License-Identifier: Apache-2.0
// The BLAS routine table: one descriptor a routine, and the typed CLBlast call it names.
#include <clblast.h>

#include <complex>
#include <cstring>
#include <stdexcept>
#include <string>

#include "blas/prepare.hpp"
#include "blas/routine.hpp"

namespace anycl::detail {

// A matrix or vector operand as CLBlast takes it.
struct clblast_matrix {
  cl_mem mem;
  std::size_t offset, ld;
};
struct clblast_vector {
  cl_mem mem;
  std::size_t offset, inc;
};

template <class T>
struct clblast_args {
  using value_type = T;
  clblast::Layout lay;
  clblast::Transpose ta, tb;
  clblast::Triangle tri;
  clblast::Side sd;
  clblast::Diagonal diag;
  std::size_t m, n, k;
  T alpha, beta;
  clblast_matrix a, b, c;
  clblast_vector x, y, result;
  std::size_t stride_a, stride_b, stride_c, batch;
  const command_queue* queue;  // for temporaries
  cl_command_queue* q;
  cl_event* ev;
};

namespace {

// The element type of a row's lambda argument, for the CLBlast calls that cannot deduce it.
template <class A>
using elem_t = typename std::decay_t<A>::value_type;

// The lambdas of the rows convert to the function pointer of each element type they are given to.
template <class F>
typed_calls all_types(F f) {
  return {f, f, f, f};
}
template <class F>
typed_calls real_only(F f) {
  return {f, f, nullptr, nullptr};
}
template <class F>
typed_calls complex_only(F f) {
  return {nullptr, nullptr, f, f};
}

// CLBlast's Amax returns offset + i * inc, so a strided x goes through a dense copy, where it is i.
template <class T>
clblast::StatusCode amax_dense(const clblast_args<T>& a) {
  const clblast_vector& x = a.x;
  const clblast_vector& r = a.result;
  if (x.offset == 0 && x.inc == 1)
    return clblast::Amax<T>(a.n, r.mem, r.offset, x.mem, 0, 1, a.q, a.ev);
  const anycl::buffer dense(a.queue->context(), a.n * sizeof(T));
  const clblast::StatusCode s =
      clblast::Copy<T>(a.n, x.mem, x.offset, x.inc, dense.get(), 0, 1, a.q, nullptr);
  if (s != clblast::StatusCode::kSuccess) return s;
  return clblast::Amax<T>(a.n, r.mem, r.offset, dense.get(), 0, 1, a.q, a.ev);
}

// ger is Ger for float and double, Geru for complex.
const auto ger_call = [](const auto& a) {
  return clblast::Ger(a.lay, a.m, a.n, a.alpha, a.x.mem, a.x.offset, a.x.inc, a.y.mem, a.y.offset,
                      a.y.inc, a.a.mem, a.a.offset, a.a.ld, a.q, a.ev);
};
const auto geru_call = [](const auto& a) {
  return clblast::Geru(a.lay, a.m, a.n, a.alpha, a.x.mem, a.x.offset, a.x.inc, a.y.mem, a.y.offset,
                       a.y.inc, a.a.mem, a.a.offset, a.a.ld, a.q, a.ev);
};

const blas_routine routines[] = {
    // --- level 1 ---
    {"anycl::blas::axpy", "xy", prepare_vectors, all_types([](const auto& a) {
       return clblast::Axpy(a.n, a.alpha, a.x.mem, a.x.offset, a.x.inc, a.y.mem, a.y.offset,
                            a.y.inc, a.q, a.ev);
     })},
    {"anycl::blas::scal", "x", prepare_vectors, all_types([](const auto& a) {
       return clblast::Scal(a.n, a.alpha, a.x.mem, a.x.offset, a.x.inc, a.q, a.ev);
     })},
    {"anycl::blas::copy", "xy", prepare_vectors, all_types([](const auto& a) {
       return clblast::Copy<elem_t<decltype(a)>>(a.n, a.x.mem, a.x.offset, a.x.inc, a.y.mem,
                                                 a.y.offset, a.y.inc, a.q, a.ev);
     })},
    {"anycl::blas::swap", "xy", prepare_vectors, all_types([](const auto& a) {
       return clblast::Swap<elem_t<decltype(a)>>(a.n, a.x.mem, a.x.offset, a.x.inc, a.y.mem,
                                                 a.y.offset, a.y.inc, a.q, a.ev);
     })},
    {"anycl::blas::dot", "xyr", prepare_vectors, real_only([](const auto& a) {
       return clblast::Dot<elem_t<decltype(a)>>(a.n, a.result.mem, a.result.offset, a.x.mem,
                                                a.x.offset, a.x.inc, a.y.mem, a.y.offset, a.y.inc,
                                                a.q, a.ev);
     })},
    {"anycl::blas::dotu", "xyr", prepare_vectors, complex_only([](const auto& a) {
       return clblast::Dotu<elem_t<decltype(a)>>(a.n, a.result.mem, a.result.offset, a.x.mem,
                                                 a.x.offset, a.x.inc, a.y.mem, a.y.offset, a.y.inc,
                                                 a.q, a.ev);
     })},
    {"anycl::blas::dotc", "xyr", prepare_vectors, complex_only([](const auto& a) {
       return clblast::Dotc<elem_t<decltype(a)>>(a.n, a.result.mem, a.result.offset, a.x.mem,
                                                 a.x.offset, a.x.inc, a.y.mem, a.y.offset, a.y.inc,
                                                 a.q, a.ev);
     })},
    {"anycl::blas::nrm2", "xr", prepare_vectors, all_types([](const auto& a) {
       return clblast::Nrm2<elem_t<decltype(a)>>(a.n, a.result.mem, a.result.offset, a.x.mem,
                                                 a.x.offset, a.x.inc, a.q, a.ev);
     })},
    {"anycl::blas::asum", "xr", prepare_vectors, all_types([](const auto& a) {
       return clblast::Asum<elem_t<decltype(a)>>(a.n, a.result.mem, a.result.offset, a.x.mem,
                                                 a.x.offset, a.x.inc, a.q, a.ev);
     })},
    {"anycl::blas::amax", "xi", prepare_vectors,
     all_types([](const auto& a) { return amax_dense(a); })},
    // --- level 2 ---
    {"anycl::blas::gemv", "Axy", prepare_gemv, all_types([](const auto& a) {
       return clblast::Gemv(a.lay, a.ta, a.m, a.n, a.alpha, a.a.mem, a.a.offset, a.a.ld, a.x.mem,
                            a.x.offset, a.x.inc, a.beta, a.y.mem, a.y.offset, a.y.inc, a.q, a.ev);
     })},
    {"anycl::blas::ger", "xyA", prepare_ger, {ger_call, ger_call, geru_call, geru_call}},
    {"anycl::blas::geru", "xyA", prepare_ger, complex_only(geru_call)},
    {"anycl::blas::gerc", "xyA", prepare_ger, complex_only([](const auto& a) {
       return clblast::Gerc(a.lay, a.m, a.n, a.alpha, a.x.mem, a.x.offset, a.x.inc, a.y.mem,
                            a.y.offset, a.y.inc, a.a.mem, a.a.offset, a.a.ld, a.q, a.ev);
     })},
    {"anycl::blas::trsv", "Ax", prepare_trsv, all_types([](const auto& a) {
       return clblast::Trsv<elem_t<decltype(a)>>(a.lay, a.tri, a.ta, a.diag, a.n, a.a.mem,
                                                 a.a.offset, a.a.ld, a.x.mem, a.x.offset, a.x.inc,
                                                 a.q, a.ev);
     })},
    // --- level 3 ---
    {"anycl::blas::gemm", "ABC", prepare_gemm, all_types([](const auto& a) {
       return clblast::Gemm(a.lay, a.ta, a.tb, a.m, a.n, a.k, a.alpha, a.a.mem, a.a.offset, a.a.ld,
                            a.b.mem, a.b.offset, a.b.ld, a.beta, a.c.mem, a.c.offset, a.c.ld, a.q,
                            a.ev);
     })},
    {"anycl::blas::gemm_batched", "ABC", prepare_gemm, all_types([](const auto& a) {
       return clblast::GemmStridedBatched(a.lay, a.ta, a.tb, a.m, a.n, a.k, a.alpha, a.a.mem,
                                          a.a.offset, a.a.ld, a.stride_a, a.b.mem, a.b.offset,
                                          a.b.ld, a.stride_b, a.beta, a.c.mem, a.c.offset, a.c.ld,
                                          a.stride_c, a.batch, a.q, a.ev);
     }),
     true},
    {"anycl::blas::symm", "ABC", prepare_symm, all_types([](const auto& a) {
       return clblast::Symm(a.lay, a.sd, a.tri, a.m, a.n, a.alpha, a.a.mem, a.a.offset, a.a.ld,
                            a.b.mem, a.b.offset, a.b.ld, a.beta, a.c.mem, a.c.offset, a.c.ld, a.q,
                            a.ev);
     })},
    {"anycl::blas::syrk", "AC", prepare_syrk, all_types([](const auto& a) {
       return clblast::Syrk(a.lay, a.tri, a.ta, a.n, a.k, a.alpha, a.a.mem, a.a.offset, a.a.ld,
                            a.beta, a.c.mem, a.c.offset, a.c.ld, a.q, a.ev);
     })},
    {"anycl::blas::trmm", "AB", prepare_triangular, all_types([](const auto& a) {
       return clblast::Trmm(a.lay, a.sd, a.tri, a.ta, a.diag, a.m, a.n, a.alpha, a.a.mem,
                            a.a.offset, a.a.ld, a.b.mem, a.b.offset, a.b.ld, a.q, a.ev);
     })},
    {"anycl::blas::trsm", "AB", prepare_triangular, all_types([](const auto& a) {
       return clblast::Trsm(a.lay, a.sd, a.tri, a.ta, a.diag, a.m, a.n, a.alpha, a.a.mem,
                            a.a.offset, a.a.ld, a.b.mem, a.b.offset, a.b.ld, a.q, a.ev);
     })},
};

clblast::Layout cl(blas::layout l) {
  return l == blas::layout::row_major ? clblast::Layout::kRowMajor : clblast::Layout::kColMajor;
}
clblast::Transpose cl(blas::transpose t) {
  switch (t) {
    case blas::transpose::none:
      return clblast::Transpose::kNo;
    case blas::transpose::trans:
      return clblast::Transpose::kYes;
    case blas::transpose::conj_trans:
      return clblast::Transpose::kConjugate;
  }
  return clblast::Transpose::kNo;
}
clblast::Triangle cl(blas::triangle t) {
  return t == blas::triangle::upper ? clblast::Triangle::kUpper : clblast::Triangle::kLower;
}
clblast::Side cl(blas::side s) {
  return s == blas::side::left ? clblast::Side::kLeft : clblast::Side::kRight;
}
clblast::Diagonal cl(blas::diagonal d) {
  return d == blas::diagonal::unit ? clblast::Diagonal::kUnit : clblast::Diagonal::kNonUnit;
}

template <class Operand>
cl_mem mem(const Operand& o) {
  return o.buf ? o.buf->get() : nullptr;
}
clblast_matrix cl(const blas_matrix& m) { return {mem(m), m.offset, m.ld}; }
clblast_vector cl(const blas_vector& v) { return {mem(v), v.offset, v.inc}; }

// Runs `f` (null: CLBlast has no such call for T) with the call's arguments as type T.
template <class T>
clblast::StatusCode call_as(clblast_fn<T> f, const blas_call& c, const blas_plan& p,
                            const command_queue& queue, cl_event* ev) {
  if (f == nullptr) return clblast::StatusCode::kNotImplemented;
  cl_command_queue raw = queue.get();
  const T alpha = c.alpha ? *static_cast<const T*>(c.alpha) : T(1);
  const T beta = c.beta ? *static_cast<const T*>(c.beta) : T(0);
  return f({cl(p.lay),  cl(p.ta),   cl(p.tb), cl(p.tri), cl(c.sd),     cl(c.diag),
            p.m,        p.n,        p.k,      alpha,     beta,         cl(p.a),
            cl(p.b),    cl(p.c),    cl(c.x),  cl(c.y),   cl(c.result), c.stride_a,
            c.stride_b, c.stride_c, c.batch,  &queue,    &raw,         ev});
}

}  // namespace

const blas_routine& find_routine(const char* name) {
  const std::size_t prefix = std::strlen("anycl::blas::");
  for (const blas_routine& r : routines)
    if (std::strcmp(r.name + prefix, name) == 0) return r;
  throw std::logic_error(std::string("anycl::blas: no routine '") + name + "'");
}

clblast::StatusCode call_clblast(const blas_call& c, const blas_plan& p, const command_queue& queue,
                                 cl_event* ev) {
  const typed_calls& f = c.desc->calls;
  switch (c.type) {
    case scalar_type::f32:
      return call_as(f.f32, c, p, queue, ev);
    case scalar_type::f64:
      return call_as(f.f64, c, p, queue, ev);
    case scalar_type::c64:
      return call_as(f.c64, c, p, queue, ev);
    case scalar_type::c128:
      return call_as(f.c128, c, p, queue, ev);
    default:  // the templates admit no other type
      break;
  }
  return clblast::StatusCode::kNotImplemented;
}

}  // namespace anycl::detail
