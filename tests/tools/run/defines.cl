// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: -D and -I reach the build. SCALE comes from -D, OFFSET from inc/offset.h.
#include "offset.h"
#ifndef SCALE
#error SCALE is not defined
#endif
__kernel void scaled(__global int* out) {
  const int i = (int)get_global_id(0);
  out[i] = i * SCALE + OFFSET;
}
