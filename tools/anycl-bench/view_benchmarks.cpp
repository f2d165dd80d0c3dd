// SPDX-License-Identifier: Apache-2.0
// array_view_to_host, array_view_set: to_host and set of a block of columns of a float matrix
// (rows with stride 1, a gap after each), one rectangular transfer, against the dense copy a
// kernel makes and one contiguous transfer ("gather": what every strided view took before).
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "anycl/anycl.hpp"
#include "registry.hpp"

namespace anycl::bench {

namespace {

/// A (rows, 2 cols) matrix of known values and its first `cols` columns as a view.
struct view_data {
  std::size_t rows = 0, cols = 0;
  std::vector<float> host, out;  // the matrix; the view's elements on the host
  array<float> M, V;
  float at(std::size_t r, std::size_t c) const { return host[r * 2 * cols + c]; }
};

/// The matrix's rows and the view's columns for about `elements` matrix elements: a power of two
/// columns, about twice as many rows.
std::pair<std::size_t, std::size_t> view_shape(std::size_t elements) {
  const auto cols = std::size_t{1} << static_cast<unsigned>(std::log2(std::sqrt(elements / 2.0)));
  return {std::max<std::size_t>(1, elements / (2 * cols)), cols};
}

std::shared_ptr<view_data> make_view(const session& s, std::size_t elements) {
  auto d = std::make_shared<view_data>();
  std::tie(d->rows, d->cols) = view_shape(elements);
  d->host.resize(d->rows * 2 * d->cols);
  for (std::size_t i = 0; i < d->host.size(); ++i) d->host[i] = static_cast<float>(i % 65521);
  d->out.assign(d->rows * d->cols, 0.0f);
  d->M = array<float>::from_host(s.queue, d->host, {d->rows, 2 * d->cols});
  d->V = d->M.slice(1, 0, d->cols);
  return d;
}

/// Every element of the view's host copy against the matrix, exactly.
void verify_view(const std::string& impl, const view_data& d, std::vector<float> got,
                 bool corrupt) {
  if (corrupt) got[got.size() / 2] += 1.0f;
  for (std::size_t r = 0; r < d.rows; ++r)
    for (std::size_t c = 0; c < d.cols; ++c)
      if (got[r * d.cols + c] != d.at(r, c))
        throw check_failed(impl + ": wrong element (" + std::to_string(r) + ", " +
                           std::to_string(c) + "): " + std::to_string(got[r * d.cols + c]) +
                           ", expected " + std::to_string(d.at(r, c)));
}

path view_path(const std::string& impl, std::shared_ptr<view_data> d, bool set) {
  view_data* dp = d.get();
  path p;
  p.impl = impl;
  // AnyCL's to_host/set, or the gather they replaced: a dense copy by a kernel and one transfer.
  std::function<void()> work;
  if (impl == "anycl" && !set) work = [dp] { dp->V.to_host(dp->out.data()); };
  if (impl == "anycl" && set) work = [dp] { dp->V.set(dp->out); };
  if (impl != "anycl" && !set) work = [dp] { dp->V.copy().to_host(dp->out.data()); };
  if (impl != "anycl" && set)
    work = [dp] { dp->V.assign(array<float>::from_host(dp->V.queue(), dp->out, dp->V.shape())); };
  p.iteration = [work, dp, set, d] {
    work();
    if (set) dp->M.wait();
  };
  p.check = [work, dp, impl, set](bool corrupt) {
    if (set) {
      // The view's own values written back over a scribbled matrix restore it.
      for (std::size_t r = 0; r < dp->rows; ++r)
        for (std::size_t c = 0; c < dp->cols; ++c) dp->out[r * dp->cols + c] = dp->at(r, c);
      dp->V.fill(-1.0f);
      work();
      verify_view(impl, *dp, dp->V.to_host(), corrupt);
      return;
    }
    std::fill(dp->out.begin(), dp->out.end(), -1.0f);
    work();
    verify_view(impl, *dp, dp->out, corrupt);
  };
  return p;
}

void add_view_row(std::vector<benchmark>& out, const settings& set, bool write) {
  const std::size_t n = set.array_elements;
  const auto [rows, cols] = view_shape(n);
  benchmark b;
  b.name = b.family = write ? "array_view_set" : "array_view_to_host";
  b.group = "array";
  b.unit = unit_kind::gigabytes_per_second;
  b.items_per_iteration = 4.0 * static_cast<double>(rows * cols);
  b.what = std::string(write ? "set" : "to_host") + " of the view (" + std::to_string(rows) + ", " +
           std::to_string(cols) + ") of a (" + std::to_string(rows) + ", " +
           std::to_string(2 * cols) +
           ") float matrix, its first columns (rows of stride 1 with a gap after each: one "
           "rectangular transfer); GB/s counting 4 bytes per element of the view";
  b.check = write ? "the view read back after a set over a scribbled view, against the matrix"
                  : "every element of the host copy against the matrix, exactly";
  b.references = {{"gather", write ? "the host data to a new array, assigned to the view by a "
                                     "kernel (what every strided view took before)"
                                   : "the view's dense copy made by a kernel, then one "
                                     "contiguous read (what every strided view took before)"}};
  b.prepare = [n, write](const session& s) {
    std::shared_ptr<view_data> d = make_view(s, n);
    return std::vector<path>{view_path("anycl", d, write), view_path("gather", d, write)};
  };
  out.push_back(std::move(b));
}

}  // namespace

void add_view_benchmarks(std::vector<benchmark>& out, const settings& s) {
  add_view_row(out, s, false);
  add_view_row(out, s, true);
}

}  // namespace anycl::bench
