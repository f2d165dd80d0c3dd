#include "missing.h"
