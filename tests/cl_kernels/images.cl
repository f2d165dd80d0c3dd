// SPDX-License-Identifier: Apache-2.0
// Image kernels of the image tests: reads through a sampler, writes of pixels.

// out[y * w + x] = the image read at (x + dx, y + dy) in pixels through `s` (float channels 0).
kernel void sample(read_only image2d_t img, sampler_t s, float dx, float dy, global float* out) {
  const int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  out[y * w + x] = read_imagef(img, s, (float2)(x + dx, y + dy)).x;
}

// Writes pixel (x, y) = (x, y, x + y, 1) scaled by 1/256 into an RGBA float image.
kernel void paint(write_only image2d_t img) {
  const int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), (float4)(x, y, x + y, 256.0f) / 256.0f);
}

// Doubles every unsigned integer pixel of a 3-D image into another.
kernel void double3d(read_only image3d_t in, write_only image3d_t out) {
  const int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
  write_imageui(out, p, read_imageui(in, s, p) * 2u);
}
