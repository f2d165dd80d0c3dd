// SPDX-License-Identifier: Apache-2.0
// csr_matrix: host-side validation and assembly, a row partition for CPU devices, and spmv
// through cl_kernels/anycl/sparse.cl.
#include "anycl/sparse.hpp"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrays/layout.hpp"
#include "arrays/library_kernels.hpp"

namespace anycl {

namespace {

using index_type = std::uint32_t;
constexpr std::size_t max_index = std::numeric_limits<index_type>::max();

std::string shape_str(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

void check_shape(const char* what, const command_queue& queue, std::size_t rows, std::size_t cols) {
  if (!queue)
    throw std::invalid_argument(std::string(what) + ": the queue is empty (default-constructed)");
  if (rows > max_index - 1 || cols > max_index + 1)
    throw std::invalid_argument(std::string(what) + ": a " + shape_str(rows, cols) +
                                " matrix does not fit 32-bit indices (rows < 2^32 - 1, cols <= "
                                "2^32)");
}

// Contiguous row ranges of about equal work (entries plus rows, so that empty rows count too), one
// per work-item: P + 1 boundaries, the first 0 and the last rows.
std::vector<index_type> partition_rows(const std::vector<index_type>& row_ptr, std::size_t rows,
                                       std::size_t parts) {
  const std::size_t nnz = row_ptr[rows];
  const std::size_t work = nnz + rows;
  std::vector<index_type> b(parts + 1, 0);
  b[parts] = static_cast<index_type>(rows);
  // cost(r) = row_ptr[r] + r never decreases: the first row whose cost reaches i * work / parts.
  std::size_t r = 0;
  for (std::size_t i = 1; i < parts; ++i) {
    const std::size_t target = work / parts * i + work % parts * i / parts;
    std::size_t lo = r, hi = rows;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (row_ptr[mid] + mid < target)
        lo = mid + 1;
      else
        hi = mid;
    }
    r = lo;
    b[i] = static_cast<index_type>(r);
  }
  return b;
}

}  // namespace

template <class T>
csr_matrix<T> csr_matrix<T>::from_csr(const command_queue& queue, std::size_t rows,
                                      std::size_t cols, const std::vector<index_type>& row_ptr,
                                      const std::vector<index_type>& col_idx,
                                      const std::vector<T>& values) {
  const char* what = "csr_matrix::from_csr";
  check_shape(what, queue, rows, cols);
  if (row_ptr.size() != rows + 1)
    throw std::invalid_argument(
        std::string(what) + ": row_ptr has " + std::to_string(row_ptr.size()) + " entries; a " +
        shape_str(rows, cols) + " matrix needs rows + 1 = " + std::to_string(rows + 1));
  if (col_idx.size() != values.size())
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(col_idx.size()) +
                                " column indices but " + std::to_string(values.size()) + " values");
  if (row_ptr[0] != 0)
    throw std::invalid_argument(std::string(what) + ": row_ptr[0] is " +
                                std::to_string(row_ptr[0]) + ", not 0");
  for (std::size_t r = 0; r < rows; ++r)
    if (row_ptr[r + 1] < row_ptr[r])
      throw std::invalid_argument(std::string(what) + ": row_ptr decreases at row " +
                                  std::to_string(r) + " (" + std::to_string(row_ptr[r]) + " then " +
                                  std::to_string(row_ptr[r + 1]) + ")");
  if (row_ptr[rows] != values.size())
    throw std::invalid_argument(std::string(what) + ": row_ptr ends at " +
                                std::to_string(row_ptr[rows]) + " but there are " +
                                std::to_string(values.size()) + " entries (nnz)");
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = row_ptr[r]; k < row_ptr[r + 1]; ++k)
      if (col_idx[k] >= cols)
        throw std::out_of_range(std::string(what) + ": entry " + std::to_string(k) + " (row " +
                                std::to_string(r) + ") has column " + std::to_string(col_idx[k]) +
                                ", outside the " + shape_str(rows, cols) + " matrix");
  csr_matrix m;
  m.rows_ = rows;
  m.cols_ = cols;
  m.row_ptr_ = array<index_type>::from_host(queue, row_ptr);
  m.col_idx_ = array<index_type>::from_host(queue, col_idx);
  m.values_ = array<T>::from_host(queue, values);
  const detail::device_profile p = detail::profile(queue);
  if (p.cpu && rows > 0) {
    // About 64 KiB of entries per work-item at least, at most 4 per compute unit.
    const std::size_t work = values.size() + rows;
    const std::size_t parts = std::max<std::size_t>(
        1, std::min<std::size_t>(std::size_t{4} * p.compute_units, work / 8192));
    m.partition_ = array<index_type>::from_host(queue, partition_rows(row_ptr, rows, parts));
  }
  return m;
}

