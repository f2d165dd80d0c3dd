// SPDX-License-Identifier: Apache-2.0
// Must not compile: an expression without an array (CTest checks the static_assert text).
#include "anycl/anycl.hpp"
#include "anycl/elementwise.hpp"

auto constant() { return anycl::eval(2.0f * 3.0f); }
