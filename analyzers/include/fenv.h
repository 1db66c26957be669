#pragma once
// kopt analyzer stub: the C floating-point environment's rounding modes (CV-CUDA's rounding wrappers name them)
#define FE_TONEAREST 0
#define FE_DOWNWARD 0x400
#define FE_UPWARD 0x800
#define FE_TOWARDZERO 0xc00
int fegetround(void);
int fesetround(int);
