// SPDX-License-Identifier: Apache-2.0
// CLBlast keeps every compiled program, and with it its context, until clblast::ClearCache():
// the buffers BLAS calls use hold a per-context holder whose end clears that cache. Private to
// src/blas.
#pragma once

#include <vector>

#include "anycl/buffer.hpp"

namespace anycl::detail {

/// Makes each of `buffers` (of context `ctx`) hold ctx's holder until it is released; the last
/// release of a context's BLAS buffers clears CLBlast's cache.
void watch_buffers(cl_context ctx, const std::vector<const anycl::buffer*>& buffers);

}  // namespace anycl::detail
