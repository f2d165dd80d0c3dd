/* #include "self.h" */
// #include "self.h"
const char* s = "/*";
#include "plain.h"
/* open
#include "self.h"
*/
