#pragma once
// kopt analyzer stub: the C library host functions of __kopt_host_c.h, and alloca (unless a project defined it
// away, `#define alloca __builtin_alloca`)
#include "__kopt_host_c.h"
#ifndef alloca
void *alloca(size_t);
#endif
