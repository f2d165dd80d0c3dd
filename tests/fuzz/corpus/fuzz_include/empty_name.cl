#include ""
#include <>
