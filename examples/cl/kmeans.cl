// SPDX-License-Identifier: Apache-2.0
// k-means on 2-D points, for 12_mpi_kmeans: an assignment step and the sums it produces.

#define KMEANS_MAX_K 16

// Work-item g of G takes the points g, g + G, ...: it stores each point's nearest centre (the
// first on ties) in assign[i] and adds the point to its own sums, partial[g * k + c] =
// (sum of x, sum of y, points, points whose centre changed) for centre c.
__kernel void kmeans_assign(const uint n, const uint k, __global const float2* points,
                            __global const float2* centres, __global uint* assign,
                            __global float4* partial) {
  const uint g = get_global_id(0);
  const uint stride = get_global_size(0);
  float4 acc[KMEANS_MAX_K];
  for (uint c = 0; c < k; ++c) acc[c] = (float4)(0.0f);
  for (uint i = g; i < n; i += stride) {
    const float2 p = points[i];
    uint best = 0;
    float best_d = INFINITY;
    for (uint c = 0; c < k; ++c) {
      const float2 d = p - centres[c];
      const float dd = d.x * d.x + d.y * d.y;
      if (dd < best_d) {
        best_d = dd;
        best = c;
      }
    }
    const float changed = assign[i] != best ? 1.0f : 0.0f;
    assign[i] = best;
    acc[best] += (float4)(p.x, p.y, 1.0f, changed);
  }
  for (uint c = 0; c < k; ++c) partial[g * k + c] = acc[c];
}

// Adds the G work-items' sums: work-item j of 4k writes sums[j] = sum over g of component j % 4
// of partial[g * k + j / 4], so sums holds (x, y, points, changed) for each centre in turn.
__kernel void kmeans_sums(const uint groups, const uint k, __global const float* partial,
                          __global float* sums) {
  const uint j = get_global_id(0);
  if (j >= 4 * k) return;
  float s = 0.0f, lost = 0.0f;  // compensated (Kahan) sum: rounding stays near one ulp
  for (uint g = 0; g < groups; ++g) {
    const float y = partial[g * 4 * k + j] - lost;
    const float t = s + y;
    lost = (t - s) - y;
    s = t;
  }
  sums[j] = s;
}
