#include "once.h"
#include "./once.h"
#include "sub/../once.h"
