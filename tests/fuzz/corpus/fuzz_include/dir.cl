#include "dir.h"
