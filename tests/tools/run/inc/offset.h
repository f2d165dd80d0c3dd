// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: found through -I only.
#define OFFSET 7
