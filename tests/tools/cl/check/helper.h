// SPDX-License-Identifier: Apache-2.0
// anycl-build --check fixture: a header, not built alone (it would not compile on its own).
this is not OpenCL C
