// SPDX-License-Identifier: Apache-2.0
// The demo's kernels: saxpy and a two-stage sum.
