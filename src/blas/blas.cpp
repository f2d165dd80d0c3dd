// SPDX-License-Identifier: Apache-2.0
// BLAS through CLBlast: argument checks, layout normalisation, status mapping, and the
// per-context holder that clears CLBlast's program cache once a context's BLAS buffers are gone.
#include "anycl/blas.hpp"

#include <clblast.h>

#include <algorithm>
#include <array>
#include <complex>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <utility>

#include "core/size_math.hpp"

namespace anycl {

// --- status names and blas_error ---

namespace {

struct blas_status_entry {
  int code;
  const char* name;
  const char* hint;
};

constexpr blas_status_entry blas_status_table[] = {
    {0, "kSuccess", ""},
    {-3, "kOpenCLCompilerNotAvailable", "the device has no OpenCL C compiler"},
    {-4, "kTempBufferAllocFailure", "CLBlast could not allocate a temporary buffer"},
    {-5, "kOpenCLOutOfResources", "the device ran out of resources"},
    {-6, "kOpenCLOutOfHostMemory", "the host ran out of memory"},
    {-11, "kOpenCLBuildProgramFailure", "a CLBlast kernel did not build for this device"},
    {-30, "kInvalidValue", ""},
    {-36, "kInvalidCommandQueue", ""},
    {-38, "kInvalidMemObject", "a buffer is not a valid cl_mem"},
    {-42, "kInvalidBinary", ""},
    {-43, "kInvalidBuildOptions", ""},
    {-44, "kInvalidProgram", ""},
    {-45, "kInvalidProgramExecutable", ""},
    {-46, "kInvalidKernelName", ""},
    {-47, "kInvalidKernelDefinition", ""},
    {-48, "kInvalidKernel", ""},
    {-49, "kInvalidArgIndex", ""},
    {-50, "kInvalidArgValue", ""},
    {-51, "kInvalidArgSize", ""},
    {-52, "kInvalidKernelArgs", ""},
    {-53, "kInvalidLocalNumDimensions", ""},
    {-54, "kInvalidLocalThreadsTotal", "CLBlast's tuned work-group size is too large here"},
    {-55, "kInvalidLocalThreadsDim", "CLBlast's tuned work-group size is too large here"},
    {-56, "kInvalidGlobalOffset", ""},
    {-57, "kInvalidEventWaitList", ""},
    {-58, "kInvalidEvent", ""},
    {-59, "kInvalidOperation", ""},
    {-61, "kInvalidBufferSize", ""},
    {-63, "kInvalidGlobalWorkSize", ""},
    {-1024, "kNotImplemented", "CLBlast does not implement this routine for this type"},
    {-1022, "kInvalidMatrixA", "matrix A's buffer is not a valid cl_mem"},
    {-1021, "kInvalidMatrixB", "matrix B's buffer is not a valid cl_mem"},
    {-1020, "kInvalidMatrixC", "matrix C's buffer is not a valid cl_mem"},
    {-1019, "kInvalidVectorX", "vector x's buffer is not a valid cl_mem"},
    {-1018, "kInvalidVectorY", "vector y's buffer is not a valid cl_mem"},
    {-1017, "kInvalidDimension", "every dimension must be at least 1"},
    {-1016, "kInvalidLeadDimA", "A's leading dimension is below its rows/columns for its layout"},
    {-1015, "kInvalidLeadDimB", "B's leading dimension is below its rows/columns for its layout"},
    {-1014, "kInvalidLeadDimC", "C's leading dimension is below its rows/columns for its layout"},
    {-1013, "kInvalidIncrementX", "x's increment must be at least 1"},
    {-1012, "kInvalidIncrementY", "y's increment must be at least 1"},
    {-1011, "kInsufficientMemoryA", "A's buffer is smaller than its offset plus extent"},
    {-1010, "kInsufficientMemoryB", "B's buffer is smaller than its offset plus extent"},
    {-1009, "kInsufficientMemoryC", "C's buffer is smaller than its offset plus extent"},
    {-1008, "kInsufficientMemoryX", "x's buffer is smaller than its offset plus extent"},
    {-1007, "kInsufficientMemoryY", "y's buffer is smaller than its offset plus extent"},
    {-2050, "kInsufficientMemoryTemp", ""},
    {-2049, "kInvalidBatchCount", "the batch count must be at least 1"},
    {-2048, "kInvalidOverrideKernel", ""},
    {-2047, "kMissingOverrideParameter", ""},
    {-2046, "kInvalidLocalMemUsage", "CLBlast's tuned kernel needs more local memory than here"},
    {-2045, "kNoHalfPrecision", "the device has no cl_khr_fp16"},
    {-2044, "kNoDoublePrecision", "the device has no double precision (cl_khr_fp64)"},
    {-2043, "kInvalidVectorScalar", "the result buffer is not a valid cl_mem"},
    {-2042, "kInsufficientMemoryScalar", "the result buffer is too small"},
    {-2041, "kDatabaseError", "CLBlast has no tuning entry for this device"},
    {-2040, "kUnknownError", ""},
    {-2039, "kUnexpectedError", ""},
};

const blas_status_entry* find_status(int status) noexcept {
  for (const auto& e : blas_status_table)
    if (e.code == status) return &e;
  return nullptr;
}

std::string blas_message(const std::string& routine, int status, const std::string& detail) {
  std::string m = routine + " failed: " + std::string(blas::status_name(status)) + " (" +
                  std::to_string(status) + ")";
  if (!detail.empty()) m += ": " + detail;
  const blas_status_entry* e = find_status(status);
  if (e && *e->hint) m += std::string(". Hint: ") + e->hint;
  return m;
}

}  // namespace

blas_error::blas_error(std::string routine, int status, std::string detail)
    : error(blas_message(routine, status, detail)),
      routine_(std::move(routine)),
      status_(status),
      detail_(std::move(detail)) {}

std::string_view blas_error::status_name() const noexcept { return blas::status_name(status_); }

namespace blas {

std::string_view status_name(int status) noexcept {
  const blas_status_entry* e = find_status(status);
  return e ? e->name : "unknown CLBlast status";
}

void clear_cache() { clblast::ClearCache(); }

}  // namespace blas

namespace detail {

// --- the per-context holder ---

namespace {

// Lives while a buffer that a BLAS call used on its context lives: each such buffer holds a
// reference through its destructor callback. CLBlast 1.5.3 can only clear its whole cache, so the
// last reference clears it; the programs of other contexts are rebuilt on their next call.
class blas_context {
 public:
  blas_context() = default;
  blas_context(const blas_context&) = delete;
  blas_context& operator=(const blas_context&) = delete;
  ~blas_context() { clblast::ClearCache(); }

