#pragma once
// kopt analyzer stub: the C library host functions of __kopt_host_c.h
#include "__kopt_host_c.h"
