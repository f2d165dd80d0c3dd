// SPDX-License-Identifier: Apache-2.0
// ANYCL_INTERNAL marks internals that the test programs call: visible in a shared build as the
// API is, but declared only in private headers under src/, which are never installed.
#pragma once

#include "anycl/export.hpp"

#define ANYCL_INTERNAL ANYCL_EXPORT
