#include "bom.h"
#include "noeol.h"
int main_;