  // Registers `mem` once; returns false when it already was.
  bool add(cl_mem mem) {
    std::lock_guard<std::mutex> lock(m_);
    return watched_.insert(mem).second;
  }
  void remove(cl_mem mem) {
    std::lock_guard<std::mutex> lock(m_);
    watched_.erase(mem);
  }

 private:
  std::mutex m_;
  std::unordered_set<cl_mem> watched_;
};

struct watch_token {
  std::shared_ptr<blas_context> holder;
};

// Runs when the cl_mem is destroyed (possibly on a driver thread); dropping the token may destroy
// the holder, which clears CLBlast's cache. The cl_mem still holds its context here.
void CL_CALLBACK on_buffer_released(cl_mem mem, void* data) {
  auto* token = static_cast<watch_token*>(data);
  token->holder->remove(mem);
  delete token;
}

std::mutex holders_mutex;
std::map<cl_context, std::weak_ptr<blas_context>>& holders() {
  static auto* h = new std::map<cl_context, std::weak_ptr<blas_context>>();
  return *h;
}

std::shared_ptr<blas_context> holder_for(cl_context ctx) {
  std::lock_guard<std::mutex> lock(holders_mutex);
  auto& h = holders();
  auto it = h.find(ctx);
  if (it != h.end()) {
    if (auto sp = it->second.lock()) return sp;
  }
  for (auto i = h.begin(); i != h.end();) i = i->second.expired() ? h.erase(i) : std::next(i);
  auto sp = std::make_shared<blas_context>();
  h[ctx] = sp;
  return sp;
}

void watch(const std::shared_ptr<blas_context>& holder, const anycl::buffer& buf) {
  cl_mem mem = buf.get();
  if (mem == nullptr || !holder->add(mem)) return;
  auto* token = new watch_token{holder};
  const cl_int status = clSetMemObjectDestructorCallback(mem, on_buffer_released, token);
  if (status != CL_SUCCESS) {
    holder->remove(mem);
    delete token;
    throw_api_error("clSetMemObjectDestructorCallback", status,
                    "registering a BLAS buffer for CLBlast's cache clean-up");
  }
}

// --- checks ---

const char* routine_name(blas_routine r) {
  switch (r) {
    case blas_routine::axpy:
      return "anycl::blas::axpy";
    case blas_routine::scal:
      return "anycl::blas::scal";
    case blas_routine::copy:
      return "anycl::blas::copy";
    case blas_routine::swap:
      return "anycl::blas::swap";
    case blas_routine::dot:
      return "anycl::blas::dot";
    case blas_routine::dotu:
      return "anycl::blas::dotu";
    case blas_routine::dotc:
      return "anycl::blas::dotc";
    case blas_routine::nrm2:
      return "anycl::blas::nrm2";
    case blas_routine::asum:
      return "anycl::blas::asum";
    case blas_routine::amax:
      return "anycl::blas::amax";
    case blas_routine::gemv:
      return "anycl::blas::gemv";
    case blas_routine::ger:
      return "anycl::blas::ger";
    case blas_routine::geru:
      return "anycl::blas::geru";
    case blas_routine::gerc:
      return "anycl::blas::gerc";
    case blas_routine::trsv:
      return "anycl::blas::trsv";
    case blas_routine::gemm:
      return "anycl::blas::gemm";
    case blas_routine::gemm_batched:
      return "anycl::blas::gemm_batched";
    case blas_routine::symm:
      return "anycl::blas::symm";
    case blas_routine::syrk:
      return "anycl::blas::syrk";
    case blas_routine::trmm:
      return "anycl::blas::trmm";
    case blas_routine::trsm:
      return "anycl::blas::trsm";
  }
  return "anycl::blas";
}

const char* layout_name(blas::layout l) {
  return l == blas::layout::row_major ? "row-major" : "column-major";
}

std::string describe(const char* role, const blas_matrix& m) {
  std::ostringstream s;
  s << role << " " << m.rows << "x" << m.cols << " " << layout_name(m.lay) << " ld " << m.ld
    << " (view of " << m.size << " at element " << m.offset << ")";
  return s.str();
}

std::string describe(const char* role, const blas_vector& v) {
  std::ostringstream s;
  s << role << " n " << v.n << " inc " << v.inc << " (view of " << v.size << " at element "
    << v.offset << ")";
  return s.str();
}

// The operands a routine uses, in the order messages list them.
struct operands {
  bool a = false, b = false, c = false, x = false, y = false, result = false;
};

operands used(blas_routine r) {
  operands o;
  switch (r) {
    case blas_routine::axpy:
    case blas_routine::copy:
    case blas_routine::swap:
      o.x = o.y = true;
      break;
    case blas_routine::scal:
      o.x = true;
      break;
    case blas_routine::dot:
    case blas_routine::dotu:
    case blas_routine::dotc:
      o.x = o.y = o.result = true;
      break;
    case blas_routine::nrm2:
    case blas_routine::asum:
    case blas_routine::amax:
      o.x = o.result = true;
      break;
    case blas_routine::gemv:
      o.a = o.x = o.y = true;
      break;
    case blas_routine::ger:
    case blas_routine::geru:
    case blas_routine::gerc:
      o.x = o.y = o.a = true;
      break;
    case blas_routine::trsv:
      o.a = o.x = true;
      break;
    case blas_routine::gemm:
    case blas_routine::gemm_batched:
    case blas_routine::symm:
      o.a = o.b = o.c = true;
      break;
    case blas_routine::syrk:
      o.a = o.c = true;
      break;
    case blas_routine::trmm:
    case blas_routine::trsm:
      o.a = o.b = true;
      break;
  }
  return o;
}

std::string shapes(const blas_call& c) {
  const operands o = used(c.routine);
  std::string s;
  auto add = [&](const std::string& part) {
    if (!s.empty()) s += ", ";
    s += part;
  };
  if (o.a) add(describe("A", c.a));
  if (o.b) add(describe("B", c.b));
  if (o.c) add(describe("C", c.c));
  if (o.x) add(describe("x", c.x));
  if (o.y) add(describe("y", c.y));
  if (o.result) add(describe("result", c.result));
  if (c.routine == blas_routine::gemm_batched)
    add("batch " + std::to_string(c.batch) + ", strides " + std::to_string(c.stride_a) + "/" +
        std::to_string(c.stride_b) + "/" + std::to_string(c.stride_c));
  return "(" + s + ")";
}

[[noreturn]] void fail_invalid(const blas_call& c, const std::string& what) {
  throw std::invalid_argument(std::string(routine_name(c.routine)) + ": " + what + " " + shapes(c));
}
[[noreturn]] void fail_range(const blas_call& c, const std::string& what) {
  throw std::out_of_range(std::string(routine_name(c.routine)) + ": " + what + " " + shapes(c));
}

std::string dims(std::size_t r, std::size_t c) {
  return std::to_string(r) + "x" + std::to_string(c);
}

// ld and extent of a matrix of `count` copies `stride` apart.
void check_matrix(const blas_call& c, const char* role, const blas_matrix& m, std::size_t count = 1,
                  std::size_t stride = 0) {
  if (m.rows == 0 || m.cols == 0) return;
  const bool row = m.lay == blas::layout::row_major;
  const std::size_t minor = row ? m.cols : m.rows, major = row ? m.rows : m.cols;
  if (m.ld < minor)
    fail_invalid(c, std::string("leading dimension of ") + role + " (" + std::to_string(m.ld) +
                        ") is below its " + std::to_string(minor) + (row ? " columns" : " rows") +
                        " (" + layout_name(m.lay) + ")");
  std::size_t span = 0, total = 0;
  if (!mul_add(major - 1, m.ld, minor, span) || !mul_add(count - 1, stride, span, total))
    fail_range(c, std::string(role) + "'s extent overflows size_t");
  if (total > m.size)
    fail_range(c, std::string(role) + " needs " + std::to_string(total) +
                      " elements from its first, its view has " + std::to_string(m.size));
}

void check_vector(const blas_call& c, const char* role, const blas_vector& v) {
  if (v.n == 0) return;
  if (v.inc == 0) fail_invalid(c, std::string("increment of ") + role + " is 0");
  std::size_t span = 0;
  if (!mul_add(v.n - 1, v.inc, 1, span))
    fail_range(c, std::string(role) + "'s extent overflows size_t");
  if (span > v.size)
    fail_range(c, std::string(role) + " needs " + std::to_string(span) +
                      " elements from its first, its view has " + std::to_string(v.size));
}

void check_result(const blas_call& c) {
  if (c.result.size < 1) fail_range(c, "the result view is empty (needs 1 element)");
}

void same_size(const blas_call& c) {
  if (c.x.n != c.y.n)
    fail_invalid(c, "x has " + std::to_string(c.x.n) + " elements, y " + std::to_string(c.y.n));
}

// The transpose as CLBlast should see it for this precision (conj of a real matrix is a no-op).
blas::transpose real_aware(blas::transpose t, scalar_type type) {
  if (t == blas::transpose::conj_trans && !is_complex(type)) return blas::transpose::trans;
  return t;
}

// op(M)'s rows and columns.
std::pair<std::size_t, std::size_t> op_dims(const blas_matrix& m, blas::transpose t) {
  if (t == blas::transpose::none) return {m.rows, m.cols};
  return {m.cols, m.rows};
}

// M in `target` layout: the same memory read as M^T, with op flipped; A^H has no such flip.
void to_layout(const blas_call& c, const char* role, blas_matrix& m, blas::transpose& t,
               blas::layout target) {
  if (m.lay == target) return;
  if (t == blas::transpose::conj_trans)
    fail_invalid(c, std::string(role) + "^H of another layout than the output's is not " +
                        "supported by CLBlast (no conjugate without transpose); copy() " + role +
                        " into the output's layout");
  std::swap(m.rows, m.cols);
  m.lay = target;
  t = t == blas::transpose::none ? blas::transpose::trans : blas::transpose::none;
}

blas::triangle flip(blas::triangle t) {
  return t == blas::triangle::upper ? blas::triangle::lower : blas::triangle::upper;
}

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

// What CLBlast is called with once the checks passed and the layouts agree.
struct plan {
  blas::layout lay = blas::layout::row_major;
  blas::transpose ta = blas::transpose::none, tb = blas::transpose::none;
  blas::triangle tri = blas::triangle::upper;
  std::size_t m = 0, n = 0, k = 0;
  bool nothing = false;   // an empty output: no command
  bool zero_out = false;  // a reduction of no elements: result = 0
  blas_matrix a, b, c;
};

// Checks the call and fills the plan; throws for every argument error.
plan prepare(const blas_call& c) {
  plan p;
  p.a = c.a;
  p.b = c.b;
  p.c = c.c;
  p.tri = c.tri;
  const operands o = used(c.routine);
  if (o.x) check_vector(c, "x", c.x);
  if (o.y) check_vector(c, "y", c.y);
  if (o.result) check_result(c);
  switch (c.routine) {
    case blas_routine::axpy:
    case blas_routine::copy:
    case blas_routine::swap:
      same_size(c);
      p.n = c.x.n;
      p.nothing = p.n == 0;
      break;
    case blas_routine::scal:
      p.n = c.x.n;
      p.nothing = p.n == 0;
      break;
    case blas_routine::dot:
    case blas_routine::dotu:
    case blas_routine::dotc:
      same_size(c);
      p.n = c.x.n;
      p.zero_out = p.n == 0;
      break;
    case blas_routine::nrm2:
    case blas_routine::asum:
    case blas_routine::amax:
      p.n = c.x.n;
      p.zero_out = p.n == 0;
      break;
    case blas_routine::gemv: {
      p.ta = real_aware(c.ta, c.type);
      const auto [r, cols] = op_dims(c.a, p.ta);
      if (r != c.y.n || cols != c.x.n)
        fail_invalid(c, "op(A) is " + dims(r, cols) + " but x has " + std::to_string(c.x.n) +
                            " and y " + std::to_string(c.y.n) + " elements");
      check_matrix(c, "A", c.a);
      p.lay = c.a.lay;
      p.m = c.a.rows;
      p.n = c.a.cols;
      p.nothing = r == 0;
      if (!p.nothing && cols == 0)
        fail_invalid(c, "op(A) has 0 columns (CLBlast needs every dimension >= 1)");
      break;
    }
    case blas_routine::ger:
    case blas_routine::geru:
    case blas_routine::gerc:
      if (c.a.rows != c.x.n || c.a.cols != c.y.n)
        fail_invalid(c, "A is " + dims(c.a.rows, c.a.cols) + " but x has " + std::to_string(c.x.n) +
                            " and y " + std::to_string(c.y.n) + " elements");
      check_matrix(c, "A", c.a);
      p.lay = c.a.lay;
      p.m = c.a.rows;
      p.n = c.a.cols;
      p.nothing = p.m == 0 || p.n == 0;
      break;
    case blas_routine::trsv:
      p.ta = real_aware(c.ta, c.type);
      if (c.a.rows != c.a.cols || c.a.rows != c.x.n)
        fail_invalid(c, "A must be square with as many rows as x has elements");
      check_matrix(c, "A", c.a);
      p.lay = c.a.lay;
      p.n = c.x.n;
      p.nothing = p.n == 0;
      break;
    case blas_routine::gemm:
    case blas_routine::gemm_batched: {
      p.ta = real_aware(c.ta, c.type);
      p.tb = real_aware(c.tb, c.type);
      const auto [am, ak] = op_dims(c.a, p.ta);
      const auto [bk, bn] = op_dims(c.b, p.tb);
      if (am != c.c.rows || bn != c.c.cols || ak != bk)
        fail_invalid(c, "op(A) is " + dims(am, ak) + ", op(B) " + dims(bk, bn) + " and C " +
                            dims(c.c.rows, c.c.cols) +
                            "; need op(A) m x k, op(B) k x n and C m x n");
      const bool batched = c.routine == blas_routine::gemm_batched;
      const std::size_t count = batched ? c.batch : 1;
      p.m = c.c.rows;
      p.n = c.c.cols;
      p.k = ak;
      p.nothing = p.m == 0 || p.n == 0 || count == 0;
      if (p.nothing) break;
      if (p.k == 0) fail_invalid(c, "k is 0 (CLBlast needs every dimension >= 1)");
      check_matrix(c, "A", c.a, count, batched ? c.stride_a : 0);
      check_matrix(c, "B", c.b, count, batched ? c.stride_b : 0);
      check_matrix(c, "C", c.c, count, batched ? c.stride_c : 0);
      if (batched && count > 1) {
        const bool row = c.c.lay == blas::layout::row_major;
        const std::size_t span =
            ((row ? c.c.rows : c.c.cols) - 1) * c.c.ld + (row ? c.c.cols : c.c.rows);
        if (c.stride_c < span)
          fail_invalid(c, "stride_c " + std::to_string(c.stride_c) +
                              " makes the C matrices overlap (each spans " + std::to_string(span) +
                              " elements)");
      }
      p.lay = c.c.lay;
      to_layout(c, "A", p.a, p.ta, p.lay);
      to_layout(c, "B", p.b, p.tb, p.lay);
      break;
    }
    case blas_routine::symm: {
      p.m = c.c.rows;
      p.n = c.c.cols;
      const std::size_t na = c.sd == blas::side::left ? p.m : p.n;
      if (c.a.rows != na || c.a.cols != na || c.b.rows != p.m || c.b.cols != p.n)
        fail_invalid(
            c, "A is " + dims(c.a.rows, c.a.cols) + ", B " + dims(c.b.rows, c.b.cols) + " and C " +
                   dims(p.m, p.n) + "; need B and C m x n and A " +
                   (c.sd == blas::side::left ? "m x m (side left)" : "n x n (side right)"));
      p.nothing = p.m == 0 || p.n == 0;
      if (p.nothing) break;
      check_matrix(c, "A", c.a);
      check_matrix(c, "B", c.b);
      check_matrix(c, "C", c.c);
      if (c.b.lay != c.c.lay) fail_invalid(c, "B must have C's layout (symm has no op(B))");
      p.lay = c.c.lay;
      if (p.a.lay != p.lay) {  // a symmetric matrix read in the other layout: the other triangle
        p.a.lay = p.lay;
        p.tri = flip(p.tri);
      }
      break;
    }
    case blas_routine::syrk: {
      p.ta = real_aware(c.ta, c.type);
      if (p.ta == blas::transpose::conj_trans)
        fail_invalid(c, "syrk takes transpose none or trans (A^H is herk's)");
      const auto [an, ak] = op_dims(c.a, p.ta);
      if (c.c.rows != c.c.cols || an != c.c.rows)
        fail_invalid(c, "op(A) is " + dims(an, ak) + " and C " + dims(c.c.rows, c.c.cols) +
                            "; need C n x n and op(A) n x k");
      p.n = an;
      p.k = ak;
      p.nothing = p.n == 0;
      if (p.nothing) break;
      if (p.k == 0) fail_invalid(c, "k is 0 (CLBlast needs every dimension >= 1)");
      check_matrix(c, "A", c.a);
      check_matrix(c, "C", c.c);
      p.lay = c.c.lay;
      to_layout(c, "A", p.a, p.ta, p.lay);
      break;
    }
    case blas_routine::trmm:
    case blas_routine::trsm: {
      p.ta = real_aware(c.ta, c.type);
      p.m = c.b.rows;
      p.n = c.b.cols;
      const std::size_t na = c.sd == blas::side::left ? p.m : p.n;
      if (c.a.rows != na || c.a.cols != na)
        fail_invalid(c,
                     "A is " + dims(c.a.rows, c.a.cols) + " and B " + dims(p.m, p.n) + "; need A " +
                         (c.sd == blas::side::left ? "m x m (side left)" : "n x n (side right)"));
      p.nothing = p.m == 0 || p.n == 0;
      if (p.nothing) break;
      check_matrix(c, "A", c.a);
      check_matrix(c, "B", c.b);
      p.lay = c.b.lay;
      if (p.a.lay != p.lay) {
        to_layout(c, "A", p.a, p.ta, p.lay);
        p.tri = flip(p.tri);
      }
      break;
    }
  }
  return p;
}

// --- the CLBlast calls ---

template <class T>
clblast::StatusCode call_typed(const blas_call& c, const plan& p, cl_command_queue* q,
                               cl_event* ev) {
  const T alpha = c.alpha ? *static_cast<const T*>(c.alpha) : T(1);
  const T beta = c.beta ? *static_cast<const T*>(c.beta) : T(0);
  constexpr bool complex =
      std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
  const auto& x = c.x;
  const auto& y = c.y;
  const auto& a = p.a;
  const auto& b = p.b;
  const auto& cc = p.c;
  auto mem = [](const auto& operand) { return operand.buf ? operand.buf->get() : nullptr; };
  switch (c.routine) {
    case blas_routine::axpy:
      return clblast::Axpy<T>(p.n, alpha, mem(x), x.offset, x.inc, mem(y), y.offset, y.inc, q, ev);
    case blas_routine::scal:
      return clblast::Scal<T>(p.n, alpha, mem(x), x.offset, x.inc, q, ev);
    case blas_routine::copy:
      return clblast::Copy<T>(p.n, mem(x), x.offset, x.inc, mem(y), y.offset, y.inc, q, ev);
    case blas_routine::swap:
      return clblast::Swap<T>(p.n, mem(x), x.offset, x.inc, mem(y), y.offset, y.inc, q, ev);
    case blas_routine::dot:
      if constexpr (!complex)
        return clblast::Dot<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc, mem(y),
                               y.offset, y.inc, q, ev);
      break;
    case blas_routine::dotu:
      if constexpr (complex)
        return clblast::Dotu<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc,
                                mem(y), y.offset, y.inc, q, ev);
      break;
    case blas_routine::dotc:
      if constexpr (complex)
        return clblast::Dotc<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc,
                                mem(y), y.offset, y.inc, q, ev);
      break;
    case blas_routine::nrm2:
      return clblast::Nrm2<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc, q, ev);
    case blas_routine::asum:
      return clblast::Asum<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc, q, ev);
    case blas_routine::amax:
      return clblast::Amax<T>(p.n, mem(c.result), c.result.offset, mem(x), x.offset, x.inc, q, ev);
    case blas_routine::gemv:
      return clblast::Gemv<T>(cl(p.lay), cl(p.ta), p.m, p.n, alpha, mem(a), a.offset, a.ld, mem(x),
                              x.offset, x.inc, beta, mem(y), y.offset, y.inc, q, ev);
    case blas_routine::ger:
      if constexpr (!complex)
        return clblast::Ger<T>(cl(p.lay), p.m, p.n, alpha, mem(x), x.offset, x.inc, mem(y),
                               y.offset, y.inc, mem(a), a.offset, a.ld, q, ev);
      break;
    case blas_routine::geru:
      if constexpr (complex)
        return clblast::Geru<T>(cl(p.lay), p.m, p.n, alpha, mem(x), x.offset, x.inc, mem(y),
                                y.offset, y.inc, mem(a), a.offset, a.ld, q, ev);
      break;
    case blas_routine::gerc:
      if constexpr (complex)
        return clblast::Gerc<T>(cl(p.lay), p.m, p.n, alpha, mem(x), x.offset, x.inc, mem(y),
                                y.offset, y.inc, mem(a), a.offset, a.ld, q, ev);
      break;
    case blas_routine::trsv:
      return clblast::Trsv<T>(cl(p.lay), cl(p.tri), cl(p.ta), cl(c.diag), p.n, mem(a), a.offset,
                              a.ld, mem(x), x.offset, x.inc, q, ev);
    case blas_routine::gemm:
      return clblast::Gemm<T>(cl(p.lay), cl(p.ta), cl(p.tb), p.m, p.n, p.k, alpha, mem(a), a.offset,
                              a.ld, mem(b), b.offset, b.ld, beta, mem(cc), cc.offset, cc.ld, q, ev);
    case blas_routine::gemm_batched:
      return clblast::GemmStridedBatched<T>(cl(p.lay), cl(p.ta), cl(p.tb), p.m, p.n, p.k, alpha,
                                            mem(a), a.offset, a.ld, c.stride_a, mem(b), b.offset,
                                            b.ld, c.stride_b, beta, mem(cc), cc.offset, cc.ld,
                                            c.stride_c, c.batch, q, ev);
    case blas_routine::symm:
      return clblast::Symm<T>(cl(p.lay), cl(c.sd), cl(p.tri), p.m, p.n, alpha, mem(a), a.offset,
                              a.ld, mem(b), b.offset, b.ld, beta, mem(cc), cc.offset, cc.ld, q, ev);
    case blas_routine::syrk:
      return clblast::Syrk<T>(cl(p.lay), cl(p.tri), cl(p.ta), p.n, p.k, alpha, mem(a), a.offset,
                              a.ld, beta, mem(cc), cc.offset, cc.ld, q, ev);
    case blas_routine::trmm:
      return clblast::Trmm<T>(cl(p.lay), cl(c.sd), cl(p.tri), cl(p.ta), cl(c.diag), p.m, p.n, alpha,
                              mem(a), a.offset, a.ld, mem(b), b.offset, b.ld, q, ev);
    case blas_routine::trsm:
      return clblast::Trsm<T>(cl(p.lay), cl(c.sd), cl(p.tri), cl(p.ta), cl(c.diag), p.m, p.n, alpha,
                              mem(a), a.offset, a.ld, mem(b), b.offset, b.ld, q, ev);
  }
  return clblast::StatusCode::kNotImplemented;
}

