#pragma once
// kopt analyzer stub: the x86 SIMD types and operations of __kopt_x86_simd.h
#include "__kopt_x86_simd.h"
