#pragma once
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "once.h"