clblast::StatusCode call_clblast(const blas_call& c, const plan& p, cl_command_queue* q,
                                 cl_event* ev) {
  switch (c.type) {
    case scalar_type::f32:
      return call_typed<float>(c, p, q, ev);
    case scalar_type::f64:
      return call_typed<double>(c, p, q, ev);
    case scalar_type::c64:
      return call_typed<std::complex<float>>(c, p, q, ev);
    case scalar_type::c128:
      return call_typed<std::complex<double>>(c, p, q, ev);
    default:  // the templates admit no other type
      break;
  }
  return clblast::StatusCode::kNotImplemented;
}

std::vector<const anycl::buffer*> buffers_of(const blas_call& c) {
  const operands o = used(c.routine);
  std::vector<const anycl::buffer*> out;
  if (o.a) out.push_back(c.a.buf);
  if (o.b) out.push_back(c.b.buf);
  if (o.c) out.push_back(c.c.buf);
  if (o.x) out.push_back(c.x.buf);
  if (o.y) out.push_back(c.y.buf);
  if (o.result) out.push_back(c.result.buf);
  return out;
}

}  // namespace

event blas_run(const command_queue& queue, const blas_call& call, const std::vector<event>& wait) {
  const char* routine = routine_name(call.routine);
  if (!queue)
    throw std::invalid_argument(std::string(routine) +
                                ": the queue is empty (default-constructed)");
  const plan p = prepare(call);
  const wait_list waits(wait);
  if (p.nothing) return queue.marker(waits);
  const std::vector<const anycl::buffer*> bufs = buffers_of(call);
  const cl_context ctx = queue.context().get();
  for (const anycl::buffer* b : bufs) {
    if (b == nullptr || b->empty()) fail_range(call, "an operand's buffer is empty");
    if (b->context().get() != ctx)
      fail_invalid(call, "the buffers and the queue belong to different contexts");
  }
  if (p.zero_out) {
    const std::size_t es =
        call.routine == blas_routine::amax ? sizeof(cl_uint) : size_of(call.type);
    const unsigned char zero[16] = {};
    return queue.fill_bytes(*call.result.buf, call.result.offset * es, es, zero, es, waits);
  }
  const std::shared_ptr<blas_context> holder = holder_for(ctx);
  for (const anycl::buffer* b : bufs) watch(holder, *b);
  // CLBlast takes no wait list: a barrier orders its commands after `wait`.
  if (waits.size() > 0) queue.barrier(waits);
  cl_command_queue raw = queue.get();
  cl_event ev = nullptr;
  clblast::StatusCode status = clblast::StatusCode::kSuccess;
  if (call.routine == blas_routine::amax && (call.x.offset != 0 || call.x.inc != 1)) {
    // CLBlast's Amax returns offset + i * inc; on a dense copy that is i.
    const anycl::buffer dense(queue.context(), p.n * size_of(call.type));
    blas_call copy = call;
    copy.routine = blas_routine::copy;
    copy.y = {&dense, 0, p.n, p.n, 1};
    status = call_clblast(copy, p, &raw, nullptr);
    if (status == clblast::StatusCode::kSuccess) {
      blas_call dense_call = call;
      dense_call.x = copy.y;
      status = call_clblast(dense_call, p, &raw, &ev);
    }
  } else {
    status = call_clblast(call, p, &raw, &ev);
  }
  if (status != clblast::StatusCode::kSuccess) {
    if (ev) clReleaseEvent(ev);
    throw blas_error(routine, static_cast<int>(status), shapes(call));
  }
  if (ev) return event::adopt(ev);
  return queue.marker();
}

