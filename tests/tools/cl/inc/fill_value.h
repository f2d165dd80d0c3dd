// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: found only through -I.
#pragma once
#define ANYCL_FILL_VALUE ((ANYCL_T)3)
