#include "sub/inner.h"
#include "plain.h"
