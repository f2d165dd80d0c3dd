#include "searched.h"
#include "comment.h"
