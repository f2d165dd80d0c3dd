// SPDX-License-Identifier: Apache-2.0
// Matrix transpose through a __local tile: reads and writes of global memory both go along rows.

// out (cols x rows) = in (rows x cols)^T. The work-group is TILE x TILE work-items; `tile` holds
// TILE * (TILE + 1) floats (the extra column keeps the reads of a tile column off one bank).
__kernel void transpose(const uint rows, const uint cols, __global const float* in,
                        __global float* out, __local float* tile) {
  const uint tile_size = get_local_size(0);
  const uint lx = get_local_id(0), ly = get_local_id(1);
  uint x = get_global_id(0), y = get_global_id(1);  // column and row of `in`
  if (x < cols && y < rows) tile[ly * (tile_size + 1) + lx] = in[y * cols + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  // The same work-group writes the mirrored tile: column and row of `out`.
  x = get_group_id(1) * tile_size + lx;
  y = get_group_id(0) * tile_size + ly;
  if (x < rows && y < cols) out[y * rows + x] = tile[lx * (tile_size + 1) + ly];
}