template <class T>
csr_matrix<T> csr_matrix<T>::from_triplets(const command_queue& queue, std::size_t rows,
                                           std::size_t cols,
                                           const std::vector<index_type>& host_rows,
                                           const std::vector<index_type>& host_cols,
                                           const std::vector<T>& host_vals) {
  const char* what = "csr_matrix::from_triplets";
  check_shape(what, queue, rows, cols);
  const std::size_t n = host_vals.size();
  if (host_rows.size() != n || host_cols.size() != n)
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(host_rows.size()) +
                                " rows, " + std::to_string(host_cols.size()) + " columns and " +
                                std::to_string(n) + " values");
  for (std::size_t i = 0; i < n; ++i)
    if (host_rows[i] >= rows || host_cols[i] >= cols)
      throw std::out_of_range(std::string(what) + ": entry " + std::to_string(i) + " (row " +
                              std::to_string(host_rows[i]) + ", column " +
                              std::to_string(host_cols[i]) + ") is outside the " +
                              shape_str(rows, cols) + " matrix");
  // Counting sort by row (stable), then by column within each row (stable), then duplicates
  // summed in input order.
  std::vector<std::size_t> start(rows + 1, 0);
  for (index_type r : host_rows) ++start[r + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::size_t> order(n), fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) order[fill[host_rows[i]]++] = i;
  std::vector<index_type> row_ptr(rows + 1, 0), col_idx;
  std::vector<T> values;
  col_idx.reserve(n);
  values.reserve(n);
  for (std::size_t r = 0; r < rows; ++r) {
    auto b = order.begin() + static_cast<std::ptrdiff_t>(start[r]);
    auto e = order.begin() + static_cast<std::ptrdiff_t>(start[r + 1]);
    std::stable_sort(b, e,
                     [&](std::size_t i, std::size_t j) { return host_cols[i] < host_cols[j]; });
    for (auto it = b; it != e; ++it) {
      const std::size_t i = *it;
      if (it != b && host_cols[i] == col_idx.back())
        values.back() += host_vals[i];
      else {
        col_idx.push_back(host_cols[i]);
        values.push_back(host_vals[i]);
      }
    }
    if (values.size() > max_index)
      throw std::invalid_argument(std::string(what) + ": more than 2^32 - 1 entries");
    row_ptr[r + 1] = static_cast<index_type>(values.size());
  }
  return from_csr(queue, rows, cols, row_ptr, col_idx, values);
}

// --- spmv ---

