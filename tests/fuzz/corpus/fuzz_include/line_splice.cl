#include \
"plain.h"
# /* c */ include "plain.h"
