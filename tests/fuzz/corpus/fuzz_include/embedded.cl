#include "anycl/loop.h"
#include "anycl/reduce.h"
#include "anycl/philox.h"
