// kopt analyzers: cuFFT multi-GPU header; its device-visible types are cuFFT's
#pragma once
#include <cufft.h>
