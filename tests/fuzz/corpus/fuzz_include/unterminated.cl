#include "plain.h
#include <plain.h
#include
#  include  
#include "
