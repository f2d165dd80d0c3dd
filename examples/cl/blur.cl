// SPDX-License-Identifier: Apache-2.0
// One pass of a separable Gaussian blur through images: out(x, y) = sum over k of
// w[|k|] * in((x, y) + k * step), the edges clamped by the sampler.
kernel void blur_pass(read_only image2d_t in, sampler_t edge, write_only image2d_t out,
                      constant float* w, int radius, int2 step) {
  const int2 p = (int2)(get_global_id(0), get_global_id(1));
  float sum = w[0] * read_imagef(in, edge, p).x;
  for (int k = 1; k <= radius; ++k)
    sum += w[k] * (read_imagef(in, edge, p + k * step).x + read_imagef(in, edge, p - k * step).x);
  write_imagef(out, p, (float4)(sum, 0.0f, 0.0f, 1.0f));
}
