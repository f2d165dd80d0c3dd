#include "d60.h"
