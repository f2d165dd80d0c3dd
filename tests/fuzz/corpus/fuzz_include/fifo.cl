#include "fifo.h"
