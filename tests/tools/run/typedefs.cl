// Kernels whose parameters are declared through typedefs and macros, as much published code is.
typedef float real_t;
typedef real_t scalar_t;
typedef unsigned int count_t;
typedef float4 vec_t;
typedef struct {
  float x, y;
} point_t;
#define INDEX_T int

kernel void scale(global real_t* a, const scalar_t alpha, count_t n) {
  size_t i = get_global_id(0);
  if (i < n) a[i] *= alpha;
}
kernel void widen(global vec_t* v) { v[get_global_id(0)] += (vec_t)(1, 2, 3, 4); }
kernel void index(global INDEX_T* out) { out[get_global_id(0)] = (INDEX_T)get_global_id(0) * 3; }
kernel void shift(global point_t* p, point_t by) {
  size_t i = get_global_id(0);
  p[i].x += by.x;
  p[i].y += by.y;
}
kernel void picture(read_only image2d_t img, global float* out) {
  out[0] = read_imagef(img, (int2)(0, 0)).x;
}