// --- arrays ---

namespace {

std::string role_text(const char* routine, const char* role) {
  return std::string(routine) + ": " + role;
}

blas_matrix matrix_from(const array_core& a, const std::array<std::size_t, 4>& e,
                        const std::array<std::size_t, 4>& s, unsigned first, const char* routine,
                        const char* role) {
  blas_matrix m;
  m.buf = &a.buffer();
  const std::size_t es = size_of(a.type());
  m.offset = a.layout().offset;
  m.size = a.buffer().size() / es - m.offset;
  m.rows = e[first];
  m.cols = e[first + 1];
  const std::size_t s0 = s[first], s1 = s[first + 1];
  if (m.rows == 0 || m.cols == 0) {
    m.ld = std::max<std::size_t>(1, m.cols);
  } else if ((s1 == 1 || m.cols == 1) && (m.rows == 1 || s0 >= m.cols)) {
    m.lay = blas::layout::row_major;
    m.ld = m.rows == 1 ? m.cols : s0;
  } else if ((s0 == 1 || m.rows == 1) && (m.cols == 1 || s1 >= m.rows)) {
    m.lay = blas::layout::col_major;
    m.ld = m.cols == 1 ? m.rows : s1;
  } else {
    throw std::invalid_argument(role_text(routine, role) + " " + a.layout().extents.str() +
                                " is strided in both axes (strides " + std::to_string(s0) + ", " +
                                std::to_string(s1) + "); copy() it");
  }
  return m;
}

void require_array(const array_core& a, const char* routine, const char* role, unsigned dims) {
  if (!a.valid())
    throw std::invalid_argument(role_text(routine, role) + " is empty (default-constructed)");
  if (a.layout().extents.dims() != dims)
    throw std::invalid_argument(role_text(routine, role) + " must be a " + std::to_string(dims) +
                                "-D array, not " + a.layout().extents.str());
}

}  // namespace

