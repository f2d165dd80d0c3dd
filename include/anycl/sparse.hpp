// SPDX-License-Identifier: Apache-2.0
// Sparse matrices in compressed sparse row (CSR) form on device arrays, and sparse matrix-vector
// products y = alpha * A x + beta * y.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "anycl/array.hpp"
#include "anycl/export.hpp"

namespace anycl {

/// The element types csr_matrix supports.
template <class T>
inline constexpr bool is_sparse_element_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::int64_t> ||
    std::is_same_v<T, std::uint64_t>;

/// A rows x cols sparse matrix in CSR form on one queue's context: row r holds the entries
/// values[k], in columns col_idx[k], for k in [row_ptr[r], row_ptr[r + 1]). Indices are 32-bit
/// unsigned (`index_type`, OpenCL `uint`), so rows and nnz are below 2^32 and cols at most 2^32.
/// Columns within a row need not be sorted; repeated columns add up in products. Copies share the
/// device arrays, like array<T>. T is float, double, int32_t, uint32_t, int64_t or uint64_t.
///
/// On a CPU device the matrix also keeps a partition of its rows into contiguous ranges of about
/// equal work (entries + rows), one per work-item of spmv, computed once at construction.
template <class T>
class csr_matrix {
  static_assert(is_sparse_element_v<T>,
                "AnyCL: csr_matrix<T> needs T in float, double, int32_t, uint32_t, int64_t, "
                "uint64_t");

 public:
  using value_type = T;
  using index_type = std::uint32_t;

  /// A 0 x 0 matrix without a queue.
  csr_matrix() = default;

  /// From coordinate triplets (host_rows[i], host_cols[i], host_vals[i]), in any order; entries
  /// with the same row and column are summed (in the order given) into one. Throws
  /// std::invalid_argument when the three vectors differ in length or the shape does not fit
  /// 32-bit indices, std::out_of_range naming the first entry whose row or column is outside the
  /// matrix.
  ANYCL_EXPORT static csr_matrix from_triplets(const command_queue& queue, std::size_t rows,
                                               std::size_t cols,
                                               const std::vector<index_type>& host_rows,
                                               const std::vector<index_type>& host_cols,
                                               const std::vector<T>& host_vals);
  /// From CSR arrays on the host, checked: row_ptr has rows + 1 entries, starts at 0, never
  /// decreases and ends at nnz = col_idx.size() = values.size() (std::invalid_argument
  /// otherwise), every column is below cols (std::out_of_range naming the entry otherwise).
  ANYCL_EXPORT static csr_matrix from_csr(const command_queue& queue, std::size_t rows,
                                          std::size_t cols, const std::vector<index_type>& row_ptr,
                                          const std::vector<index_type>& col_idx,
                                          const std::vector<T>& values);

  std::size_t rows() const noexcept { return rows_; }
  std::size_t cols() const noexcept { return cols_; }
  /// Stored entries (explicit zeros included).
  std::size_t nnz() const noexcept { return values_.size(); }
  /// rows + 1 offsets into col_idx and values.
  const array<index_type>& row_ptr() const noexcept { return row_ptr_; }
  const array<index_type>& col_idx() const noexcept { return col_idx_; }
  const array<T>& values() const noexcept { return values_; }
  const command_queue& queue() const noexcept { return row_ptr_.queue(); }
  /// The first row of each spmv work-item and, last, rows (CPU devices; empty otherwise).
  const array<index_type>& row_partition() const noexcept { return partition_; }

 private:
  std::size_t rows_ = 0, cols_ = 0;
  array<index_type> row_ptr_, col_idx_, partition_;
  array<T> values_;
};

/// y = A x: x has A.cols() elements, y A.rows() (1-D arrays or views, in A's context). Enqueued on
/// A's queue after the pending commands on A, x and y. A strided x or y goes through a dense
/// temporary, and an x overlapping y is copied first. Throws std::invalid_argument for mismatched
/// sizes, default-constructed arrays or another context.
template <class T>
ANYCL_EXPORT void spmv(const csr_matrix<T>& A, const array<T>& x, const array<T>& y);
/// y = alpha A x + beta y; y is not read when beta is 0 (so NaNs there do not propagate).
template <class T>
ANYCL_EXPORT void spmv(T alpha, const csr_matrix<T>& A, const array<T>& x, T beta,
                       const array<T>& y);

}  // namespace anycl
