// SPDX-License-Identifier: Apache-2.0
// anycl-run tests: image, sampler and SVM arguments.

// out = 255 - in, per channel.
kernel void invert(read_only image2d_t in, write_only image2d_t out) {
  const int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(out, p, (uint4)(255) - read_imageui(in, p));
}

// out[y][x] = in read through s between pixels x and x + 1 of row y (a linear filter's mean).
kernel void between(read_only image2d_t in, sampler_t s, global float* out) {
  const int x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = read_imagef(in, s, (float2)(x + 1.0f, y + 0.5f)).x;
}

// Each pixel of each layer holds x + 10 y + 100 layer.
kernel void layer_ids(write_only image2d_array_t out) {
  const int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imagei(out, p, (int4)(p.x + 10 * p.y + 100 * p.z, 0, 0, 0));
}

// out[x] = the sum over the layers of a 1-D image array.
kernel void sum_layers(read_only image1d_array_t in, int layers, global int* out) {
  const int x = get_global_id(0);
  int sum = 0;
  for (int l = 0; l < layers; ++l) sum += read_imagei(in, (int2)(x, l)).x;
  out[x] = sum;
}
