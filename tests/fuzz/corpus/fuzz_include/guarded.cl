#include "guarded.h"
#include "guarded.h"
kernel void k(global int* a) { a[0] = guarded; }
