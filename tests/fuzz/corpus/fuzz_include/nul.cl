#include "nul.h"
