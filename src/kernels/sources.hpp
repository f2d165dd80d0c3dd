// SPDX-License-Identifier: Apache-2.0
// Reading .cl files safely and splicing their #includes, with #line markers.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "anycl/kernel_loader.hpp"

namespace anycl::detail {

/// Files larger than this are refused (a kernel source is never this big; a device file might be).
inline constexpr std::size_t max_source_file_bytes = std::size_t(16) << 20;
/// Nesting deeper than this is refused (a cycle without guards would otherwise recurse forever).
inline constexpr int max_include_depth = 64;

/// Reads a regular file whole. Never blocks on a FIFO or device. Throws source_error naming the
/// path for a missing, unreadable, non-regular or oversized file, and for a NUL byte (with its
/// offset); a UTF-8 byte-order mark is dropped.
std::string read_source_file(const std::string& path);

/// Where one source file came from: a real file, or the library's embedded copy.
struct source_file {
  std::string display;        ///< the name in #line markers and messages
  std::string path;           ///< the file system path ("" for embedded)
  std::string embedded_path;  ///< relative to cl_kernels/ when embedded
  std::string_view embedded_text;
  bool embedded = false;
};

/// Finds `name` in `dirs` (in order), then in the embedded copy. False when nowhere.
bool find_source(std::string_view name, const std::vector<std::string>& dirs, source_file& out);

/// Splices the #includes of `text` (from `origin`). `dirs` are the folders searched after the
/// including file's own folder. Throws source_error for a missing quoted include, a cycle
/// between unguarded files, or nesting past max_include_depth.
resolved_source splice_includes(const source_file& origin, std::string text,
                                const std::vector<std::string>& dirs);

/// The text of #line's file-name operand for `name` (quotes and backslashes escaped).
std::string line_marker(std::size_t line, std::string_view name);

}  // namespace anycl::detail
