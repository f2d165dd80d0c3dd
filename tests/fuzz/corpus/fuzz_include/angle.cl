#include "angle.h"
#include <plain.h>
#include <stdio.h>
