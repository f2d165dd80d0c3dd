#include "d0.h"
