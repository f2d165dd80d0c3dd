// SPDX-License-Identifier: Apache-2.0
// anycl-build test fixture: builds only with -D ANYCL_T=<type> and -D ANYCL_FILL, and
// -I <tests/tools/cl/inc> for fill_value.h.
#ifndef ANYCL_T
#error "ANYCL_T is not defined: pass -D ANYCL_T=float"
#endif
#ifndef ANYCL_FILL
#error "ANYCL_FILL is not defined: pass -DANYCL_FILL"
#endif
#include <fill_value.h>

__kernel void anycl_test_fill(__global ANYCL_T* x) { x[get_global_id(0)] = ANYCL_FILL_VALUE; }
