// SPDX-License-Identifier: Apache-2.0
// The host path of anycl::blas: the plan CLBlast would be called with, as CBLAS arguments in a
// native task, and one typed function a routine that runs in the task.
#include "blas/host_path.hpp"

#include <climits>
#include <complex>
#include <cstring>
#include <initializer_list>
#include <string>

#include "anycl/host_libraries.hpp"
#include "blas/cblas_library.hpp"
#include "blas/routine.hpp"
#include "launch/native_task.hpp"

namespace anycl::detail {

namespace {

enum role : int { ra, rb, rc, rx, ry, rr, role_count };

struct host_task {
  void (*run)(const host_task&);
  int order, ta, tb, uplo, side, diag;
  int m, n, k;
  std::size_t batch, stride_a, stride_b, stride_c;
  alignas(16) unsigned char alpha[16], beta[16];
  std::size_t off[role_count];
  int ld[role_count];      // a matrix's leading dimension, a vector's increment
  void* addr[role_count];  // each role's buffer, mapped (null: the routine has no such role)
};

template <class T>
T* at(const host_task& t, int r, std::size_t extra = 0) {
  return static_cast<T*>(t.addr[r]) + t.off[r] + extra;
}
template <class T>
T scalar(const unsigned char* bytes) {
  T v;
  std::memcpy(&v, bytes, sizeof v);
  return v;
}

// --- one function a routine, run in the task ---

template <class T>
void axpy(const host_task& t) {
  cblas::axpy(t.n, scalar<T>(t.alpha), at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void scal(const host_task& t) {
  cblas::scal(t.n, scalar<T>(t.alpha), at<T>(t, rx), t.ld[rx]);
}
template <class T>
void copy(const host_task& t) {
  cblas::copy(t.n, at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void swap(const host_task& t) {
  cblas::swap(t.n, at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void dot(const host_task& t) {
  *at<T>(t, rr) = cblas::dot(t.n, at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void dotu(const host_task& t) {
  *at<T>(t, rr) = cblas::dotu(t.n, at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void dotc(const host_task& t) {
  *at<T>(t, rr) = cblas::dotc(t.n, at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry]);
}
template <class T>
void nrm2(const host_task& t) {
  *at<T>(t, rr) = T(
      static_cast<typename std::complex<T>::value_type>(cblas::nrm2(t.n, at<T>(t, rx), t.ld[rx])));
}
template <class T>
void asum(const host_task& t) {
  *at<T>(t, rr) = T(
      static_cast<typename std::complex<T>::value_type>(cblas::asum(t.n, at<T>(t, rx), t.ld[rx])));
}
// The first largest |x[i]|; for complex x by |re(x[i])|, as the CLBlast path (blas.hpp).
template <class T>
void amax(const host_task& t) {
  cl_uint best = 0;
  if constexpr (std::is_floating_point_v<T>) {
    best = static_cast<cl_uint>(cblas::iamax(t.n, at<T>(t, rx), t.ld[rx]));
  } else {
    const T* x = at<T>(t, rx);
    auto mag = [&](int i) { return std::abs(x[std::size_t(i) * std::size_t(t.ld[rx])].real()); };
    for (int i = 1; i < t.n; ++i)
      if (mag(i) > mag(static_cast<int>(best))) best = static_cast<cl_uint>(i);
  }
  *at<cl_uint>(t, rr) = best;
}
template <class T>
void gemv(const host_task& t) {
  cblas::gemv(t.order, t.ta, t.m, t.n, scalar<T>(t.alpha), at<T>(t, ra), t.ld[ra], at<T>(t, rx),
              t.ld[rx], scalar<T>(t.beta), at<T>(t, ry), t.ld[ry]);
}
template <class T>
void ger(const host_task& t) {
  cblas::ger(t.order, t.m, t.n, scalar<T>(t.alpha), at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry],
             at<T>(t, ra), t.ld[ra]);
}
template <class T>
void gerc(const host_task& t) {
  cblas::gerc(t.order, t.m, t.n, scalar<T>(t.alpha), at<T>(t, rx), t.ld[rx], at<T>(t, ry), t.ld[ry],
              at<T>(t, ra), t.ld[ra]);
}
template <class T>
void trsv(const host_task& t) {
  cblas::trsv(t.order, t.uplo, t.ta, t.diag, t.n, at<T>(t, ra), t.ld[ra], at<T>(t, rx), t.ld[rx]);
}
// gemm and gemm_batched (a batch of one has strides 0).
template <class T>
void gemm(const host_task& t) {
  for (std::size_t i = 0; i < t.batch; ++i)
    cblas::gemm(t.order, t.ta, t.tb, t.m, t.n, t.k, scalar<T>(t.alpha),
                at<T>(t, ra, i * t.stride_a), t.ld[ra], at<T>(t, rb, i * t.stride_b), t.ld[rb],
                scalar<T>(t.beta), at<T>(t, rc, i * t.stride_c), t.ld[rc]);
}
template <class T>
void symm(const host_task& t) {
  cblas::symm(t.order, t.side, t.uplo, t.m, t.n, scalar<T>(t.alpha), at<T>(t, ra), t.ld[ra],
              at<T>(t, rb), t.ld[rb], scalar<T>(t.beta), at<T>(t, rc), t.ld[rc]);
}
template <class T>
void syrk(const host_task& t) {
  cblas::syrk(t.order, t.uplo, t.ta, t.n, t.k, scalar<T>(t.alpha), at<T>(t, ra), t.ld[ra],
              scalar<T>(t.beta), at<T>(t, rc), t.ld[rc]);
}
template <class T>
void trmm(const host_task& t) {
  cblas::trmm(t.order, t.side, t.uplo, t.ta, t.diag, t.m, t.n, scalar<T>(t.alpha), at<T>(t, ra),
              t.ld[ra], at<T>(t, rb), t.ld[rb]);
}
template <class T>
void trsm(const host_task& t) {
  cblas::trsm(t.order, t.side, t.uplo, t.ta, t.diag, t.m, t.n, scalar<T>(t.alpha), at<T>(t, ra),
              t.ld[ra], at<T>(t, rb), t.ld[rb]);
}

// --- the table: routine name to its function per element type (null: none) ---

using host_fn = void (*)(const host_task&);
struct host_row {
  const char* name;
  host_fn f32, f64, c64, c128;
};
#define ANYCL_HOST_ALL(f) \
  { #f, f < float>, f < double>, f < std::complex < float>>, f < std::complex < double>> }
#define ANYCL_HOST_REAL(f) \
  { #f, f < float>, f < double>, nullptr, nullptr }
#define ANYCL_HOST_COMPLEX(f) \
  { #f, nullptr, nullptr, f < std::complex < float>>, f < std::complex < double>> }
const host_row rows[] = {
    ANYCL_HOST_ALL(axpy),
    ANYCL_HOST_ALL(scal),
    ANYCL_HOST_ALL(copy),
    ANYCL_HOST_ALL(swap),
    ANYCL_HOST_REAL(dot),
    ANYCL_HOST_COMPLEX(dotu),
    ANYCL_HOST_COMPLEX(dotc),
    ANYCL_HOST_ALL(nrm2),
    ANYCL_HOST_ALL(asum),
    ANYCL_HOST_ALL(amax),
    ANYCL_HOST_ALL(gemv),
    ANYCL_HOST_ALL(ger),
    {"geru", nullptr, nullptr, ger<std::complex<float>>, ger<std::complex<double>>},
    ANYCL_HOST_COMPLEX(gerc),
    ANYCL_HOST_ALL(trsv),
    ANYCL_HOST_ALL(gemm),
    {"gemm_batched", gemm<float>, gemm<double>, gemm<std::complex<float>>,
     gemm<std::complex<double>>},
    ANYCL_HOST_ALL(symm),
    ANYCL_HOST_ALL(syrk),
    ANYCL_HOST_ALL(trmm),
    ANYCL_HOST_ALL(trsm),
};
#undef ANYCL_HOST_ALL
#undef ANYCL_HOST_REAL
#undef ANYCL_HOST_COMPLEX

host_fn find_host_fn(const blas_call& c) {
  for (const host_row& r : rows)
    if (std::strcmp(r.name, c.routine) == 0) switch (c.type) {
        case scalar_type::f32:
          return r.f32;
        case scalar_type::f64:
          return r.f64;
        case scalar_type::c64:
          return r.c64;
        case scalar_type::c128:
          return r.c128;
        default:
          return nullptr;
      }
  return nullptr;
}

void run_task(void* p) {
  const host_task& t = *static_cast<const host_task*>(p);
  t.run(t);
}

int order(blas::layout l) {
  return l == blas::layout::row_major ? cblas::row_major : cblas::col_major;
}
int trans(blas::transpose t) {
  return t == blas::transpose::none    ? cblas::no_trans
         : t == blas::transpose::trans ? cblas::trans
                                       : cblas::conj_trans;
}

bool fits(std::initializer_list<std::size_t> sizes) {
  for (std::size_t s : sizes)
    if (s > static_cast<std::size_t>(INT_MAX)) return false;
  return true;
}

// alpha and beta as bytes of the element type; null is `absent` (alpha 1, beta 0).
template <class T>
void put(unsigned char* out, const void* v, double absent) {
  const T x = v ? *static_cast<const T*>(v) : T(absent);
  std::memcpy(out, &x, sizeof x);
}
void put_scalar(unsigned char* out, const void* v, scalar_type type, double absent) {
  switch (type) {
    case scalar_type::f32:
      return put<float>(out, v, absent);
    case scalar_type::f64:
      return put<double>(out, v, absent);
    case scalar_type::c64:
      return put<std::complex<float>>(out, v, absent);
    default:  // c128: the templates admit no other type
      return put<std::complex<double>>(out, v, absent);
  }
}

// The buffers of a task's roles and where their mapped addresses go.
struct task_buffers {
  const anycl::buffer* bufs[role_count] = {};
  void** addresses[role_count] = {};
  std::size_t count = 0;
};

void place(host_task& t, task_buffers& tb, int r, const anycl::buffer* buf, std::size_t offset,
           std::size_t ld) {
  t.off[r] = offset;
  t.ld[r] = static_cast<int>(ld);
  if (buf == nullptr) return;
  tb.bufs[tb.count] = buf;
  tb.addresses[tb.count++] = &t.addr[r];
}

// The operands of c's roles: the plan's matrices (in the layout CBLAS is called with) and the
// call's vectors.
template <class F>
void each_operand(const blas_call& c, const blas_plan& p, F f) {
  const blas_routine& r = *c.desc;
  if (r.has('A')) f(ra, p.a.buf, p.a.offset, p.a.ld);
  if (r.has('B')) f(rb, p.b.buf, p.b.offset, p.b.ld);
  if (r.has('C')) f(rc, p.c.buf, p.c.offset, p.c.ld);
  if (r.has('x')) f(rx, c.x.buf, c.x.offset, c.x.inc);
  if (r.has('y')) f(ry, c.y.buf, c.y.offset, c.y.inc);
  if (r.has_result()) f(rr, c.result.buf, c.result.offset, std::size_t{1});
}

}  // namespace

bool host_path_serves(const blas_call& c, const blas_plan& p, const command_queue& queue) {
  if (find_host_fn(c) == nullptr) return false;
  if (!fits({p.m, p.n, p.k, p.a.ld, p.b.ld, p.c.ld, c.x.inc, c.y.inc})) return false;
  if (!blas::uses_host_library(queue.device())) return false;
  bool mappable = true;
  each_operand(c, p, [&](int, const anycl::buffer* b, std::size_t, std::size_t) {
    mappable = mappable && host_task_can_map(*b);
  });
  return mappable;
}

event enqueue_host_blas(const blas_call& c, const blas_plan& p, const command_queue& queue,
                        const wait_list& waits) {
  host_task t{};
  t.run = find_host_fn(c);
  t.order = order(p.lay);
  t.ta = trans(p.ta);
  t.tb = trans(p.tb);
  t.uplo = p.tri == blas::triangle::upper ? cblas::upper : cblas::lower;
  t.side = c.sd == blas::side::left ? cblas::left : cblas::right;
  t.diag = c.diag == blas::diagonal::unit ? cblas::unit : cblas::non_unit;
  t.m = static_cast<int>(p.m);
  t.n = static_cast<int>(p.n);
  t.k = static_cast<int>(p.k);
  t.batch = c.batch;
  t.stride_a = c.stride_a;
  t.stride_b = c.stride_b;
  t.stride_c = c.stride_c;
  put_scalar(t.alpha, c.alpha, c.type, 1);
  put_scalar(t.beta, c.beta, c.type, 0);
  task_buffers tb;
  each_operand(c, p, [&](int r, const anycl::buffer* b, std::size_t offset, std::size_t ld) {
    place(t, tb, r, b, offset, ld);
  });
  return enqueue_host_task(queue, run_task, t, tb.count, tb.bufs, tb.addresses, waits);
}

}  // namespace anycl::detail

namespace anycl::blas {

bool uses_host_library(const device& d) {
  return host_libraries_mode() == host_libraries::on && host_memory_device(d) &&
         detail::cblas::available();
}

}  // namespace anycl::blas