namespace {

// The matrix and both vectors set, 1-D vectors of the matrix's sizes, all in one context.
template <class T>
void check_spmv(const csr_matrix<T>& A, const array<T>& x, const array<T>& y) {
  const char* what = "spmv";
  if (!A.queue()) throw std::invalid_argument("spmv: the matrix is empty (default-constructed)");
  if (!x.core().valid() || !y.core().valid())
    throw std::invalid_argument(std::string("spmv: ") + (x.core().valid() ? "y" : "x") +
                                " is empty (default-constructed)");
  if (x.dims() != 1 || y.dims() != 1)
    throw std::invalid_argument(std::string(what) + ": x and y must be 1-D, got shapes " +
                                x.shape().str() + " and " + y.shape().str());
  if (x.size() != A.cols())
    throw std::invalid_argument(std::string(what) + ": x has " + std::to_string(x.size()) +
                                " elements for a " + shape_str(A.rows(), A.cols()) +
                                " matrix (needs cols = " + std::to_string(A.cols()) + ")");
  if (y.size() != A.rows())
    throw std::invalid_argument(std::string(what) + ": y has " + std::to_string(y.size()) +
                                " elements for a " + shape_str(A.rows(), A.cols()) +
                                " matrix (needs rows = " + std::to_string(A.rows()) + ")");
  const cl_context ctx = A.queue().context().get();
  if (x.queue().context().get() != ctx || y.queue().context().get() != ctx)
    throw std::invalid_argument("spmv: x and y must be in the matrix's context");
}

// y = beta * y (or 0 when !read_y) for a matrix without entries; y is contiguous.
template <class T>
void spmv_scale(const csr_matrix<T>& A, T beta, bool read_y, const array<T>& y) {
  const command_queue& q = A.queue();
  const std::size_t n = A.rows();
  const detail::launch_plan plan = detail::plan_launch(q, n, sizeof(T));
  kernel k = detail::library_kernel(q, "anycl/sparse.cl", "anycl_spmv_scale",
                                    detail::typed_options(q, scalar_type_of<T>()));
  y.record(detail::launch(k, q, plan.range(), detail::dependencies({&y.core()}), y.buffer(),
                          cl_ulong(y.offset()), cl_ulong(n), cl_ulong(plan.chunk), beta,
                          cl_int(read_y ? 1 : 0)));
}

// The CSR kernel; x and y are contiguous and disjoint. On a CPU, one work-item per work-group
// and row partition: left to the driver, POCL puts all of them in one group, which runs on one
// thread.
template <class T>
void spmv_csr(T alpha, const csr_matrix<T>& A, const array<T>& x, T beta, bool read_y,
              const array<T>& y) {
  const command_queue& q = A.queue();
  const std::size_t n = A.rows();
  const detail::device_profile p = detail::profile(q);
  const nd_range range = p.cpu ? nd_range(A.row_partition().size() - 1, 1)
                               : detail::plan_launch(q, n, sizeof(T)).range();
  const array<index_type>& part = p.cpu ? A.row_partition() : A.row_ptr();
  kernel k = detail::library_kernel(q, "anycl/sparse.cl", "anycl_spmv_csr",
                                    detail::typed_options(q, scalar_type_of<T>()));
  const std::initializer_list<const detail::array_core*> used = {
      &A.row_ptr().core(), &A.col_idx().core(), &A.values().core(),
      &part.core(),        &x.core(),           &y.core()};
  event e = detail::launch(k, q, range, detail::dependencies(used), A.row_ptr().buffer(),
                           A.col_idx().buffer(), A.values().buffer(), x.buffer(),
                           cl_ulong(x.offset()), y.buffer(), cl_ulong(y.offset()), part.buffer(),
                           cl_ulong(n), alpha, beta, cl_int(read_y ? 1 : 0));
  for (const detail::array_core* a : used) a->record(e);
}

template <class T>
void spmv_impl(T alpha, const csr_matrix<T>& A, const array<T>& x, T beta, bool read_y,
               const array<T>& y) {
  check_spmv(A, x, y);
  if (A.rows() == 0) return;
  if (!y.contiguous()) {
    array<T> tmp = read_y ? y.copy() : array<T>::empty(A.queue(), y.size());
    spmv_impl(alpha, A, x, beta, read_y, tmp);
    y.assign(tmp);
    return;
  }
  if (A.nnz() == 0) return spmv_scale(A, beta, read_y, y);
  if (!x.contiguous() || x.core().may_overlap(y.core())) {
    spmv_impl(alpha, A, x.copy(), beta, read_y, y);
    return;
  }
  spmv_csr(alpha, A, x, beta, read_y, y);
}

}  // namespace

template <class T>
void spmv(const csr_matrix<T>& A, const array<T>& x, const array<T>& y) {
  spmv_impl(T(1), A, x, T(0), false, y);
}

template <class T>
void spmv(T alpha, const csr_matrix<T>& A, const array<T>& x, T beta, const array<T>& y) {
  spmv_impl(alpha, A, x, beta, beta != T(0), y);
}

#define ANYCL_SPARSE_INSTANTIATE(T)                                                           \
  template class csr_matrix<T>;                                                               \
  template ANYCL_EXPORT void spmv<T>(const csr_matrix<T>&, const array<T>&, const array<T>&); \
  template ANYCL_EXPORT void spmv<T>(T, const csr_matrix<T>&, const array<T>&, T, const array<T>&);

ANYCL_SPARSE_INSTANTIATE(float)
ANYCL_SPARSE_INSTANTIATE(double)
ANYCL_SPARSE_INSTANTIATE(std::int32_t)
ANYCL_SPARSE_INSTANTIATE(std::uint32_t)
ANYCL_SPARSE_INSTANTIATE(std::int64_t)
ANYCL_SPARSE_INSTANTIATE(std::uint64_t)

}  // namespace anycl