blas_matrix blas_matrix_of(const array_core& a, const char* routine, const char* role) {
  require_array(a, routine, role, 2);
  return matrix_from(a, a.layout().extents.extents(), a.layout().strides, 0, routine, role);
}

blas_vector blas_vector_of(const array_core& a, const char* routine, const char* role) {
  require_array(a, routine, role, 1);
  blas_vector v;
  v.buf = &a.buffer();
  const std::size_t es = size_of(a.type());
  v.offset = a.layout().offset;
  v.size = a.buffer().size() / es - v.offset;
  v.n = a.layout().extents[0];
  v.inc = v.n <= 1 ? 1 : a.layout().strides[0];
  if (v.inc == 0)
    throw std::invalid_argument(role_text(routine, role) + " has stride 0; copy() it");
  return v;
}

blas_matrix blas_batch_of(const array_core& a, const char* routine, const char* role,
                          std::size_t& stride, std::size_t& batch) {
  require_array(a, routine, role, 3);
  batch = a.layout().extents[0];
  stride = a.layout().strides[0];
  return matrix_from(a, a.layout().extents.extents(), a.layout().strides, 1, routine, role);
}

event blas_run_arrays(const blas_call& call, std::initializer_list<const array_core*> arrays,
                      const array_core& out, const std::vector<event>& wait) {
  // Every array has passed require_array (not empty, the right number of dimensions) when the
  // matrix or vector was made from it.
  const char* routine = routine_name(call.routine);
  const cl_context ctx = out.queue().context().get();
  for (const array_core* a : arrays)
    if (a->queue().context().get() != ctx)
      throw std::invalid_argument(std::string(routine) +
                                  ": the arrays belong to different contexts");
  std::vector<event> deps = dependencies(arrays);
  deps.insert(deps.end(), wait.begin(), wait.end());
  event e = blas_run(out.queue(), call, deps);
  for (const array_core* a : arrays) a->record(e);
  return e;
}

}  // namespace detail
}  // namespace anycl
